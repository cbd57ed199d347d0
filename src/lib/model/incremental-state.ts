// The kept state of an IncrementalBuilder (incremental.ts): what the stages left after the last
// full build, taken apart so appended lines can extend it (keepLive), and the session result made
// from it again after each fast step (liveResult).
import { accountReaderIssues } from './accounting.ts';
import type { BuildInternals } from './build.ts';
import { fileStem, LOWER_Z, str, V_ACTIVE, V_KEPT, V_REWIND, type Ctx, type Line } from './build-context.ts';
import { parentUuidOf } from './graph.ts';
import type { FileClock } from './line-table.ts';
import { emitIdle, emitOrphanReplies, leafOverrideTime } from './state-log.ts';
import { isObj } from './text.ts';
import { groupTurns } from './turns.ts';
import type { Atom, Issue, MetadataLine, OffPathLine, ParseInput, ParseOptions, ParseResult, Turn } from './types.ts';

/** The stages' state of the last fast / rebuilt build, plus what the fast path checks against. */
export interface Live {
	x: BuildInternals;
	files: string[];
	states: string | null;
	postal: string | null;
	/** the leaf file's clock (its last timestamp) and how many lines it has */
	clock: FileClock;
	leafLines: number;
	activeLen: number;
	/** uuids some line points at (parent links, stitch candidates) that are no node (yet) */
	wanted: Set<string>;
	/** message ids and tool ids held by rewound / broken lines: a kept line holding one can change the rescues */
	touchy: Set<string>;
	/** sourceToolUseID and promptId values of user lines (a later Skill call / command name changes their rules) */
	sourceIds: Set<string>;
	promptIds: Set<string>;
	keptMaxT: number;
	/** line atoms sorted by (t, seq) */
	atoms: Atom[];
	atomT: number[];
	atomSeq: number[];
	synth: Atom[];
	/** issues by stage: graph, uuid-less, pre-passes, emission, absorbed, state rows */
	issues: Issue[][];
	/** metadata: postal rows, state rows, lines */
	meta: MetadataLine[][];
	offPath: OffPathLine[];
	landedSorted: string[];
	/** the live result's turns, their concatenated atoms and each turn's first index there */
	turns: Turn[];
	merged: Atom[];
	turnStarts: number[];
}

/** Indices of Live.issues, by the stage that raised them. */
export const G = 0, U = 1, P = 2, E = 3, A = 4, S = 5;
/** Indices of Live.meta. */
export const M_POSTAL = 0, M_STATES = 1, M_LINES = 2;

/**
 * A full build's internals as the kept state, or null when that build cannot be extended. The
 * build's issue and metadata lists move into the state, split by stage.
 */
