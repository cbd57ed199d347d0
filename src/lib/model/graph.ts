// The uuid graph (reference §2.3): one node per uuid, parent links, the leaf, and the compaction
// stitch repair. The graph is kept as arrays indexed by line seq (one Map lookup per link, no
// per-node Sets) so that a 100 MB session walks fast. Which nodes are active / kept is decided
// afterwards, in active-path.ts.
import { isObj } from './text.ts';
import { str, type Ctx, type Line } from './build-context.ts';

/** parentIdx values that are not a line seq: the node is a root / its parent uuid exists nowhere. */
export const NO_PARENT = -1, DANGLING = -2;

export interface Graph {
	/** uuid → seq of the line that defines its node (last copy wins, like a dict assignment) */
	nodes: Map<string, number>;
	/** per node line: seq of the parent's node line, NO_PARENT or DANGLING (after stitch repair) */
	parentIdx: Int32Array;
	/** boundary node seq → the preservedSegment uuid the stitch repair linked it to */
	stitched: Map<number, string>;
}

function sameRecord(a: Line, b: Line): boolean {
	return a.rec.bytes === b.rec.bytes && JSON.stringify(a.v) === JSON.stringify(b.v);
}

/** The parent link of a line: parentUuid, or logicalParentUuid when that is empty. */
export function parentUuidOf(L: Line): string | null {
	return str(L.v.parentUuid) ?? str(L.v.logicalParentUuid);
}

/** D3: in a main transcript (viewer mode) an isSidechain line belongs to a Task/Agent call. */
export function isSidechainLine(ctx: Ctx, L: Line): boolean {
	return !ctx.subagent && ctx.viewer && L.v.isSidechain === true;
}

export function buildGraph(ctx: Ctx, lines: Line[]): Graph {
	const nodes = new Map<string, number>();
	for (const L of lines) {
		if (L.uuid === null) continue;
		const prev = nodes.get(L.uuid);
		// A verbatim copy (a resumed file repeats the previous file's tail) is normal, not a problem.
		if (prev !== undefined && !sameRecord(lines[prev], L)) {
			ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'duplicate-uuid', message: `uuid ${L.uuid} also on ${ctx.files[lines[prev].fi]}:${lines[prev].rec.line}; the later line defines the graph node` });
		}
		nodes.set(L.uuid, L.seq);
	}
	const parentIdx = new Int32Array(lines.length).fill(NO_PARENT);
	for (const i of nodes.values()) {
		const p = parentUuidOf(lines[i]);
		parentIdx[i] = p === null ? NO_PARENT : nodes.get(p) ?? DANGLING;
	}
	return { nodes, parentIdx, stitched: new Map() };
}

/**
 * The leaf: the last uuid-bearing line of the leaf file (the last transcript). Viewer mode (D2)
 * skips trailing sidechain lines and null-rooted system lines (compact boundaries never are).
 * A leafOverride that exists in the graph wins. Returns the node seq, or -1.
 */
export function chooseLeaf(ctx: Ctx, lines: Line[], g: Graph): number {
	let leaf = -1;
	if (ctx.files.length) {
		const lastFi = ctx.files.length - 1;
		for (let i = lines.length - 1; i >= 0 && lines[i].fi === lastFi; i--) {
			const L = lines[i];
			if (L.uuid === null) continue;
			if (ctx.viewer) {
				if (isSidechainLine(ctx, L)) continue;
				if (L.type === 'system' && !str(L.v.parentUuid) && !str(L.v.logicalParentUuid) && L.v.subtype !== 'compact_boundary') continue;
			}
			leaf = g.nodes.get(L.uuid)!;
			break;
		}
	}
	const override = ctx.opts.leafOverride;
	if (override && g.nodes.has(override)) leaf = g.nodes.get(override)!;
	return leaf;
}

/** Stitch repair: a compact boundary whose link dangles → preservedSegment tail, anchor, head. */
export function repairStitches(lines: Line[], g: Graph): void {
	for (const i of g.nodes.values()) {
		const L = lines[i];
		if (g.parentIdx[i] !== DANGLING || L.type !== 'system' || L.v.subtype !== 'compact_boundary') continue;
		const cm = isObj(L.v.compactMetadata) ? L.v.compactMetadata : isObj(L.v.compact_metadata) ? L.v.compact_metadata : null;
		const ps = cm && isObj(cm.preservedSegment) ? cm.preservedSegment : null;
		if (!ps) continue;
		for (const k of ['tailUuid', 'anchorUuid', 'headUuid']) {
			const c = str(ps[k]);
			if (c && g.nodes.has(c)) {
				g.parentIdx[i] = g.nodes.get(c)!;
				g.stitched.set(i, c);
				break;
			}
		}
	}
}

/** The resolved parent link of a uuid's node line (after stitch repair), as the atom shows it. */
export function resolvedParent(lines: Line[], g: Graph, uuid: string): string | null {
	const i = g.nodes.get(uuid)!;
	return g.stitched.get(i) ?? parentUuidOf(lines[i]);
}
