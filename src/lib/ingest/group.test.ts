import { describe, expect, it } from 'vitest';
import { readRecords } from '../model/index.ts';
import { classifyFile, HEAD_BYTES } from './classify.ts';
import { groupSessions } from './group.ts';
import { summarize } from './summary.ts';
import { dropFolder, enc, jsonl, WORKTREES, DEEP_MANIFEST } from './test-helpers.ts';
import type { ClassifiedFile, FileSummary, InputFile } from './types.ts';

async function classifyAll(files: InputFile[]): Promise<{ classified: ClassifiedFile[]; summaries: Map<string, FileSummary> }> {
	const classified: ClassifiedFile[] = [];
	const summaries = new Map<string, FileSummary>();
	for (const f of files) {
		const bytes = new Uint8Array(await f.blob.arrayBuffer());
		const c = classifyFile(f.path, bytes.subarray(0, HEAD_BYTES), bytes.length);
		classified.push(c);
		if (c.kind === 'transcript') summaries.set(c.path, summarize(c.path, readRecords(c.path, [bytes])));
	}
	return { classified, summaries };
}
const file = (path: string, rows: unknown[]): InputFile => ({ path, blob: new Blob([enc(jsonl(rows))]) });

let n = 0;
const line = (uuid: string, parentUuid: string | null, sessionId: string, ts: string, extra: Record<string, unknown> = {}) => ({
	type: n++ % 2 ? 'assistant' : 'user',
	uuid,
	parentUuid,
	sessionId,
	timestamp: ts,
	message: { role: 'user', content: `m ${uuid}` },
	...extra
});

describe('groupSessions: corpus folders', () => {
	it('-experiments-worktrees: one session with six subagents, each with its meta', async () => {
		const { classified, summaries } = await classifyAll(dropFolder(WORKTREES));
		const { plans, leftover } = groupSessions(classified, summaries);
		expect(leftover).toEqual([]);
		expect(plans).toHaveLength(1);
		const [p] = plans;
		expect(p.key).toBe('ef958aa1-0e93-49f0-bb71-150f63befcd1');
		expect(p.mainFiles.map((f) => f.name)).toEqual(['ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl']);
		expect(p.subagents).toHaveLength(6);
		for (const s of p.subagents) {
			expect(s.meta?.agentId).toBe(s.file.agentId);
			expect(s.meta?.path).toBe(s.file.path.replace(/\.jsonl$/, '.meta.json'));
		}
	});

	it('-src-deep-manifest: the legacy root agent file attaches to its session by sessionId', async () => {
		const { classified, summaries } = await classifyAll(dropFolder(DEEP_MANIFEST));
		const { plans, leftover } = groupSessions(classified, summaries);
		expect(leftover).toEqual([]);
		expect(plans).toHaveLength(1);
		expect(plans[0].key).toBe('a7da6a22-facc-4fcd-8bab-f83c87862004');
		expect(plans[0].subagents.map((s) => [s.file.name, s.meta])).toEqual([['agent-c8d9b115.jsonl', null]]);
	});
});

