// The chat of a followed session, live: what the open turn is doing at its live edge (the call
// in flight, a subagent working, a thought being written) and the one status line the page shows
// for it. Liveness is bounded by the turn (rows.ts / items.ts already settle calls of a closed
// turn) and, without a state log, by silence: a turn nothing was written to for `quietAfterMs`
// reads "quiet", never "running" forever. With a state log, its last row says idle / waiting.
import type { Session } from '../../model/types';
import { deepEqual } from '../../model/incremental';
import { buildChatRows, type ChatRowOptions, type ChildLike } from './rows';
import type { ChatRow, DelegationRow, GroupEntry, ToolCallView } from './types';

export type LiveKind = 'tool' | 'subagent' | 'thinking' | 'working' | 'ended' | 'empty';

/** What the last turn is doing, as the rows say it (computed where the rows are, in the worker). */
export interface LiveActivity {
	kind: LiveKind;
	/** "Bash · npm test", the subagent's description, or ''. */
	label: string;
	/** When the running call / subagent started (epoch ms), else null. */
	sinceMs: number | null;
}

export type LivePhase = 'running' | 'subagent' | 'thinking' | 'working' | 'quiet' | 'idle' | 'waiting' | 'ended';

export interface LiveStatus {
	phase: LivePhase;
	text: string;
}

/** Silence after which an open turn without a state log reads "quiet". */
export const QUIET_AFTER_MS = 2 * 60 * 1000;

function lastTurnRows(rows: ChatRow[], ti: number): ChatRow[] {
	let i = rows.length;
	while (i > 0 && rows[i - 1].turnIndex >= ti) i--;
	return rows.slice(i);
}

const callLabel = (c: ToolCallView) => (c.target ? `${c.name} · ${c.target}` : c.name);

/** The last turn's live edge. */
export function liveActivity(session: Session, rows: ChatRow[]): LiveActivity {
	const ti = session.turns.length - 1;
	if (ti < 0) return { kind: 'empty', label: '', sinceMs: null };
	if (session.turns[ti].ended) return { kind: 'ended', label: '', sinceMs: null };
	const mine = lastTurnRows(rows, ti);
	let running: { call: ToolCallView; agent: DelegationRow | null } | null = null;
	const consider = (call: ToolCallView, agent: DelegationRow | null) => {
		if (call.status === 'running' && (!running || (call.startMs ?? 0) >= (running.call.startMs ?? 0))) running = { call, agent };
	};
	for (const r of mine) {
		if (r.kind === 'tool') consider(r.call, null);
		else if (r.kind === 'delegation') consider(r.call, r);
		else if (r.kind === 'tool-group') for (const e of r.entries) if (e.kind === 'tool') consider(e.call, null);
	}
	const found = running as { call: ToolCallView; agent: DelegationRow | null } | null;
	if (found?.agent) return { kind: 'subagent', label: found.agent.description, sinceMs: found.call.startMs };
	if (found) return { kind: 'tool', label: callLabel(found.call), sinceMs: found.call.startMs };
	if (endsInThought(mine.at(-1))) return { kind: 'thinking', label: '', sinceMs: mine.at(-1)?.ms ?? null };
	return { kind: 'working', label: '', sinceMs: null };
}

function endsInThought(row: ChatRow | undefined): boolean {
	if (!row) return false;
	if (row.kind === 'thinking') return true;
	return row.kind === 'tool-group' && row.entries.at(-1)?.kind === 'thinking';
}

/** Marks the thought at the live edge (the last row of an open turn) as being written. Rows are copied, not changed. */
export function markLiveThought(session: Session, rows: ChatRow[]): ChatRow[] {
	const last = rows.at(-1);
	const ti = session.turns.length - 1;
	if (!last || ti < 0 || session.turns[ti].ended || last.turnIndex !== ti || !endsInThought(last)) return rows;
	const out = rows.slice();
	if (last.kind === 'thinking') out[out.length - 1] = { ...last, live: true };
	else if (last.kind === 'tool-group') {
		const entries: GroupEntry[] = last.entries.slice();
		const e = entries[entries.length - 1];
		if (e.kind === 'thinking') entries[entries.length - 1] = { ...e, live: true };
		out[out.length - 1] = { ...last, entries };
	}
	return out;
}

/** Whether an open turn has been silent long enough to stop claiming live work (no state log only). */
export function isQuiet(activity: LiveActivity, lastWriteMs: number, hasStateLog: boolean, nowMs: number, quietAfterMs = QUIET_AFTER_MS): boolean {
	if (hasStateLog) return false;
	if (activity.kind === 'ended' || activity.kind === 'empty') return false;
	return nowMs - lastWriteMs >= quietAfterMs;
}

