// Grouping: items → top-level rows, per the transcript behaviour contract. A run of consecutive
// tool work is one group; thoughts and plan updates between two calls travel with the run;
// anything else (prose, a prompt, a question, an approval, an error, a compaction, a delegation,
// a notice, a raw card) and every turn boundary end the run. The walk reads only an item's type,
// its turn and its status — never a tool name (that knowledge stays in tools.ts).

import { lastLine } from './content';
import type { Item, ItemType } from './items';
import type { ChatRow, GroupEntry, ThinkingRow, ToolCallView, ToolGroupRow, ToolRow } from './types';

/** Item types that are tool work and fold into a run. */
export const TOOL_TYPES: ReadonlySet<ItemType> = new Set<ItemType>(['tool']);
/** Item types held until we know whether the run continues after them. */
export const HELD_TYPES: ReadonlySet<ItemType> = new Set<ItemType>(['thinking', 'plan']);

/** "12s", "1m 05s", "2h 03m". Sub-second spans round up to 1s. */
export function formatDuration(ms: number): string {
	const s = Math.max(1, Math.round(ms / 1000));
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * Wall-clock span of a run: max(end) − min(start) over calls with a time (a union span, so
 * overlapping calls are not double-counted). Null — absent, not zero — without times.
 */
export function workedMs(calls: ToolCallView[]): number | null {
	let lo = Infinity;
	let hi = -Infinity;
	for (const c of calls) {
		if (c.startMs === null) continue;
		lo = Math.min(lo, c.startMs);
		hi = Math.max(hi, c.endMs ?? c.startMs);
	}
	if (!Number.isFinite(lo) || hi - lo <= 0) return null;
	return hi - lo;
}

function plural(n: number, one: string, many: string): string {
	return `${n} ${n === 1 ? one : many}`;
}
function times(n: number): string {
	return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

/**
 * What a run did, counted by work rather than by frames: distinct files for reads and edits,
 * calls for the rest. Live runs read in the present tense.
 */
export function summarize(calls: ToolCallView[], live: boolean): string {
	const reads = new Set<string>();
	const edits = new Set<string>();
	let runs = 0;
	let searches = 0;
	let webSearches = 0;
	let fetches = 0;
	let others = 0;
	let added = 0;
	let removed = 0;
	for (const c of calls) {
		switch (c.verb) {
			case 'run':
				runs++;
				break;
			case 'read':
				reads.add(c.renderer === 'read' && c.target ? c.target.replace(/:\d+(\+\d+)?$/, '') : c.id);
				break;
			case 'edit':
				edits.add(c.target || c.id);
				for (const d of c.diffs ?? []) {
					added += d.added;
					removed += d.removed;
				}
				break;
			case 'search':
				searches++;
				break;
			case 'web':
				if (c.renderer === 'web-search') webSearches++;
				else fetches++;
				break;
			case 'plan':
				break;
			default:
				others++;
		}
	}
	const parts: string[] = [];
	if (live) {
		if (runs) parts.push(`running ${plural(runs, 'command', 'commands')}`);
		if (reads.size) parts.push(`reading ${plural(reads.size, 'file', 'files')}`);
		if (edits.size) parts.push(`editing ${plural(edits.size, 'file', 'files')}`);
		if (searches) parts.push(`searching`);
		if (webSearches || fetches) parts.push('browsing the web');
		if (others) parts.push(`using ${plural(others, 'tool', 'tools')}`);
	} else {
		if (runs) parts.push(`ran ${plural(runs, 'command', 'commands')}`);
		if (reads.size) parts.push(`read ${plural(reads.size, 'file', 'files')}`);
		if (edits.size) parts.push(`edited ${plural(edits.size, 'file', 'files')}${added || removed ? ` (+${added} \u2212${removed})` : ''}`);
		if (searches) parts.push(`searched ${times(searches)}`);
		if (webSearches) parts.push(`searched the web ${times(webSearches)}`);
		if (fetches) parts.push(`fetched ${plural(fetches, 'page', 'pages')}`);
		if (others) parts.push(`used ${plural(others, 'tool', 'tools')}`);
	}
	const s = parts.length ? parts.join(', ') : live ? 'working' : 'updated the plan';
	return s[0].toUpperCase() + s.slice(1) + (live ? '…' : '');
}

function toolRowOf(it: Item): ToolRow | null {
	return it.row.kind === 'tool' ? it.row : null;
}

/** Consecutive thoughts flushed outside a run become one row (Bridge's coalesceThoughts). */
export function coalesceThoughts(items: Item[]): ChatRow[] {
	const out: ChatRow[] = [];
	let prev: ThinkingRow | null = null;
	for (const it of items) {
		const row = it.row;
		if (row.kind === 'thinking' && prev && prev.turnIndex === row.turnIndex) {
			// Copy before merging: items are never mutated.
			const text = [prev.text, row.text].filter((t) => t.trim()).join('\n\n');
			const merged: ThinkingRow = {
				...prev,
				text,
				state: text.trim() ? 'text' : prev.state === 'redacted' || row.state === 'redacted' ? 'redacted' : 'empty',
				preview: lastLine(text),
				atomUuids: [...new Set([...prev.atomUuids, ...row.atomUuids])]
			};
			out[out.length - 1] = merged;
			prev = merged;
			continue;
		}
		out.push(row);
		prev = row.kind === 'thinking' ? row : null;
	}
	return out;
}

function entryOf(it: Item): GroupEntry {
	const row = it.row;
	if (row.kind === 'tool') return { kind: 'tool', key: row.key, call: row.call };
	if (row.kind === 'thinking') return { kind: 'thinking', key: row.key, state: row.state, text: row.text, preview: row.preview };
	throw new Error(`item of kind ${row.kind} cannot sit in a tool group`);
}

/** The key a run keeps for life: the opening call's identity. */
export function groupKeyOf(first: ToolRow): string {
	const tail = `t:${first.call.id}`;
	const prefix = first.key.endsWith(tail) ? first.key.slice(0, -tail.length) : `${first.key}/`;
	return `${prefix}g:${first.call.id}`;
}

function makeRun(items: Item[]): ChatRow {
	const first = toolRowOf(items[0]) as ToolRow;
	const key = groupKeyOf(first);
	const calls = items.map(toolRowOf).filter((r): r is ToolRow => r !== null).map((r) => r.call);
	// A run of one call with nothing folded into it is drawn as that call, under the run's key,
	// so the reader's expand choice survives the run growing later.
	if (items.length === 1) return { ...first, key };
	const atomUuids = [...new Set(items.flatMap((i) => i.row.atomUuids))];
	const statuses = calls.map((c) => c.status);
	const status: ToolGroupRow['status'] = statuses.includes('running')
		? 'running'
		: statuses.includes('error')
			? 'error'
			: statuses.includes('no-result')
				? 'no-result'
				: 'ok';
	let added = 0;
	let removed = 0;
	for (const c of calls)
		for (const d of c.diffs ?? []) {
			added += d.added;
			removed += d.removed;
		}
	const worked = status === 'running' ? null : workedMs(calls);
	return {
		key,
		kind: 'tool-group',
		atomUuid: first.atomUuid,
		atomUuids,
		turnIndex: first.turnIndex,
		ms: first.ms,
		// A settled run that failed opens (on its failed rows); every other run starts collapsed.
		defaultOpen: status === 'error',
		summary: summarize(calls, status === 'running'),
		trailer: worked === null ? null : `Worked for ${formatDuration(worked)}`,
		workedMs: worked,
		steps: calls.filter((c) => c.verb !== 'plan').length,
		status,
		added,
		removed,
		entries: items.map(entryOf)
	};
}

/** The grouping walk (see the module comment). Returns top-level rows in transcript order. */
export function groupItems(items: Item[]): ChatRow[] {
	const out: ChatRow[] = [];
	let run: Item[] | null = null;
	let held: Item[] = [];
	let turn: number | null = null;

	const flushHeld = (): void => {
		if (held.length) out.push(...coalesceThoughts(held));
		held = [];
	};
	const closeRun = (): void => {
		if (run) out.push(makeRun(run));
		run = null;
		flushHeld();
	};

	for (const it of items) {
		if (it.turnIndex !== turn) {
			closeRun();
			turn = it.turnIndex;
		}
		if (TOOL_TYPES.has(it.type)) {
			if (run) {
				run.push(...held, it);
				held = [];
			} else {
				flushHeld();
				run = [it];
			}
		} else if (HELD_TYPES.has(it.type)) {
			held.push(it);
		} else {
			closeRun();
			out.push(it.row);
		}
	}
	closeRun();
	return out;
}