describe('groupSessions: synthetic lineages', () => {
	it('a resume that links by parentUuid is one session, the newer file last', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-01T00:00:00Z'), line('a2', 'a1', 'A', '2026-01-01T00:01:00Z')]);
		const b = file('p/B.jsonl', [line('b1', 'a2', 'B', '2026-01-02T00:00:00Z'), line('b2', 'b1', 'B', '2026-01-02T00:01:00Z')]);
		const { classified, summaries } = await classifyAll([b, a]);
		const { plans } = groupSessions(classified, summaries);
		expect(plans.map((p) => [p.key, p.mainFiles.map((f) => f.name)])).toEqual([['B', ['A.jsonl', 'B.jsonl']]]);
	});

	it('a resume that replays the same uuids is one session; the later file is the leaf', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-01T00:00:00Z'), line('a2', 'a1', 'A', '2026-01-01T00:01:00Z')]);
		const b = file('p/B.jsonl', [line('a1', null, 'B', '2026-01-01T00:00:00Z'), line('a2', 'a1', 'B', '2026-01-01T00:01:00Z'), line('b3', 'a2', 'B', '2026-01-03T00:00:00Z')]);
		const { classified, summaries } = await classifyAll([b, a]);
		const { plans } = groupSessions(classified, summaries);
		// A is wholly replayed by B: part of the session, but not fed to the model twice.
		expect(plans.map((p) => [p.mainFiles.map((f) => f.name), p.replayed.map((f) => f.name)])).toEqual([[['B.jsonl'], ['A.jsonl']]]);
	});

	it('a partly replayed ancestor stays a candidate', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-01T00:00:00Z'), line('a2', 'a1', 'A', '2026-01-01T00:01:00Z'), line('a3', 'a2', 'A', '2026-01-01T00:02:00Z')]);
		const b = file('p/B.jsonl', [line('a1', null, 'B', '2026-01-01T00:00:00Z'), line('b2', 'a1', 'B', '2026-01-03T00:00:00Z')]);
		const { classified, summaries } = await classifyAll([b, a]);
		const { plans } = groupSessions(classified, summaries);
		expect(plans.map((p) => [p.mainFiles.map((f) => f.name), p.replayed])).toEqual([[['A.jsonl', 'B.jsonl'], []]]);
	});

	it('two branches from one file give two sessions that share the prefix; unrelated files stay apart', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-01T00:00:00Z')]);
		const b = file('p/B.jsonl', [line('b1', 'a1', 'B', '2026-01-02T00:00:00Z')]);
		const c = file('p/C.jsonl', [line('c1', 'a1', 'C', '2026-01-03T00:00:00Z')]);
		const d = file('p/D.jsonl', [line('d1', null, 'D', '2026-01-04T00:00:00Z')]);
		const { classified, summaries } = await classifyAll([a, b, c, d]);
		const keyed = Object.fromEntries(groupSessions(classified, summaries).plans.map((p) => [p.key, p.mainFiles.map((f) => f.name)]));
		expect(keyed).toEqual({ B: ['A.jsonl', 'B.jsonl'], C: ['A.jsonl', 'C.jsonl'], D: ['D.jsonl'] });
	});

	it('a chain of three keeps dependency order even when timestamps disagree', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-05T00:00:00Z')]);
		const b = file('p/B.jsonl', [line('b1', 'a1', 'B', '2026-01-01T00:00:00Z')]);
		const c = file('p/C.jsonl', [line('c1', 'b1', 'C', '2026-01-02T00:00:00Z')]);
		const { classified, summaries } = await classifyAll([c, a, b]);
		expect(groupSessions(classified, summaries).plans.map((p) => p.mainFiles.map((f) => f.name))).toEqual([['A.jsonl', 'B.jsonl', 'C.jsonl']]);
	});

	it('state log joins its session; postal log applies to all; strays are leftovers with reasons', async () => {
		const a = file('p/A.jsonl', [line('a1', null, 'A', '2026-01-01T00:00:00Z')]);
		const d = file('p/D.jsonl', [line('d1', null, 'D', '2026-01-04T00:00:00Z')]);
		const st = file('states/A.jsonl', [{ t: 1, state: 'working' }]);
		const stray = file('states/Z.jsonl', [{ t: 1, state: 'working' }]);
		const postal = file('timeline/messages.jsonl', [{ t: 1, ev: 'sent', id: 'm', from_id: 'x' }]);
		const meta: InputFile = { path: 'p/Q/subagents/agent-q.meta.json', blob: new Blob(['{"agentType":"x"}']) };
		const empty: InputFile = { path: 'p/empty.jsonl', blob: new Blob([]) };
		const { classified, summaries } = await classifyAll([a, d, st, stray, postal, meta, empty]);
		const { plans, leftover } = groupSessions(classified, summaries);
		const byKey = Object.fromEntries(plans.map((p) => [p.key, p]));
		expect(byKey.A.states?.path).toBe('states/A.jsonl');
		expect(byKey.D.states).toBeNull();
		expect(plans.every((p) => p.postal?.path === 'timeline/messages.jsonl')).toBe(true);
		expect(leftover.map((f) => [f.path, f.reason])).toEqual([
			['p/Q/subagents/agent-q.meta.json', 'subagent .meta.json without its agent transcript'],
			['states/Z.jsonl', "state log for session Z, which is not among the dropped transcripts"],
			['p/empty.jsonl', 'empty file (0 bytes)']
		]);
	});

	it('a subagent without a known session id attaches to the session that reports spawning it', async () => {
		const main = file('p/M.jsonl', [line('m1', null, 'M', '2026-01-01T00:00:00Z'), line('m2', 'm1', 'M', '2026-01-01T00:00:01Z', { toolUseResult: { agentId: 'k' } })]);
		const sub = file('p/agent-k.jsonl', [line('k1', null, 'other', '2026-01-01T00:00:00Z', { isSidechain: true, agentId: 'k' })]);
		const { classified, summaries } = await classifyAll([main, sub]);
		const { plans } = groupSessions(classified, summaries);
		expect(plans.map((p) => [p.key, p.subagents.map((s) => s.file.name)])).toEqual([['M', ['agent-k.jsonl']]]);
	});

	it('a subagent dropped without its parent becomes a standalone session', async () => {
		const sub = file('agent-k.jsonl', [line('k1', null, 'S', '2026-01-01T00:00:00Z', { isSidechain: true, agentId: 'k' })]);
		const meta: InputFile = { path: 'agent-k.meta.json', blob: new Blob(['{"agentType":"Explore"}']) };
		const { classified, summaries } = await classifyAll([sub, meta]);
		const { plans, leftover } = groupSessions(classified, summaries);
		expect(leftover).toEqual([]);
		expect(plans).toHaveLength(1);
		expect(plans[0]).toMatchObject({ key: 'agent-k', standalone: 'subagent' });
		expect(plans[0].subagentMeta?.name).toBe('agent-k.meta.json');
	});

	it('a <sid>/subagents/ folder without <sid>.jsonl becomes one session of its project, marked mainMissing', async () => {
		const sub = file('x/S/subagents/agent-k.jsonl', [line('k1', null, 'S', '2026-01-01T00:00:00Z', { isSidechain: true, agentId: 'k' })]);
		const meta: InputFile = { path: 'x/S/subagents/agent-k.meta.json', blob: new Blob(['{"agentType":"Explore"}']) };
		const { classified, summaries } = await classifyAll([sub, meta]);
		const { plans, leftover } = groupSessions(classified, summaries);
		expect(leftover).toEqual([]);
		expect(plans).toHaveLength(1);
		expect(plans[0]).toMatchObject({ key: 'S', mainFiles: [], mainMissing: { project: 'x', sid: 'S' } });
		expect(plans[0].standalone).toBeUndefined();
		expect(plans[0].subagents.map((s) => [s.file.name, s.meta?.name])).toEqual([['agent-k.jsonl', 'agent-k.meta.json']]);
	});
});