export function keepLive(x: BuildInternals, result: ParseResult, states: string | null, postal: string | null): Live | null {
	const { ctx, table, graph, pre, sink } = x.env;
	const im = x.issueMarks;
	if (im.length !== 7 || ctx.issues.length !== im[6]) return null;
	let readerAccounted = 0;
	for (let i = 0; i < im[0]; i++) if (ctx.issues[i].accounted) readerAccounted++;
	const issues = [G, U, P, E, A, S].map((k) => ctx.issues.slice(im[k], im[k + 1]));
	const mm = x.metaMarks;
	const meta = [ctx.metadata.slice(0, mm[0]), ctx.metadata.slice(mm[0], mm[1]), ctx.metadata.slice(mm[1])];
	ctx.issues = [];
	ctx.metadata = [];
	ctx.acc.issues -= readerAccounted; // reader issues are counted afresh at each build
	ctx.acc.lines = 0;

	// line atoms in (t, seq) order; the synthetic ones are recomputed at each build
	const order: number[] = [];
	for (let i = 0; i < x.lineAtoms; i++) order.push(i);
	order.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
	const synthIdx: number[] = [];
	for (let i = x.lineAtoms; i < sink.atoms.length; i++) synthIdx.push(i);
	synthIdx.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
	const synth = synthIdx.map((i) => sink.atoms[i]);
	const atoms = order.map((i) => sink.atoms[i]);
	const atomT = order.map((i) => sink.atoms[i].t);
	const atomSeq = order.map((i) => sink.seqOf(i));
	sink.truncate(x.lineAtoms);

	const lines = table.lines;
	const leafFi = ctx.files.length - 1;
	let leafLines = 0;
	let timed = false;
	for (let i = lines.length - 1; i >= 0 && lines[i].fi === leafFi; i--) {
		leafLines++;
		const p = lines[i].tsProblem;
		if (p === null || p === LOWER_Z) timed = true;
	}
	const lastLine = lines[lines.length - 1];
	const clock: FileClock = timed ? { t: lastLine.t, ms: lastLine.ms } : { t: NaN, ms: NaN };

	const wanted = new Set<string>();
	const touchy = new Set<string>();
	const sourceIds = new Set<string>();
	const promptIds = new Set<string>();
	for (const L of lines) {
		const v = L.v;
		if (L.type === 'user') {
			if (typeof v.sourceToolUseID === 'string') sourceIds.add(v.sourceToolUseID);
			if (typeof v.promptId === 'string') promptIds.add(v.promptId);
		}
		if (L.uuid === null) continue;
		for (const p of [parentUuidOf(L), str(v.parentUuid)]) if (p !== null && !graph.nodes.has(p)) wanted.add(p);
		const cm = isObj(v.compactMetadata) ? v.compactMetadata : isObj(v.compact_metadata) ? v.compact_metadata : null;
		const ps = cm && isObj(cm.preservedSegment) ? cm.preservedSegment : null;
		if (ps) for (const k of ['tailUuid', 'anchorUuid', 'headUuid']) if (typeof ps[k] === 'string') wanted.add(ps[k] as string);
		const vd = x.verdict[L.seq];
		if (vd === V_REWIND || vd === V_KEPT) for (const id of idsOf(L)) touchy.add(id);
	}
	let activeLen = 0;
	for (const i of graph.nodes.values()) if (x.verdict[i] === V_ACTIVE) activeLen++;
	let keptMaxT = -Infinity;
	for (const L of pre.keptLines) if (L.t > keptMaxT) keptMaxT = L.t;

	const turns = result.session.turns;
	const merged: Atom[] = [];
	const turnStarts: number[] = [];
	for (const t of turns) {
		turnStarts.push(merged.length);
		for (const a of t.atoms) merged.push(a);
	}
	return {
		x, files: [...ctx.files], states, postal, clock, leafLines, activeLen, wanted, touchy, sourceIds, promptIds, keptMaxT,
		atoms, atomT, atomSeq, synth, issues, meta, offPath: x.offPath.slice(), landedSorted: result.session.landedTextUuids, turns, merged, turnStarts,
	};
}

