// Active path and kept set (reference §2.3, §2.15): the verdict of every uuid line. The walk
// from the leaf marks the active path; every other node follows its parents until it reaches an
// active node (rewind: dropped), a null parent (clear: dropped) or a missing uuid / cycle
// (broken: kept, it cannot be proven dead). Viewer mode then takes sidechain lines off the main
// path (D3), keeps null-rooted system notes as metadata (D8) and rescues side branches that are
// not rewinds (D4, rewind-rescue.ts). Emission and accounting read the per-line verdicts
// returned here.
import { rescueRewoundSideBranches } from './rewind-rescue.ts';
import { str, V_ACTIVE, V_CLEAR, V_DUPLICATE, V_KEPT, V_REWIND, V_SIDECHAIN, type Ctx, type Line } from './build-context.ts';
import { DANGLING, isSidechainLine, NO_PARENT, type Graph } from './graph.ts';

/** Node verdict while its branch is being followed (never left in the result). */
const VISITING = 9;

/** True when a line is on the active path or kept as broken (an earlier copy of a uuid never is). */
export function isKept(lineVerdict: Uint8Array, seq: number): boolean {
	const vd = lineVerdict[seq];
	return vd === V_ACTIVE || vd === V_KEPT;
}

/** Per-line verdicts (V_*; 0 for uuid-less lines), indexed by line seq. */
export function lineVerdicts(ctx: Ctx, lines: Line[], g: Graph, leaf: number): Uint8Array {
	const verdict = new Uint8Array(lines.length);
	walkActivePath(ctx, lines, g, leaf, verdict);
	classifyOtherNodes(ctx, lines, g, verdict);
	// Per line. A uuid is one graph node (reference §2.2: a later copy replaces an earlier one),
	// so only the line that defines the node takes its verdict; earlier copies are duplicates.
	// Sidechain lines (viewer mode, main transcript) never sit on the main path.
	const lineVerdict = new Uint8Array(lines.length);
	for (const L of lines) {
		if (L.uuid === null) continue;
		const node = g.nodes.get(L.uuid)!;
		if (node !== L.seq) {
			lineVerdict[L.seq] = V_DUPLICATE;
			continue;
		}
		let vd = verdict[node];
		if (isSidechainLine(ctx, L) && vd !== V_ACTIVE) vd = V_SIDECHAIN;
		lineVerdict[L.seq] = vd;
	}
	if (ctx.viewer) {
		keepNullRootedNotes(lines, lineVerdict);
		rescueRewoundSideBranches(lines, lineVerdict, (u) => {
			const i = g.nodes.get(u);
			return i !== undefined && isKept(lineVerdict, i);
		});
	}
	return lineVerdict;
}

/** Marks the walk from the leaf to its root V_ACTIVE; a loop back is a parent-cycle warning. */
function walkActivePath(ctx: Ctx, lines: Line[], g: Graph, leaf: number, verdict: Uint8Array): void {
	if (leaf < 0) return;
	let cur = leaf;
	// The reference stops after 500k steps; the visited check already prevents loops, so
	// viewer mode walks the whole path (a very long session must not lose its start).
	const maxSteps = ctx.viewer ? Infinity : 500000;
	let steps = 0;
	while (cur >= 0 && verdict[cur] === 0 && steps++ < maxSteps) {
		verdict[cur] = V_ACTIVE;
		cur = g.parentIdx[cur];
	}
	if (cur >= 0 && verdict[cur] !== 0) {
		const L = lines[cur];
		ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'parent-cycle', message: `parentUuid links loop back to ${L.uuid}; the walk from the leaf stops there` });
	}
}

/**
 * Every node off the active path follows its parents: reaching an active node → rewind, a null
 * parent → clear, a dangling parent or a cycle → kept (broken). The whole followed chain takes
 * the verdict, so each node is followed once.
 */
function classifyOtherNodes(ctx: Ctx, lines: Line[], g: Graph, verdict: Uint8Array): void {
	const path: number[] = [];
	for (const u of g.nodes.values()) {
		if (verdict[u] !== 0) continue;
		path.length = 0;
		let cur = u;
		let result = V_KEPT;
		for (;;) {
			path.push(cur);
			verdict[cur] = VISITING;
			const p = g.parentIdx[cur];
			if (p === NO_PARENT) { result = V_CLEAR; break; }
			if (p === DANGLING) { result = V_KEPT; break; }
			const known = verdict[p];
			if (known === VISITING) {
				result = V_KEPT;
				const L = lines[p];
				ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'parent-cycle', message: `parentUuid links loop through ${L.uuid}; the branch is kept as broken` });
				break;
			}
			if (known !== 0) { result = known === V_ACTIVE ? V_REWIND : known; break; }
			cur = p;
		}
		for (const q of path) verdict[q] = result;
	}
}

/**
 * D8: a null-rooted system note (local_command output, informational, ...) is not a cleared
 * conversation: it is metadata on its own.
 */
function keepNullRootedNotes(lines: Line[], lineVerdict: Uint8Array): void {
	for (const L of lines) {
		if (lineVerdict[L.seq] !== V_CLEAR || L.type !== 'system') continue;
		const sub = L.v.subtype;
		if (sub === 'compact_boundary' || sub === 'model_refusal_fallback') continue;
		if (!str(L.v.parentUuid) && !str(L.v.logicalParentUuid)) lineVerdict[L.seq] = V_KEPT;
	}
}
