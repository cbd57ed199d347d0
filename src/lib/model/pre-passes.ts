// Pre-passes over the kept lines (reference §2.4), run before any atom is emitted because the
// per-line rules depend on what comes later or elsewhere in the file: replayed user lines after a
// compaction (or exact duplicates), the compaction summary that rides its boundary, the ids of
// Skill tool calls (their instructions become skill atoms), the slash-command names per promptId
// (their invocation twins are skipped), and, in viewer mode, the stop_reason recovered per
// message.id (D1).
import { isObj, leadingCommandName, type Obj } from './text.ts';
import { cap, type Line } from './build-context.ts';
import { isKept } from './active-path.ts';
import type { LineTexts } from './line-table.ts';

const SUMMARY_CAP = 8000;

export interface PrePasses {
	/** kept uuid lines, in file order (the order atoms are emitted in) */
	keptLines: Line[];
	/** seqs of user lines that replay an earlier prompt */
	replay: Set<number>;
	/** compact boundary seq → its (capped) summary text */
	boundarySummary: Map<number, string>;
	/** ids of Skill tool_use blocks */
	skillIds: Set<string>;
	/** promptId → slash-command names invoked under it */
	commandPromptIds: Map<string, Set<string>>;
	/** D1: seq of the last line of a message.id group → recovered stop_reason */
	recovered: Map<number, string>;
}

export function runPrePasses(viewer: boolean, lines: Line[], lineVerdict: Uint8Array, texts: LineTexts): PrePasses {
	const keptLines: Line[] = [];
	let sorted = true;
	for (const L of lines) {
		if (L.uuid === null || !isKept(lineVerdict, L.seq)) continue;
		if (keptLines.length && L.t < keptLines[keptLines.length - 1].t) sorted = false;
		keptLines.push(L);
	}
	const timeOrder = sorted ? keptLines : keptLines.slice().sort((a, b) => a.t - b.t || a.seq - b.seq);
	const { replay, boundarySummary } = findReplays(timeOrder, texts);
	const { skillIds, commandPromptIds } = collectCommandIds(keptLines, texts);
	const recovered = viewer ? recoverStopReasons(lines, keptLines) : new Map<number, string>();
	return { keptLines, replay, boundarySummary, skillIds, commandPromptIds, recovered };
}

/**
 * In time order: a user line is a replay when the same (time, text) was seen before, or, right
 * after a compact boundary (before the next assistant line), when its text was seen before.
 * A compaction summary is attached to the last boundary before it.
 */
function findReplays(timeOrder: Line[], texts: LineTexts): { replay: Set<number>; boundarySummary: Map<number, string> } {
	const replay = new Set<number>();
	const boundarySummary = new Map<number, string>();
	let compacted = false;
	let restoring = false;
	let lastBoundary = -1;
	const seenPairs = new Set<string>();
	const seenTexts = new Set<string>();
	for (const L of timeOrder) {
		if (L.type === 'system' && L.v.subtype === 'compact_boundary') {
			compacted = true;
			restoring = true;
			lastBoundary = L.seq;
		} else if (L.type === 'assistant') {
			restoring = false;
		} else if (L.type === 'user') {
			const text = texts.of(L);
			if (L.v.isCompactSummary === true) {
				if (lastBoundary >= 0) boundarySummary.set(lastBoundary, cap(text, SUMMARY_CAP, '\n\n…(summary truncated)'));
				continue;
			}
			if (L.v.isMeta === true || !text) continue;
			const key = L.t + '\u0000' + text;
			if (seenPairs.has(key) || (compacted && restoring && seenTexts.has(text))) {
				replay.add(L.seq);
			} else {
				seenPairs.add(key);
				seenTexts.add(text);
			}
		}
	}
	return { replay, boundarySummary };
}

/** Skill tool_use ids, and the slash-command names each promptId carries. */
function collectCommandIds(keptLines: Line[], texts: LineTexts): { skillIds: Set<string>; commandPromptIds: Map<string, Set<string>> } {
	const skillIds = new Set<string>();
	const commandPromptIds = new Map<string, Set<string>>();
	for (const L of keptLines) {
		if (L.type === 'assistant') {
			const m = L.v.message;
			if (isObj(m) && Array.isArray(m.content)) {
				for (const b of m.content) if (isObj(b) && b.type === 'tool_use' && b.name === 'Skill' && typeof b.id === 'string') skillIds.add(b.id);
			}
		} else if (L.type === 'user') {
			const pid = L.v.promptId;
			if (typeof pid !== 'string' || !pid) continue;
			const name = leadingCommandName(texts.of(L));
			if (name === null) continue;
			let set = commandPromptIds.get(pid);
			if (!set) commandPromptIds.set(pid, (set = new Set()));
			set.add(name);
		}
	}
	return { skillIds, commandPromptIds };
}

/** viewer (D1): recover null stop_reason per message.id (last line of the group in file order). */
function recoverStopReasons(lines: Line[], keptLines: Line[]): Map<number, string> {
	const recovered = new Map<number, string>();
	const groups = new Map<string, { last: number; toolUse: boolean }>();
	for (const L of keptLines) {
		if (L.type !== 'assistant') continue;
		const m = L.v.message;
		if (!isObj(m) || typeof m.id !== 'string') continue;
		let g = groups.get(m.id);
		if (!g) groups.set(m.id, (g = { last: L.seq, toolUse: false }));
		g.last = L.seq;
		if (Array.isArray(m.content)) for (const b of m.content) if (isObj(b) && b.type === 'tool_use') g.toolUse = true;
	}
	for (const g of groups.values()) {
		const m = lines[g.last].v.message as Obj;
		if (m.stop_reason !== null && m.stop_reason !== undefined) continue;
		if (g.toolUse) recovered.set(g.last, 'tool_use');
		else {
			const c = m.content;
			const lastBlock = Array.isArray(c) && c.length ? c[c.length - 1] : null;
			if (isObj(lastBlock) && lastBlock.type === 'text') recovered.set(g.last, 'end_turn');
		}
	}
	return recovered;
}
