// Issue 24, "also check": shapes of real histories, each through the engine (the list the page
// gets), both as a small drop (parsed whole) and inside a big one (listed from the scan, built on
// open): a conversation resumed across files, a project folder whose sessions record different
// cwds, empty and summary-only files, and an orphaned subagent folder. Fixtures are generated here.
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/lib/worker/engine.ts';
import type { InputFile } from '../../src/lib/ingest/types.ts';

const P = 'projects/-home-me-api';
const at = (day: number, min: number) => new Date(Date.UTC(2026, 6, day, 8, min)).toISOString();
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const file = (path: string, text: string): InputFile => ({ path, blob: new Blob([text]) });
const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });

type Row = Record<string, unknown>;
function turn(sid: string, id: string, parent: string | null, day: number, min: number, prompt: string, tokens: [number, number], cwd = '/home/me/api'): Row[] {
	return [
		{ type: 'user', uuid: `${id}-u`, parentUuid: parent, sessionId: sid, cwd, timestamp: at(day, min), promptSource: 'typed', message: { role: 'user', content: prompt } },
		{ type: 'assistant', uuid: `${id}-a`, parentUuid: `${id}-u`, sessionId: sid, cwd, timestamp: at(day, min + 1), message: { role: 'assistant', id: `msg-${id}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text: `answer ${id}` }], stop_reason: 'end_turn', usage: usage(...tokens) } }
	];
}

/** One conversation: turns 1-2 in A.jsonl; B.jsonl resumes it (its head replays A's lines, as
 *  Claude Code's resume does), then turns 3-4. And the same four turns written as one file. */
function resumed(): { split: InputFile[]; whole: InputFile } {
	const a = [...turn('A', 't1', null, 1, 0, 'first question', [1000, 200]), ...turn('A', 't2', 't1-a', 1, 10, 'second question', [2000, 300])];
	const b = [...turn('B', 't3', 't2-a', 2, 0, 'third question', [3000, 400]), ...turn('B', 't4', 't3-a', 2, 10, 'fourth question', [4000, 500])];
	return {
		split: [file(`${P}/A.jsonl`, jsonl(a)), file(`${P}/B.jsonl`, jsonl([...a, ...b]))],
		whole: file(`${P}/W.jsonl`, jsonl([...a, ...b].map((r) => ({ ...r, sessionId: 'W' }))))
	};
}

/** Sessions to make a drop big enough for the scan (more than 24 sessions). */
const filler = (n: number, project = 'projects/-home-me-other') =>
	Array.from({ length: n }, (_, i) => file(`${project}/F${i}.jsonl`, jsonl(turn(`F${i}`, `f${i}`, null, 20 + (i % 5), i, `filler ${i}`, [10, 10], '/home/me/other'))));

async function load(files: InputFile[]) {
	const engine = new Engine();
	const out = await engine.load(1, { files });
	if (!out.ok) throw new Error('load failed');
	return { engine, out };
}

describe('a conversation resumed across files', () => {
	it('small drop: one list entry with the conversation\'s turns and cost (the replayed lines counted once)', async () => {
		const { split, whole } = resumed();
		const { engine, out } = await load(split);
		expect(out.scanned).toBe(false);
		expect(out.list).toHaveLength(1);
		expect(out.list[0]).toMatchObject({ turns: 4, title: 'first question' });
		const u = await engine.usage(out.list[0].key);
		const ref = await load([whole]);
		const w = await ref.engine.usage(ref.out.list[0].key);
		expect(u?.total.messages).toBe(4);
		expect(u?.total.costUsd).toBeGreaterThan(0);
		expect(u?.total.costUsd).toBeCloseTo(w?.total.costUsd ?? -1, 10);
		expect(u?.total.input).toBe(10000);
	});

	it('big drop: listed once (the resumed file holds its ancestor), and built it has the same turns and cost', async () => {
		const { split } = resumed();
		const { engine, out } = await load([...split, ...filler(25)]);
		expect(out.scanned).toBe(true);
		const mine = out.list.filter((e) => e.project === P);
		expect(mine).toHaveLength(1);
		expect(mine[0].turns).toBe(4);
		const built = await engine.open(mine[0].key);
		expect(built?.turns).toBe(4);
		const u = await engine.usage(mine[0].key);
		expect(u?.total.messages).toBe(4);
		expect(u?.total.input).toBe(10000);
	});
});

describe('a project folder whose sessions record different cwds', () => {
	const files = () => [
		file(`${P}/C1.jsonl`, jsonl(turn('C1', 'c1', null, 3, 0, 'in the repo', [1, 1], '/home/me/api'))),
		file(`${P}/C2.jsonl`, jsonl(turn('C2', 'c2', null, 3, 5, 'in a subfolder', [1, 1], '/home/me/api/packages/core'))),
		file(`${P}/C3.jsonl`, jsonl(turn('C3', 'c3', null, 3, 9, 'in a worktree', [1, 1], '/home/me/api-worktrees/feature')))
	];

	it('small drop: one project', async () => {
		const { engine, out } = await load(files());
		expect(out.list.map((e) => e.project)).toEqual([P, P, P]);
		void engine;
	});

	it('big drop: one project for the three, beside the filler project', async () => {
		const { out } = await load([...files(), ...filler(25)]);
		expect(out.scanned).toBe(true);
		expect(new Set(out.list.map((e) => e.project))).toEqual(new Set([P, 'projects/-home-me-other']));
		expect(out.list.filter((e) => e.project === P)).toHaveLength(3);
	});
});

describe('empty and summary-only files', () => {
	const files = () => [
		file(`${P}/REAL.jsonl`, jsonl(turn('REAL', 'r1', null, 4, 0, 'a real session', [1, 1]))),
		file(`${P}/EMPTY.jsonl`, ''),
		file(`${P}/BLANK.jsonl`, '\n\n'),
		// An old Claude Code summary-only file whose leaf lives in no dropped file.
		file(`${P}/SUMMARY.jsonl`, jsonl([{ type: 'summary', summary: 'Refactor the parser', leafUuid: 'not-in-this-drop' }]))
	];
	const reasons = (unknown: { path: string; reason?: string }[]) => Object.fromEntries(unknown.map((u) => [u.path.split('/').pop(), u.reason ?? '']));

	it('small drop: only the real session is listed; the others are "not opened" with a reason', async () => {
		const { out } = await load(files());
		expect(out.list.map((e) => e.title)).toEqual(['a real session']);
		const r = reasons(out.unknown);
		expect(Object.keys(r).sort()).toEqual(['BLANK.jsonl', 'EMPTY.jsonl', 'SUMMARY.jsonl']);
		expect(r['EMPTY.jsonl']).toMatch(/empty/);
		expect(r['SUMMARY.jsonl']).toMatch(/summary/);
	});

	it('big drop: not listed either, and named among the files not used', async () => {
		const { engine, out } = await load([...files(), ...filler(25)]);
		expect(out.scanned).toBe(true);
		expect(out.list.filter((e) => e.project === P).map((e) => e.title)).toEqual(['a real session']);
		const r = reasons(out.unknown);
		expect(r['EMPTY.jsonl']).toMatch(/empty/);
		expect(r['SUMMARY.jsonl']).toMatch(/summary/);
		void engine;
	});
});

describe('an orphaned subagent folder (its main transcript gone)', () => {
	const sub = (agentId: string, min: number, prompt: string) =>
		file(
			`${P}/GONE/subagents/agent-${agentId}.jsonl`,
			jsonl(turn('GONE', agentId, null, 5, min, prompt, [50, 5]).map((r) => ({ ...r, isSidechain: true, agentId })))
		);
	const files = () => [file(`${P}/REAL.jsonl`, jsonl(turn('REAL', 'r1', null, 4, 0, 'a real session', [1, 1]))), sub('x1', 0, 'first subagent task'), sub('x2', 10, 'second subagent task')];

	for (const big of [false, true]) {
		it(`${big ? 'big' : 'small'} drop: one entry of the real project, mainMissing, both subagents; built, its usage is theirs`, async () => {
			const { engine, out } = await load(big ? [...files(), ...filler(25)] : files());
			expect(out.scanned).toBe(big);
			const mine = out.list.filter((e) => e.project === P);
			expect(mine.map((e) => [e.title, e.mainMissing === true, e.subagents]).sort()).toEqual([['a real session', false, 0], ['first subagent task', true, 2]]);
			expect(out.list.some((e) => /subagents/.test(e.project))).toBe(false);
			const orphan = mine.find((e) => e.mainMissing);
			const built = await engine.open(orphan!.key);
			expect(built?.meta).toMatchObject({ mainMissing: true, project: P });
			const u = await engine.usage(orphan!.key);
			expect(u?.total.input).toBe(100); // the two subagents' calls; the synthetic delegations cost nothing
			expect(u?.subagents).toHaveLength(2);
		});
	}
});
