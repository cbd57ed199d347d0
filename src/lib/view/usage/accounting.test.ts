// Accounting against the hand-computed usage fixture (fixtures/usage/README.md shows the sums).
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import type { Atom } from '../../model/types.ts';
import { assistant, result, session, text, toolUse, turn, user } from '../chat/test-builders.ts';
import { dropFolder } from '../../ingest/test-helpers.ts';
import { sessionUsage, thinPeaks } from './accounting.ts';
import { projectUsage } from './project.ts';
import { costLabel } from './format.ts';

const FIXTURE = resolve(import.meta.dirname, '../../../../fixtures/usage/project');

async function loadFixture() {
	const out = await loadSessions(dropFolder(FIXTURE));
	expect(out.sessions).toHaveLength(1);
	return out.sessions[0];
}

// Hand-computed (per million tokens: Sonnet 4.5 3 / 3.75 / 6 / 0.3 / 15, Haiku 4.5 1 / 1.25 / 2 / 0.1 / 5).
const SONNET_USD = (13350 + 1605 + 1395 + 2340 + 19800) / 1e6;
const HAIKU_USD = (1900 + 185) / 1e6;

describe('sessionUsage on the usage fixture', () => {
	it('counts each API message once: split lines, a replayed line, a subagent', async () => {
		const u = sessionUsage(await loadFixture());
		expect(u.total).toMatchObject({ messages: 8, input: 1495, output: 385, cacheRead: 11200, cacheWrite: 8300, cacheWrite1h: 2000, cacheWrite5m: 6300, unpricedMessages: 1 });
		expect(u.main.messages).toBe(6);
		expect(u.subagents).toHaveLength(1);
		expect(u.subagents[0].tally).toMatchObject({ messages: 2, input: 310, output: 85, cacheRead: 1000, cacheWrite: 1000 });
		expect(u.subagents[0].label).toBe('Explore: Explore tests');
	});

	it('prices 1-hour writes apart and never prices an unknown model at $0', async () => {
		const u = sessionUsage(await loadFixture());
		expect(u.total.costUsd).toBeCloseTo(SONNET_USD + HAIKU_USD, 12);
		expect(u.models['claude-sonnet-4-5-20250929'].costUsd).toBeCloseTo(SONNET_USD, 12);
		expect(u.models['claude-haiku-4-5-20251001'].costUsd).toBeCloseTo(HAIKU_USD, 12);
		expect(u.models['acme-coder-1']).toMatchObject({ priced: false, messages: 1, input: 1000, output: 100, costUsd: 0, unpricedMessages: 1 });
		expect(costLabel(u.total)).toBe('≥ $0.04 (1 message unpriced)');
		expect(costLabel(u.models['acme-coder-1'])).toBe('unpriced (1 message)');
		expect(u.priceSourceDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	});

	it('sums per turn with the subagent in the turn that delegated, and per segment the same', async () => {
		const s = await loadFixture();
		const u = sessionUsage(s);
		const byTurn = u.turns.map((t) => t.tally.messages);
		// turn 1: msg_01..03; turn 2: msg_04, msg_05 + the subagent's two; the compaction turn(s); the last reply.
		expect(byTurn.reduce((a, b) => a + b, 0)).toBe(8);
		expect(byTurn[0]).toBe(3);
		expect(byTurn[1]).toBe(4);
		const segTotal = Object.values(u.segments).reduce((a, x) => a + x.costUsd, 0);
		expect(segTotal).toBeCloseTo(u.total.costUsd, 12);
		expect(Object.values(u.segments).reduce((a, x) => a + x.unpricedMessages, 0)).toBe(1);
		expect(Object.values(u.segments).reduce((a, x) => a + x.messages, 0)).toBe(8);
	});

	it('draws the context at each call, the window limit and the compaction', async () => {
		const u = sessionUsage(await loadFixture());
		expect(u.context.main.points.map((p) => p.tokens)).toEqual([3100, 3110, 3105, 3320, 1000, 5050]);
		expect(u.context.main.points[0].atomUuid).toBe('a1a');
		expect(u.context.limit).toBe(200000);
		expect(u.context.subagents).toHaveLength(1);
		expect(u.context.subagents[0].points.map((p) => p.tokens)).toEqual([1300, 1010]);
		// A subagent point lands on the delegation call in the main chat.
		expect(u.context.subagents[0].points[0].atomUuid).toBe('a4');
		expect(u.compactions).toEqual([expect.objectContaining({ preTokens: 160000, postTokens: null, nextContext: 5050, trigger: 'auto', atomUuid: 'cb1' })]);
		const cost = u.cost.map((c) => c.usd);
		expect(cost[cost.length - 1]).toBeCloseTo(u.total.costUsd, 12);
		expect([...cost].sort((a, b) => a - b)).toEqual(cost);
	});

	it('counts tool calls, failures and wall time per tool, and the files touched', async () => {
		const u = sessionUsage(await loadFixture());
		const tool = (n: string) => u.tools.find((t) => t.name === n);
		expect(tool('Bash')).toMatchObject({ calls: 1, errors: 0, wallMs: 2000, atomUuid: 'a1b' });
		expect(tool('Read')).toMatchObject({ calls: 1, errors: 1, wallMs: 1000 });
		expect(tool('Task')).toMatchObject({ calls: 1, errors: 0, wallMs: 28000 });
		expect(tool('Glob')).toMatchObject({ calls: 1, errors: 0, wallMs: 5000 });
		expect(u.files).toEqual([{ path: '/work/demo/src/a.ts', touches: 1, atomUuid: 'a2' }]);
		// The split reply's cost goes to the one tool it called.
		expect(tool('Bash')!.costUsd).toBeCloseTo(13350 / 1e6, 12);
	});

	it('splits wall time into worked and idle', async () => {
		const u = sessionUsage(await loadFixture());
		expect(u.wall.spanMs).toBe(212_000);
		expect(u.wall.workedMs + u.wall.idleMs).toBe(u.wall.spanMs);
		expect(u.wall.workedMs).toBeLessThan(u.wall.spanMs);
		expect(u.longestTurns[0].gist).toBe('Ask a helper to explore the tests');
	});
});

describe('projectUsage', () => {
	it('the project total is the sum of its sessions', async () => {
		const a = sessionUsage(await loadFixture());
		const b = sessionUsage(await loadFixture());
		const p = projectUsage(
			[
				{ key: 'a', title: 'A', startedAt: 1, usage: a },
				{ key: 'b', title: 'B', startedAt: 2, usage: b }
			],
			a.priceSourceDate
		);
		expect(p.total.costUsd).toBeCloseTo(a.total.costUsd + b.total.costUsd, 12);
		expect(p.total.messages).toBe(a.total.messages + b.total.messages);
		expect(p.total.unpricedMessages).toBe(2);
		expect(p.models['acme-coder-1'].messages).toBe(2);
		expect(p.days).toEqual([{ day: '2026-01-10', costUsd: expect.closeTo(2 * a.total.costUsd, 12), tokens: 2 * (1495 + 385 + 11200 + 8300) }]);
		expect(p.sessions.map((s) => s.key)).toEqual(['a', 'b']);
		expect(p.tools.find((t) => t.name === 'Read')).toMatchObject({ calls: 2, errors: 2 });
		expect(p.turns).toBe(a.turns.length * 2);
		expect(p.wall.workedMs).toBe(a.wall.workedMs * 2);
	});
});

describe('thinPeaks', () => {
	it('keeps each bucket’s highest point', () => {
		const pts = [1, 5, 2, 2, 9, 1, 0, 3];
		expect(thinPeaks(pts, 4, (x) => x)).toEqual([5, 2, 9, 3]);
		expect(thinPeaks(pts, 10, (x) => x)).toBe(pts);
	});
});


describe('nested subagents', () => {
	it('a subagent’s own subagent is counted once and lands in the main turn that started the chain', () => {
		const withUsage = (a: Atom, input: number): Atom => ({ ...a, message: { ...a.message!, model: 'claude-haiku-4-5-20251001', usage: { input_tokens: input, output_tokens: 0 } } });
		const main = session([turn([user('u', 'go'), withUsage(assistant('m1', [toolUse('t1', 'Task')]), 1), result('r1', 't1', 'done')])]);
		const childA = session([turn([user('ua', 'explore'), withUsage(assistant('c1', [toolUse('t2', 'Task')]), 10), result('ra', 't2', 'done')])]);
		const childB = session([turn([user('ub', 'dig'), withUsage(assistant('c2', [text('found it')], { stop: 'end_turn' }), 100)])]);
		// The nested child comes first, as an object's key order may give it.
		const u = sessionUsage({ result: { session: main }, children: { t2: { toolUseId: 't2', result: { session: childB } }, t1: { toolUseId: 't1', result: { session: childA } } } });
		expect(u.total).toMatchObject({ messages: 3, input: 111 });
		expect(u.turns[0].tally.input).toBe(111);
		// Both land on the call the main chat shows: the nested one sits inside the first's delegation row.
		expect(u.subagents.map((s) => [s.id, s.atomUuid])).toEqual([['t1', 'm1'], ['t2', 'm1']]);
		expect(Object.values(u.segments).reduce((n, x) => n + x.messages, 0)).toBe(3);
	});
});

describe('sessionUsage counts rewound branches', () => {
	it('adds the calls of an abandoned branch to the total and shows them apart (fixtures/history rewind case)', async () => {
		const out = await loadSessions(dropFolder(resolve(import.meta.dirname, '../../../../fixtures/history/claude/projects/-work-rewind')));
		const u = sessionUsage(out.sessions[0]);
		expect(u.main).toMatchObject({ messages: 2, input: 165, output: 950 });
		expect(u.offPath).toMatchObject({ messages: 2, input: 70, output: 1600 });
		expect(u.total).toMatchObject({ messages: 4, input: 235, output: 2550 });
		expect(u.total.costUsd).toBeCloseTo(u.main.costUsd + u.offPath.costUsd, 12);
		expect(u.models['claude-opus-4-5-20251101'].messages).toBe(1); // only on the abandoned branch
		expect(u.offPath.costUsd).toBeGreaterThan(0);
	});

	it('counts nothing apart when every call is on the path', async () => {
		const u = sessionUsage(await loadFixture());
		expect(u.offPath.messages).toBe(0);
	});
});