/** The result of the kept state: synthetic atoms afresh, turns regrouped from the first changed atom. */
export function liveResult(live: Live, files: ParseInput, transcripts: readonly string[], opts: ParseOptions): ParseResult {
	const x = live.x;
	const { ctx, table, graph, sink } = x.env;
	// synthetic atoms (state rows): recomputed, the previous objects kept where equal
	let synth: Atom[] = [];
	if (x.rows.length) {
		const n = sink.atoms.length;
		emitOrphanReplies(ctx, sink, x.rows, x.landed, leafOverrideTime(ctx, table.lines, graph));
		emitIdle(ctx, sink, x.rows);
		const idx: number[] = [];
		for (let i = n; i < sink.atoms.length; i++) idx.push(i);
		idx.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
		synth = idx.map((i, k) => (live.synth[k] !== undefined && deepEqual(live.synth[k], sink.atoms[i]) ? live.synth[k] : sink.atoms[i]));
		sink.truncate(n);
	}
	live.synth = synth;
	// merge line atoms and synthetic atoms by (t, seq): a line sorts before a synthetic atom at the same t
	const merged: Atom[] = new Array(live.atoms.length + synth.length);
	for (let i = 0, j = 0, k = 0; k < merged.length; k++) {
		if (j >= synth.length || (i < live.atoms.length && live.atomT[i] <= synth[j].t)) merged[k] = live.atoms[i++];
		else merged[k] = synth[j++];
	}
	let d = 0;
	const old = live.merged;
	while (d < merged.length && d < old.length && merged[d] === old[d]) d++;
	let turns = live.turns;
	let turnStarts = live.turnStarts;
	if (d < merged.length || d < old.length) {
		// Regroup from the last turn that starts before the first changed atom: its opening
		// atom and everything before it are unchanged, so the grouping scan reaches it in the
		// same state and opens a turn there again (groupTurns restarted with no current turn).
		let k = upperBound(turnStarts, d - 1) - 1;
		if (k < 0) k = 0;
		const start = turns.length ? turnStarts[k] : 0;
		const tail = groupTurns(merged.slice(start), ctx.rompUuid);
		turns = turns.slice(0, k);
		turnStarts = turnStarts.slice(0, k);
		let at = start;
		for (const t of tail) {
			turnStarts.push(at);
			at += t.atoms.length;
			turns.push(t);
		}
	}
	live.turns = turns;
	live.turnStarts = turnStarts;
	live.merged = merged;

	// reader issues and line counts afresh (they are per file, in file order, first)
	const rctx = { issues: [] as Issue[], acc: { lines: 0, atoms: 0, issues: 0 } } as unknown as Ctx;
	accountReaderIssues(rctx, [...files.transcripts, files.states, files.postal]);
	const issues = rctx.issues.concat(...live.issues);
	const metadata = ([] as MetadataLine[]).concat(...live.meta);
	const offPath = live.offPath.slice();
	const leafFsid = fileStem(transcripts.length ? transcripts[transcripts.length - 1] : '');
	return {
		session: { rompUuid: ctx.rompUuid, name: opts.name || ctx.rompUuid, dir: opts.dir ?? '', color: '#888888', leafFsid, landedTextUuids: live.landedSorted, turns, ...(x.branches.length ? { branches: x.branches } : {}) },
		issues,
		offPath,
		metadata,
		accounting: { lines: rctx.acc.lines, atoms: ctx.acc.atoms, offPath: offPath.length, metadata: metadata.length, issues: rctx.acc.issues + ctx.acc.issues },
	};
}

/** After turns were swapped for equal previous ones: the kept atoms become those objects too. */
export function remapLive(live: Live, remap: Map<Atom, Atom>): void {
	const to = (a: Atom) => remap.get(a) ?? a;
	live.atoms = live.atoms.map(to);
	live.synth = live.synth.map(to);
	live.merged = live.merged.map(to);
}

/** Message id and tool ids a line would add to the rescue pass's kept-id sets (rewind-rescue.ts). */
export function idsOf(L: Line): string[] {
	const out: string[] = [];
	const m = L.v.message;
	if (!isObj(m)) return out;
	if (L.type === 'assistant' && typeof m.id === 'string') out.push(m.id);
	if (Array.isArray(m.content)) {
		for (const b of m.content) {
			if (!isObj(b)) continue;
			if (L.type === 'assistant' && b.type === 'tool_use' && typeof b.id === 'string') out.push(b.id);
			if (L.type === 'user' && b.type === 'tool_result' && typeof b.tool_use_id === 'string') out.push(b.tool_use_id);
		}
	}
	return out;
}

/** First index whose value is > v (xs ascending). */
function upperBound(xs: number[], v: number): number {
	let lo = 0;
	let hi = xs.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (xs[mid] <= v) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Moves everything from `from` to the end of `to`. */
export function drain<T>(from: T[], to: T[]): void {
	for (const v of from) to.push(v);
	from.length = 0;
}

/** Structural equality of JSON-like values (identity short-cuts shared sub-objects). */
export function deepEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (Array.isArray(a)) {
		const bb = b as unknown[];
		if (a.length !== bb.length) return false;
		for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
		return true;
	}
	const ka = Object.keys(a);
	const kb = Object.keys(b);
	if (ka.length !== kb.length) return false;
	for (const k of ka) {
		if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
		if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
	}
	return true;
}
