import { beforeEach, describe, expect, it } from 'vitest';
import { buildChatRows } from './rows';
import { firstChangedTurn, isQuiet, liveActivity, liveStatus, markLiveThought, QUIET_AFTER_MS, rebuildTail } from './live';
import { assistant, resetClock, result, session, text, thinking, toolUse, turn, user } from './test-builders';
import type { ChatRow } from './types';
import { fixtureSession } from './test-fixtures';

beforeEach(resetClock);

const statusOf = (rows: ChatRow[]) => rows.flatMap((r) => (r.kind === 'tool' ? [r.call.status] : r.kind === 'tool-group' ? [r.status] : r.kind === 'delegation' ? [r.status] : []));

describe('a call in flight', () => {
	it('runs while its turn is open, settles to no-result in place (same key) when the turn ends', () => {
		const u = user('u1', 'test it');
		const a = assistant('a1', [toolUse('T1', 'Bash', { command: 'npm test' })], { stop: 'tool_use' });
		const open = session([turn([u, a], false)]);
		const live = buildChatRows(open);
		expect(statusOf(live)).toEqual(['running']);
		expect(liveActivity(open, live)).toMatchObject({ kind: 'tool', label: 'Bash · npm test', sinceMs: a.ms });

		const done = session([turn([u, a], true)]);
		const settled = buildChatRows(done);
		expect(statusOf(settled)).toEqual(['no-result']);
		expect(settled.map((r) => r.key)).toEqual(live.map((r) => r.key));
		expect(liveActivity(done, settled).kind).toBe('ended');
	});

	it('turns done in place when its result arrives later', () => {
		const u = user('u1', 'go');
		const a = assistant('a1', [toolUse('T1', 'Read', { file_path: '/a.ts' })], { stop: 'tool_use' });
		const before = buildChatRows(session([turn([u, a], false)]));
		const after = buildChatRows(session([turn([u, a, result('r1', 'T1', 'contents')], false)]));
		expect(statusOf(before)).toEqual(['running']);
		expect(statusOf(after)).toEqual(['ok']);
		expect(after.map((r) => r.key)).toEqual(before.map((r) => r.key));
	});

	it('a subagent call in flight is the live activity, by its description', () => {
		const open = session([turn([user('u1', 'go'), assistant('a1', [toolUse('T1', 'Task', { description: 'Scan the repo', prompt: 'p' })], { stop: 'tool_use' })], false)]);
		expect(liveActivity(open, buildChatRows(open))).toMatchObject({ kind: 'subagent', label: 'Scan the repo' });
	});
});

describe('the thought at the live edge', () => {
	it('is live only while it is the last row of an open turn, and settles without changing its key', () => {
		const u = user('u1', 'why');
		const th = assistant('a1', [thinking('considering')], { stop: null });
		const open = session([turn([u, th], false)]);
		const rows = markLiveThought(open, buildChatRows(open));
		const last = rows.at(-1);
		expect(last?.kind === 'thinking' && last.live).toBe(true);
		expect(liveActivity(open, rows).kind).toBe('thinking');

		const more = session([turn([u, th, assistant('a2', [text('because')], { stop: 'end_turn' })], true)]);
		const after = markLiveThought(more, buildChatRows(more));
		const thought = after.find((r) => r.key === last?.key);
		expect(thought?.kind === 'thinking' && thought.live).toBeFalsy();
	});

	it('a thought inside a run of tool work is live only as the run’s last entry', () => {
		const u = user('u1', 'go');
		const a = assistant('a1', [toolUse('T1', 'Read', { file_path: '/a' })], { stop: 'tool_use' });
		const th = assistant('a2', [thinking('next')], { stop: null });
		const open = session([turn([u, a, result('r1', 'T1', 'x'), th], false)]);
		const rows = markLiveThought(open, buildChatRows(open));
		const g = rows.at(-1);
		if (g?.kind === 'tool-group') expect(g.entries.at(-1)).toMatchObject({ kind: 'thinking', live: true });
		else expect(g?.kind === 'thinking' && g.live).toBe(true);
	});
});

describe('quiet, idle and waiting', () => {
	const open = { kind: 'tool' as const, label: 'Bash · sleep', sinceMs: 0 };
	it('without a state log an open turn silent past the threshold reads quiet, not running', () => {
		expect(liveStatus(open, 0, null, 10_000)).toMatchObject({ phase: 'running', text: 'Running Bash · sleep · 10s' });
		expect(isQuiet(open, 0, false, QUIET_AFTER_MS)).toBe(true);
		expect(liveStatus(open, 0, null, 5 * 60_000)).toEqual({ phase: 'quiet', text: 'Quiet for 5 min' });
	});
	it('with a state log, its last row rules: working keeps running, idle and waiting show', () => {
		expect(isQuiet(open, 0, true, 60 * 60_000)).toBe(false);
		expect(liveStatus(open, 0, { state: 'working' }, 60 * 60_000).phase).toBe('running');
		expect(liveStatus(open, 0, { state: 'idle' }, 1)).toEqual({ phase: 'idle', text: 'Idle' });
		expect(liveStatus({ kind: 'ended', label: '', sinceMs: null }, 0, { state: 'waiting' }, 1)).toEqual({ phase: 'waiting', text: 'Waiting for the next prompt' });
		expect(liveStatus(open, 0, { state: 'permission' }, 1).text).toBe('Waiting for permission');
	});
	it('an ended turn is never quiet', () => {
		expect(liveStatus({ kind: 'ended', label: '', sinceMs: null }, 0, null, 60 * 60_000).phase).toBe('ended');
	});
});

