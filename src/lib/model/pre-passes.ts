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
	/** the replay scan, to be fed lines that come later (incremental.ts) */
	replayScan: ReplayScan;
	/** D1: message.id → its group of kept assistant lines (empty in romp mode) */
	stopGroups: Map<string, StopGroup>;
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
	const replayScan = new ReplayScan(texts);
	for (const L of timeOrder) replayScan.feed(L);
	const skillIds = new Set<string>();
	const commandPromptIds = new Map<string, Set<string>>();
	for (const L of keptLines) noteCommandIds(L, texts, skillIds, commandPromptIds);
	const stopGroups = new Map<string, StopGroup>();
	const recovered = viewer ? recoverStopReasons(lines, keptLines, stopGroups) : new Map<number, string>();
	return { keptLines, replay: replayScan.replay, boundarySummary: replayScan.boundarySummary, skillIds, commandPromptIds, recovered, replayScan, stopGroups };
}

/**
 * In time order: a user line is a replay when the same (time, text) was seen before, or, right
 * after a compact boundary (before the next assistant line), when its text was seen before.
 * A compaction summary is attached to the last boundary before it. A scan that can be fed more
 * lines later (incremental.ts continues it with lines that come last in time order).
 */
export class ReplayScan {
	readonly replay = new Set<number>();
	readonly boundarySummary = new Map<number, string>();
	private compacted = false;
	private restoring = false;
	private lastBoundary = -1;
	private readonly seenPairs = new Set<string>();
	private readonly seenTexts = new Set<string>();

	constructor(private readonly texts: LineTexts) {}

	feed(L: Line): void {
		if (L.type === 'system' && L.v.subtype === 'compact_boundary') {
			this.compacted = true;
			this.restoring = true;
			this.lastBoundary = L.seq;
		} else if (L.type === 'assistant') {
			this.restoring = false;
		} else if (L.type === 'user') {
			const text = this.texts.of(L);
			if (L.v.isCompactSummary === true) {
				if (this.lastBoundary >= 0) this.boundarySummary.set(this.lastBoundary, cap(text, SUMMARY_CAP, '\n\n…(summary truncated)'));
				return;
			}
			if (L.v.isMeta === true || !text) return;
			const key = L.t + '\u0000' + text;
			if (this.seenPairs.has(key) || (this.compacted && this.restoring && this.seenTexts.has(text))) {
				this.replay.add(L.seq);
			} else {
				this.seenPairs.add(key);
				this.seenTexts.add(text);
			}
		}
	}
}

/** One kept line's Skill tool_use ids, or the slash-command name its promptId carries. */
export function noteCommandIds(L: Line, texts: LineTexts, skillIds: Set<string>, commandPromptIds: Map<string, Set<string>>): void {
	if (L.type === 'assistant') {
		const m = L.v.message;
		if (isObj(m) && Array.isArray(m.content)) {
			for (const b of m.content) if (isObj(b) && b.type === 'tool_use' && b.name === 'Skill' && typeof b.id === 'string') skillIds.add(b.id);
		}
	} else if (L.type === 'user') {
		const pid = L.v.promptId;
		if (typeof pid !== 'string' || !pid) return;
		const name = leadingCommandName(texts.of(L));
		if (name === null) return;
		let set = commandPromptIds.get(pid);
		if (!set) commandPromptIds.set(pid, (set = new Set()));
		set.add(name);
	}
}

/** The assistant lines of one message.id: the last one (file order) and whether any holds a tool_use. */
export interface StopGroup {
	last: number;
	toolUse: boolean;
}

/** Adds a kept assistant line to its message.id group (groups: message.id → StopGroup). */
export function noteStopGroup(groups: Map<string, StopGroup>, L: Line): StopGroup | null {
	if (L.type !== 'assistant') return null;
	const m = L.v.message;
	if (!isObj(m) || typeof m.id !== 'string') return null;
	let g = groups.get(m.id);
	if (!g) groups.set(m.id, (g = { last: L.seq, toolUse: false }));
	g.last = L.seq;
	if (Array.isArray(m.content)) for (const b of m.content) if (isObj(b) && b.type === 'tool_use') g.toolUse = true;
	return g;
}

/** D1: the stop_reason recovered for a group's last line, or null when it has one / none applies. */
export function recoveredStop(lines: Line[], g: StopGroup): string | null {
	const m = lines[g.last].v.message as Obj;
	if (m.stop_reason !== null && m.stop_reason !== undefined) return null;
	if (g.toolUse) return 'tool_use';
	const c = m.content;
	const lastBlock = Array.isArray(c) && c.length ? c[c.length - 1] : null;
	return isObj(lastBlock) && lastBlock.type === 'text' ? 'end_turn' : null;
}

/** viewer (D1): recover null stop_reason per message.id (last line of the group in file order). */
function recoverStopReasons(lines: Line[], keptLines: Line[], groups: Map<string, StopGroup>): Map<number, string> {
	const recovered = new Map<number, string>();
	for (const L of keptLines) noteStopGroup(groups, L);
	for (const g of groups.values()) {
		const r = recoveredStop(lines, g);
		if (r !== null) recovered.set(g.last, r);
	}
	return recovered;
}
