// billedCalls against the history fixture (fixtures/history/README.md: one project per case, the
// figures below are its hand-computed sums) and against small built sessions for the identity
// rule's edges (ids missing, the copy with the most tokens kept, ties in path order).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import { dropFolder, jsonl } from '../../ingest/test-helpers.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls, callIdentity, sessionOfFile } from './calls.ts';
import type { BilledCall } from './types.ts';

const TREE = resolve(import.meta.dirname, '../../../../fixtures/history/claude/projects');

const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/'));
function where(s: LoadedSession) {
	const leaf = s.files.find((f) => f.kind === 'transcript') ?? s.files[0];
	return { sessionKey: s.key, project: dirOf(leaf.path), harness: s.meta.harness ?? 'claude-code' };
}

async function load(files = dropFolder(TREE)) {
	const out = await loadSessions(files);
	return out.sessions;
}

const byProject = async (name: string) => {
	const sessions = (await load()).filter((s) => where(s).project.endsWith(name));
	return sessions.flatMap((s) => billedCalls(s, where(s)));
};
const ids = (calls: BilledCall[]) => calls.map((c) => c.id).sort();
const sum = (calls: BilledCall[], k: 'input' | 'output' | 'cacheRead') => calls.reduce((n, c) => n + c[k], 0);

describe('billedCalls on the history fixture', () => {
	it('counts the calls of a rewound branch, off the path, with the split reply once at its final count', async () => {
		const calls = await byProject('-work-rewind');
		expect(ids(calls)).toEqual(['msg_rw1:req_msg_rw1', 'msg_rw2:req_msg_rw2', 'msg_rw3:req_msg_rw3', 'msg_rw4:req_msg_rw4']);
		const on = Object.fromEntries(calls.map((c) => [c.id.split(':')[0], c.onPath]));
		expect(on).toEqual({ msg_rw1: true, msg_rw2: false, msg_rw3: false, msg_rw4: true });
		expect(calls.find((c) => c.id.startsWith('msg_rw2'))!.output).toBe(900);
		expect(sum(calls, 'input')).toBe(235);
		expect(sum(calls, 'output')).toBe(2550);
		expect(calls.every((c) => c.sessionId === '11111111-0000-4000-8000-00000000re01' && !c.subagent)).toBe(true);
		// Ordered by time.
		expect(calls.map((c) => c.ms)).toEqual([...calls.map((c) => c.ms)].sort((a, b) => a! - b!));
	});

	it('counts a resumed session\'s copied lines once, for the file they were first written to', async () => {
		const calls = await byProject('-work-resume');
		const unique = new Map(calls.map((c) => [c.id, c]));
		expect([...unique.keys()].sort()).toEqual(['msg_rs1:req_msg_rs1', 'msg_rs2:req_msg_rs2', 'msg_rs3:req_msg_rs3']);
		// Every listed session that holds a copy gives the same session for it (path order).
		for (const c of calls) {
			const want = c.id.startsWith('msg_rs3') ? '22222222-0000-4000-8000-00000000rs02' : '22222222-0000-4000-8000-00000000rs01';
			expect(c.sessionId).toBe(want);
		}
		expect([...unique.values()].reduce((n, c) => n + c.output, 0)).toBe(1850);
	});

	it('counts a subagent file and an inline sidechain, flagged, and a zero-usage notice', async () => {
		const calls = await byProject('-work-agents');
		expect(ids(calls)).toEqual(['msg_sa1', 'msg_sa2', 'msg_sa3', 'msg_sa4', 'msg_sa5', 'msg_si1', 'msg_ss1', 'msg_ss2'].map((m) => `${m}:req_${m}`).sort());
		const sub = calls.filter((c) => c.subagent).map((c) => c.id.split(':')[0]).sort();
		expect(sub).toEqual(['msg_si1', 'msg_ss1', 'msg_ss2']);
		expect(new Set(calls.map((c) => c.sessionId))).toEqual(new Set(['33333333-0000-4000-8000-00000000sa01']));
		expect(sum(calls, 'input')).toBe(1310);
		expect(sum(calls, 'output')).toBe(475);
		const synthetic = calls.find((c) => c.model === '<synthetic>')!;
		expect(synthetic.input + synthetic.output + synthetic.cacheRead).toBe(0);
		expect(calls.find((c) => c.id.startsWith('msg_ss1'))!.cacheWrite5m).toBe(1000);
	});
});

