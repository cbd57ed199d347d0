// The fast path of an IncrementalBuilder (incremental.ts): one record appended to the leaf file
// extends the kept state (incremental-state.ts) in place. Every condition that could change what
// earlier lines became is checked before anything changes; a failed check means a rebuild.
import { placeLine } from './accounting.ts';
import type { BuildInternals } from './build.ts';
import { PLACE_ATOM, str, V_ACTIVE, type Line } from './build-context.ts';
import { assistantAtom, emitKeptLine } from './emit.ts';
import { isSidechainLine, parentUuidOf } from './graph.ts';
import { flagUuidlessLine, lineOf } from './line-table.ts';
import { noteCommandIds, noteStopGroup, recoveredStop } from './pre-passes.ts';
import { landedTexts } from './state-log.ts';
import { isObj, leadingCommandName } from './text.ts';
import type { LineRecord } from './types.ts';
import { drain, E, idsOf, M_LINES, P, U, type Live } from './incremental-state.ts';

/** The romp reference's active-path walk limit (romp mode only; see active-path.ts). */
const ROMP_WALK_LIMIT = 500000;

/**
 * One record appended to the leaf file. Returns false (nothing changed yet) when the line
 * may change what earlier lines became. Checks first, then changes.
 */
export function fastLine(live: Live, rec: LineRecord): boolean {
	const x = live.x;
	const env = x.env;
	const { ctx, table, graph, pre, texts, sink } = env;
	const lines = table.lines;
	const seq = lines.length;
	const clock = { ...live.clock };
	const L = lineOf(rec, ctx.files.length - 1, seq, clock);
	// A line before the file's first timestamp takes a LATER line's time (fillLeadingTimes).
	if (Number.isNaN(live.clock.t) && (live.leafLines > 0 || Number.isNaN(L.t))) return false;
	// Queued prompts: absorbed.ts reads them across the whole file.
	if (L.type === 'queue-operation') return false;
	if (L.type === 'attachment' && isObj(L.v.attachment) && L.v.attachment.type === 'queued_command') return false;
	let replaced = Infinity;
	let prevLast = -1;
	if (L.uuid !== null) {
		const v = L.v;
		if (graph.nodes.has(L.uuid) || live.wanted.has(L.uuid)) return false;
		if (isSidechainLine(ctx, L)) return false;
		if (L.type === 'system' && (v.subtype === 'compact_boundary' || (ctx.viewer && !str(v.parentUuid) && !str(v.logicalParentUuid)))) return false;
		if (L.type === 'user' && v.isCompactSummary === true) return false;
		// the new leaf must extend the active path: its parent is the current leaf
		const p = parentUuidOf(L);
		if (x.leaf < 0 || p === null || graph.nodes.get(p) !== x.leaf) return false;
		if (!ctx.viewer && live.activeLen >= ROMP_WALK_LIMIT) return false;
		if (L.t < live.keptMaxT || (live.atomT.length && L.t < live.atomT[live.atomT.length - 1])) return false;
		for (const id of idsOf(L)) if (live.touchy.has(id)) return false;
		for (const id of skillIdsOf(L)) if (live.sourceIds.has(id)) return false;
		if (L.type === 'user') {
			const pid = v.promptId;
			if (typeof pid === 'string' && pid && live.promptIds.has(pid) && leadingCommandName(texts.of(L)) !== null) return false;
		}
		const m = v.message;
		if (ctx.viewer && L.type === 'assistant' && isObj(m) && typeof m.id === 'string') {
			const g = pre.stopGroups.get(m.id);
			if (g) {
				prevLast = g.last;
				if (pre.recovered.has(prevLast)) {
					if (table.place[prevLast] !== PLACE_ATOM) return false;
					replaced = findAtom(live, lines[prevLast]);
					if (replaced < 0) return false;
				}
			}
		}
	}

	// ── changes ──
	live.clock = clock;
	live.leafLines++;
	lines.push(L);
	growTo(x, seq + 1);
	if (L.uuid === null) {
		flagUuidlessLine(ctx, table, L);
		drain(ctx.issues, live.issues[U]);
	} else {
		graph.nodes.set(L.uuid, seq);
		graph.parentIdx[seq] = x.leaf;
		x.verdict[seq] = V_ACTIVE;
		x.leaf = seq;
		live.activeLen++;
		pre.keptLines.push(L);
		live.keptMaxT = L.t;
		pre.replayScan.feed(L);
		noteCommandIds(L, texts, pre.skillIds, pre.commandPromptIds);
		drain(ctx.issues, live.issues[P]);
		if (L.type === 'user') {
			if (typeof L.v.sourceToolUseID === 'string') live.sourceIds.add(L.v.sourceToolUseID);
			if (typeof L.v.promptId === 'string') live.promptIds.add(L.v.promptId);
		}
		if (ctx.viewer) {
			const g = noteStopGroup(pre.stopGroups, L);
			if (g) {
				if (prevLast >= 0) pre.recovered.delete(prevLast);
				const r = recoveredStop(lines, g);
				if (r === null) pre.recovered.delete(seq);
				else pre.recovered.set(seq, r);
			}
			if (replaced !== Infinity) {
				// no longer its message's last line: its atom loses the recovered stop_reason
				const old = lines[prevLast];
				live.atoms[replaced] = sink.lineAtom(old, assistantAtom(env, old));
			}
		}
		const n0 = sink.atoms.length;
		emitKeptLine(env, L);
		drain(ctx.issues, live.issues[E]);
		if (sink.atoms.length > n0) {
			live.atoms.push(sink.atoms[n0]);
			live.atomT.push(L.t);
			live.atomSeq.push(seq);
		}
		if (L.type === 'assistant' && landedTexts([L]).landed.size) {
			x.landed.add(L.uuid);
			live.landedSorted = insertSorted(live.landedSorted, L.uuid);
		}
	}
	placeLine(ctx, table, x.verdict, L, live.offPath);
	drain(ctx.metadata, live.meta[M_LINES]);
	return true;
}