describe('rebuildTail', () => {
	it('equals a full build after an append, keeping the earlier turns’ rows as they were', () => {
		const t1 = turn([user('u1', 'one'), assistant('a1', [toolUse('T1', 'Bash', { command: 'ls' })], { stop: 'tool_use' }), result('r1', 'T1', 'x'), assistant('a2', [text('done')], { stop: 'end_turn' })], true);
		const u2 = user('u2', 'two');
		const a3 = assistant('a3', [thinking('hmm')], { stop: null });
		const before = markLiveThought(session([t1, turn([u2, a3], false)]), buildChatRows(session([t1, turn([u2, a3], false)])));
		const grown = session([t1, turn([u2, a3, assistant('a4', [toolUse('T2', 'Read', { file_path: '/x' })], { stop: 'tool_use' })], false), turn([user('u3', 'three')], false)]);
		const from = firstChangedTurn(before, 2);
		expect(from).toBe(1);
		const { rows, keep } = rebuildTail(before, grown, {}, {}, from);
		expect(rows).toEqual(buildChatRows(grown));
		// Turn 1's prompt row came out equal: it is kept too; the thought (no longer live) is not.
		expect(keep).toBe(before.findIndex((r) => r.turnIndex === 1) + 1);
		for (let i = 0; i < keep; i++) expect(rows[i]).toBe(before[i]);
		expect(rows[keep]).not.toBe(before[keep]);
	});

	it('starts at the turn of a delegation whose subagent grew', () => {
		const t1 = turn([user('u1', 'one'), assistant('a1', [toolUse('T1', 'Task', { description: 'd', prompt: 'p' })], { stop: 'tool_use' }), result('r1', 'T1', 'x'), assistant('a2', [text('done')], { stop: 'end_turn' })], true);
		const rows = buildChatRows(session([t1, turn([user('u2', 'two')], false)]));
		expect(firstChangedTurn(rows, 2, ['T1'])).toBe(0);
		expect(firstChangedTurn(rows, 2, ['other'])).toBe(1);
	});

	it('starts at the turn of a plain call that a subagent was just tied to, and at the first turn the model changed', () => {
		const t1 = turn([user('u1', 'one'), assistant('a1', [toolUse('T1', 'Bash', { command: 'ls' })], { stop: 'tool_use' }), result('r1', 'T1', 'x'), assistant('a2', [text('done')], { stop: 'end_turn' })], true);
		const t2 = turn([user('u2', 'two'), assistant('a3', [text('ok')], { stop: 'end_turn' })], true);
		const rows = buildChatRows(session([t1, t2, turn([user('u3', 'three')], false)]));
		expect(rows.some((r) => r.kind === 'tool' && r.call.id === 'T1')).toBe(true);
		expect(firstChangedTurn(rows, 3, ['T1'])).toBe(0);
		// A rebuilt parse can change a turn before the last one.
		expect(firstChangedTurn(rows, 3, [], 1)).toBe(1);
		// The previous last turn is redrawn even when the model kept it (a turn after it settles its calls).
		expect(firstChangedTurn(rows, 3, [], 3)).toBe(2);
	});

	it('a tail whose result answers a call of a kept turn draws it on that call, not as a stray result', () => {
		const t1 = turn([user('u1', 'one'), assistant('a1', [toolUse('T1', 'Bash', { command: 'sleep 9' })], { stop: 'tool_use' })], false);
		const before = buildChatRows(session([t1]));
		const grown = session([t1, turn([result('r1', 'T1', 'slept'), assistant('a2', [toolUse('T2', 'Read', { file_path: '/x' })], { stop: 'tool_use' }), result('r2', 'T2', 'text')], false)]);
		const { rows } = rebuildTail(before, grown, {}, {}, 1);
		const want = buildChatRows(grown).filter((r) => r.turnIndex >= 1);
		expect(rows.filter((r) => r.turnIndex >= 1)).toEqual(want);
		expect(want.some((r) => r.kind === 'notice')).toBe(false);
	});

	it('a rewind in a followed session draws its fold after a turn that did not change itself', () => {
		// before: the first attempt, still on the path; then the person rewound to a1 and asked again
		const first = fixtureSession('rewind', (v) => {
			if (['u3', 'a4', 'r4', 'a5'].includes(v.uuid as string)) Object.assign(v, { type: 'summary', summary: 'later', leafUuid: null, uuid: undefined });
		});
		expect(first.branches).toBeUndefined();
		const before = buildChatRows(first);
		const grown = fixtureSession('rewind');
		const { rows } = rebuildTail(before, grown, {}, {}, 1);
		expect(rows).toEqual(buildChatRows(grown));
		expect(rows.map((r) => r.kind)).toContain('branch');
	});
});