// ── identity rule edges, on one small built session ──

const SID = 'aaaaaaaa-0000-4000-8000-000000000001';
let n = 0;
function line(o: { id?: string; req?: string; out: number; input?: number; read?: number; ms?: number; parent?: string | null; uuid?: string }) {
	const uuid = o.uuid ?? `x${++n}`;
	const message: Record<string, unknown> = { type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'ok' }], usage: { input_tokens: o.input ?? 10, output_tokens: o.out, cache_read_input_tokens: o.read ?? 0 } };
	if (o.id) message.id = o.id;
	const row: Record<string, unknown> = { type: 'assistant', uuid, parentUuid: o.parent ?? null, sessionId: SID, timestamp: new Date(Date.UTC(2026, 0, 1, 10) + (o.ms ?? n) * 1000).toISOString(), message };
	if (o.req) row.requestId = o.req;
	return row;
}
async function built(files: Record<string, unknown[]>) {
	const sessions = await load(Object.entries(files).map(([path, rows]) => ({ path, blob: new Blob([jsonl(rows)]) })));
	return sessions.flatMap((s) => billedCalls(s, where(s)));
}

describe('billedCalls identity rule', () => {
	it('keeps the copy with the most tokens, whichever line it is, and its time', async () => {
		const calls = await built({
			[`p/${SID}.jsonl`]: [
				{ type: 'user', uuid: 'u', parentUuid: null, sessionId: SID, timestamp: '2026-01-01T09:59:00.000Z', message: { role: 'user', content: 'hi' } },
				line({ id: 'm1', req: 'r1', out: 50, parent: 'u', uuid: 'a', ms: 1 }),
				line({ id: 'm1', req: 'r1', out: 10, input: 300, parent: 'a', uuid: 'b', ms: 2 }),
				line({ id: 'm1', req: 'r1', out: 20, parent: 'b', uuid: 'c', ms: 3 })
			]
		});
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ id: 'm1:r1', input: 300, output: 10, ms: Date.UTC(2026, 0, 1, 10) + 2000, line: 3 });
	});

	it('keys a message without requestId by its id, and counts a line without message id by itself', async () => {
		const calls = await built({
			[`p/${SID}.jsonl`]: [
				{ type: 'user', uuid: 'u', parentUuid: null, sessionId: SID, timestamp: '2026-01-01T09:59:00.000Z', message: { role: 'user', content: 'hi' } },
				line({ id: 'm2', out: 5, parent: 'u', uuid: 'a' }),
				line({ id: 'm2', out: 7, parent: 'a', uuid: 'b' }),
				line({ req: 'r3', out: 30, parent: 'b', uuid: 'c' }),
				line({ req: 'r3', out: 31, parent: 'c', uuid: 'd' })
			]
		});
		expect(calls.map((c) => [c.id, c.output])).toEqual([
			['m2', 7],
			[`p/${SID}.jsonl#4`, 30],
			[`p/${SID}.jsonl#5`, 31]
		]);
	});
});

describe('callIdentity and sessionOfFile', () => {
	it('follow the header rule', () => {
		expect(callIdentity('m', 'r', 'f', 1)).toBe('m:r');
		expect(callIdentity('m', null, 'f', 1)).toBe('m');
		expect(callIdentity(null, 'r', 'f', 3)).toBe('f#3');
		expect(sessionOfFile('projects/p/abc.jsonl')).toBe('abc');
		expect(sessionOfFile('projects/p/abc/subagents/agent-x.jsonl')).toBe('abc');
		expect(sessionOfFile('projects/p/abc#sidechain-2.jsonl')).toBe('abc');
	});
});