/** "12s", "3m 05s", "1h 02m". */
export function elapsed(ms: number): string {
	const s = Math.max(0, Math.floor(ms / 1000));
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
	return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

const minutes = (ms: number) => Math.max(1, Math.floor(ms / 60000));

/** The one status line of a followed session. `lastState` is the state log's last row, or null without one. */
export function liveStatus(
	activity: LiveActivity,
	lastWriteMs: number,
	lastState: { state: string } | null,
	nowMs: number,
	quietAfterMs = QUIET_AFTER_MS
): LiveStatus {
	switch (lastState?.state) {
		case 'idle':
			return { phase: 'idle', text: 'Idle' };
		case 'waiting':
			return { phase: 'waiting', text: activity.kind === 'ended' || activity.kind === 'empty' ? 'Waiting for the next prompt' : 'Waiting' };
		case 'permission':
			return { phase: 'waiting', text: 'Waiting for permission' };
		case 'picker':
			return { phase: 'waiting', text: 'Waiting on the model picker' };
		case 'compacting':
			return { phase: 'working', text: 'Compacting the context…' };
	}
	if (isQuiet(activity, lastWriteMs, lastState !== null, nowMs, quietAfterMs)) {
		return { phase: 'quiet', text: `Quiet for ${minutes(nowMs - lastWriteMs)} min` };
	}
	const since = (ms: number | null) => (ms !== null ? ` · ${elapsed(nowMs - ms)}` : '');
	switch (activity.kind) {
		case 'tool':
			return { phase: 'running', text: `Running ${activity.label}${since(activity.sinceMs)}` };
		case 'subagent':
			return { phase: 'subagent', text: `Subagent working: ${activity.label}${since(activity.sinceMs)}` };
		case 'thinking':
			return { phase: 'thinking', text: 'Thinking…' };
		case 'working':
			return { phase: 'working', text: 'Working…' };
		default:
			return { phase: 'ended', text: lastWriteMs ? `Turn finished · last write ${elapsed(nowMs - lastWriteMs)} ago` : 'Turn finished' };
	}
}

/** The first turn a live append can have changed: the previous last turn (its rows change when a
 *  turn follows it: its calls settle), the first turn the builder did not keep (`modelFirst`,
 *  IncrementalBuilder.change.firstChangedTurn: a rebuild can change earlier turns), or an earlier
 *  turn holding the row of a call whose subagent grew or was tied to it / untied from it. */
export function firstChangedTurn(before: readonly ChatRow[], previousTurns: number, changedCalls: readonly string[] = [], modelFirst = Infinity): number {
	let from = Math.min(Math.max(0, previousTurns - 1), modelFirst);
	if (changedCalls.length) {
		const changed = new Set(changedCalls);
		for (const r of before) {
			if (r.turnIndex >= from) break;
			const hit =
				r.kind === 'delegation' || r.kind === 'tool'
					? changed.has(r.call.id)
					: r.kind === 'tool-group' && r.entries.some((e) => e.kind === 'tool' && changed.has(e.call.id));
			if (hit) from = r.turnIndex;
		}
	}
	return from;
}

/**
 * Rows after a live append, in time proportional to the changed turns: the previous rows of the
 * turns before `fromTurn` as they were, then the rows of the turns from `fromTurn` on, built anew
 * (each kept as the previous object when it came out equal). `keep`: leading rows unchanged.
 * Records (raw cards) already placed among the kept rows are not placed again. Equal to a full
 * buildChatRows as long as appended lines carry times after the kept rows (appends do).
 */
export function rebuildTail(
	before: readonly ChatRow[],
	session: Session,
	children: Record<string, ChildLike>,
	opts: ChatRowOptions,
	fromTurn: number
): { rows: ChatRow[]; keep: number } {
	fromTurn = Math.min(fromTurn, newFoldTurn(before, session, opts.keyPrefix ?? ''));
	let keep = 0;
	while (keep < before.length && before[keep].turnIndex < fromTurn) keep++;
	const reused = keep;
	const kept = before.slice(0, reused);
	const prefix = opts.keyPrefix ?? '';
	// Only raw-card rows can hold a record; only records with a value make one (rows.ts).
	const recordKey = `${prefix}r:`;
	const placed = new Set<string>();
	for (const r of kept) if (r.key.startsWith(recordKey)) placed.add(r.key);
	const metadata = opts.metadata?.filter((m) => m.value !== undefined && !placed.has(`${recordKey}${m.file}:${m.line}`));
	const tail = buildChatRows(session, children, { ...opts, metadata, fromTurn });
	// Rows of the tail that came out the same stay the same objects, so nothing redraws them.
	const rows = kept.concat(tail.map((r, i) => sameRow(before[reused + i], r) ?? r));
	while (keep < rows.length && keep < before.length && rows[keep] === before[keep]) keep++;
	return { rows, keep };
}

/**
 * A rewind makes a branch whose fold sits after the row it left from, in a turn that may not
 * have changed itself: the rows are rebuilt from that turn when its fold is not drawn yet.
 */
function newFoldTurn(before: readonly ChatRow[], session: Session, prefix: string): number {
	if (!session.branches?.length) return Infinity;
	const drawn = new Set<string>();
	for (const r of before) if (r.kind === 'branch') drawn.add(r.key);
	let turn = Infinity;
	for (const b of session.branches) {
		if (drawn.has(`${prefix}branch:${b.rootUuid}`)) continue;
		const at = b.afterUuid === null ? 0 : session.turns.findIndex((t) => t.atoms.some((a) => a.uuid === b.afterUuid));
		if (at >= 0) turn = Math.min(turn, at);
	}
	return turn;
}

// A walk that stops at the first difference, not two JSON strings per row (tool output can be large).
function sameRow(old: ChatRow | undefined, row: ChatRow): ChatRow | null {
	return old && old.key === row.key && deepEqual(old, row) ? old : null;
}