/** Ids of the Skill calls a line makes (a user line naming one as its source changes rules). */
function skillIdsOf(L: Line): string[] {
	const m = L.v.message;
	if (L.type !== 'assistant' || !isObj(m) || !Array.isArray(m.content)) return [];
	return m.content.filter((b) => isObj(b) && b.type === 'tool_use' && b.name === 'Skill' && typeof b.id === 'string').map((b) => (b as { id: string }).id);
}

/** Index in live.atoms of a line's atom (sorted by (t, seq)), or -1. */
function findAtom(live: Live, L: Line): number {
	let lo = 0;
	let hi = live.atoms.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (live.atomT[mid] < L.t || (live.atomT[mid] === L.t && live.atomSeq[mid] < L.seq)) lo = mid + 1;
		else hi = mid;
	}
	return lo < live.atoms.length && live.atomSeq[lo] === L.seq ? lo : -1;
}

/** A new sorted array with s inserted (code-unit order, like landedTexts' sort). */
function insertSorted(xs: string[], s: string): string[] {
	let lo = 0;
	let hi = xs.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (xs[mid] < s) lo = mid + 1;
		else hi = mid;
	}
	if (xs[lo] === s) return xs;
	return [...xs.slice(0, lo), s, ...xs.slice(lo)];
}

/** Typed arrays of the line table and graph sized for n lines (doubling, so appends stay cheap). */
function growTo(x: BuildInternals, n: number): void {
	const { table, graph } = x.env;
	if (table.place.length < n) {
		const cap = Math.max(n, table.place.length * 2, 1024);
		const place = new Uint8Array(cap);
		place.set(table.place);
		table.place = place;
		const verdict = new Uint8Array(cap);
		verdict.set(x.verdict);
		x.verdict = verdict;
		const parentIdx = new Int32Array(cap).fill(-1);
		parentIdx.set(graph.parentIdx);
		graph.parentIdx = parentIdx;
	}
}
