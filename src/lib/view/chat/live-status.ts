// A followed session's status line: what the open turn's live edge reads as ("Running Bash ·
// 12s", "Quiet for 3 min", "Waiting for permission"), from the activity the worker computed
// (live.ts) and the time since the last write. Apart from live.ts so the page's follow state
// loads it without the row builder (the boot parses only what the first screen needs).

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
