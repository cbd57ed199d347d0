import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSessions, loadText } from './load-files.ts';
import { dropFolder, WORKTREES, filesUnder } from './test-helpers.ts';
import type { InputFile } from './types.ts';

const H = resolve(__dirname, '../../../fixtures/harnesses');
const file = (rel: string): InputFile => ({ path: rel, blob: new Blob([readFileSync(join(H, rel))]) });

/** INDEX.md rows: path and format-version column. */
function indexRows(): { path: string; format: string }[] {
	return readFileSync(join(H, 'INDEX.md'), 'utf8')
		.split('\n')
		.filter((l) => l.startsWith('| `'))
		.map((l) => l.split('|').map((c) => c.trim()))
		.map((c) => ({ path: c[1].replace(/`/g, ''), format: c[5] }))
		.filter((r) => !/\/(LICENSE|README\.md)$/.test(r.path));
}

const OPENED = /^(codex|gemini|strap|pi|cursor)\//;
const realShape = (r: { path: string; format: string }) => OPENED.test(r.path) && !/off-format|payload fragment/.test(r.format);

describe('every corpus file of another harness', () => {
	const rows = indexRows();
	test('INDEX.md lists the corpus', () => expect(rows.length).toBeGreaterThan(60));

	for (const row of rows.filter(realShape)) {
		test(`opens: ${row.path}`, async () => {
			const out = await loadSessions([file(row.path)]);
			expect(out.unknown).toEqual([]);
			expect(out.sessions).toHaveLength(1);
			const s = out.sessions[0];
			expect(s.meta.harness).toBe(row.path.split('/')[0]);
			const a = s.result.accounting;
			expect(a.lines).toBe(a.atoms + a.offPath + a.metadata + a.issues);
			expect(out.issues.filter((i) => i.kind === 'parse-failed')).toEqual([]);
		});
	}

	for (const row of rows.filter((r) => !realShape(r) && !r.path.includes('/opencode/') )) {
		test(`gives a reason: ${row.path}`, async () => {
			const out = await loadSessions([file(row.path)]);
			expect(out.sessions).toEqual([]);
			expect(out.unknown).toHaveLength(1);
			const reason = out.unknown[0].reason ?? '';
			if (row.path.startsWith('cursor/')) expect(reason).toMatch(/Cursor-like transcript with block types Loupe does not know \(.*tool_call/);
			else if (row.path.endsWith('gemini/schema_drift.json')) expect(reason).toMatch(/Gemini API history/);
			else expect(reason.length).toBeGreaterThan(10);
		});
	}

	test('OpenCode storage (session / message / part documents) opens grouped by session', async () => {
		const root = join(H, 'opencode/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/opencode');
		const out = await loadSessions([...dropFolder(join(root, 'storage_v2')), ...dropFolder(join(root, 'storage_legacy'))]);
		expect(out.sessions.map((s) => [s.meta.harness, s.result.session.rompUuid, s.title]).sort()).toEqual([
			['opencode', 's_stage0_drift', 'OpenCode Drift'],
			['opencode', 's_stage0_large', 'OpenCode Large'],
			['opencode', 's_stage0_small', 'OpenCode Small']
		]);
		for (const s of out.sessions) {
			const a = s.result.accounting;
			expect(a.lines).toBe(a.atoms + a.offPath + a.metadata + a.issues);
			expect(s.result.metadata.filter((m) => m.type === 'unplaced')).toEqual([]);
		}
		const small = out.sessions.find((s) => s.result.session.rompUuid === 's_stage0_small')!;
		const atoms = small.result.session.turns.flatMap((t) => t.atoms);
		expect(atoms.filter((a) => a.author === 'human').map((a) => (a.message?.content[0] as { text: string }).text)).toEqual(['Hello']);
		const use = atoms.flatMap((a) => a.message?.content ?? []).find((b) => b.type === 'tool_use');
		expect(use).toMatchObject({ id: 'call_1', name: 'Bash', input: { command: 'ls' } });
		const large = out.sessions.find((s) => s.result.session.rompUuid === 's_stage0_large')!;
		const la = large.result.session.turns.flatMap((t) => t.atoms);
		expect(la.some((a) => a.subtype === 'compact_boundary')).toBe(true);
		expect(la.flatMap((a) => a.message?.content ?? []).find((b) => b.type === 'tool_result')?.is_error).toBe(true);
		// The storage's migration marker is not a session document.
		expect(out.unknown.map((u) => u.name)).toEqual(['migration']);
	});
});

describe('harness sessions at the load level', () => {
	test('a Codex sessions folder: the child thread hangs off its spawn call, the list names the harness', async () => {
		const out = await loadSessions(dropFolder(join(H, 'codex/daaain__claude-code-log/test/test_data/codex/sessions')));
		const parent = out.sessions.find((s) => s.result.session.rompUuid === '22222222-2222-4222-8222-222222222222');
		expect(parent?.children['call-spawn-001']?.result.session.rompUuid).toBe('33333333-3333-4333-8333-333333333333');
		expect(parent?.meta.subagents).toBe(1);
		// The child is not a session of its own.
		expect(out.sessions.some((s) => s.result.session.rompUuid === '33333333-3333-4333-8333-333333333333')).toBe(false);
		expect(out.sessions.every((s) => s.meta.harness === 'codex' && s.meta.harnessLabel === 'Codex CLI')).toBe(true);
	});

	test('a Codex child thread whose parent rollout is gone is one session, marked mainMissing', async () => {
		const all = dropFolder(join(H, 'codex/daaain__claude-code-log/test/test_data/codex/sessions'));
		const out = await loadSessions(all.filter((f) => !f.path.includes('22222222')));
		const marked = out.sessions.filter((s) => s.meta.mainMissing).map((s) => s.result.session.rompUuid);
		expect(marked).toEqual(['33333333-3333-4333-8333-333333333333']);
		expect(out.sessions.length).toBe((await loadSessions(all)).sessions.length); // the parent's place, taken by its child
		const whole = await loadSessions(all);
		expect(whole.sessions.every((s) => s.meta.mainMissing === undefined)).toBe(true);
	});

	test('a mixed drop lists Claude Code and Codex sessions side by side', async () => {
		const claude = dropFolder(WORKTREES).slice(0, 3);
		const codex = dropFolder(join(H, 'codex/_authored__harness-corpus/sessions'));
		const out = await loadSessions([...claude, ...codex]);
		const kinds = new Set(out.sessions.map((s) => s.meta.harness ?? 'claude-code'));
		expect(kinds).toEqual(new Set(['claude-code', 'codex']));
		expect(out.sessions.filter((s) => s.meta.harness === 'codex')).toHaveLength(3);
	});

	test('a Gemini sub-agent file under chats/<parentId>/ joins its parent session', async () => {
		const out = await loadSessions(dropFolder(join(H, 'gemini/_authored__harness-corpus/tmp/calc-project/chats')));
		expect(out.sessions).toHaveLength(1);
		const s = out.sessions[0];
		expect(s.meta.harness).toBe('gemini');
		// The parent records no delegating call, so the child is kept, unattached, and said so.
		expect(s.unattached.map((u) => u.agentId)).toEqual(['a1b2c3d4-subagent-0001']);
		expect(s.issues.some((i) => i.kind === 'unattached-subagent')).toBe(true);
	});

	test('Strap states open with their forks as children', async () => {
		const out = await loadSessions([file('strap/_authored__harness-corpus/state-v0.3.json'), file('strap/_authored__harness-corpus/state-v0.4.json')]);
		expect(out.sessions).toHaveLength(2);
		const v4 = out.sessions.find((s) => s.files[0].path.endsWith('state-v0.4.json'))!;
		expect(Object.keys(v4.children)).toEqual(['fork_r1']);
		expect(v4.meta.startedAt).toBeNull();
		expect(v4.meta.harnessLabel).toBe('Strap');
	});

	test('a Gemini sub-agent recording joins the call that names its agentId', async () => {
		const L = (o: object) => JSON.stringify(o);
		const parent = [
			L({ sessionId: 'p1', projectHash: 'h', startTime: '2026-05-01T00:00:00.000Z' }),
			L({ id: 'u', timestamp: '2026-05-01T00:00:01.000Z', type: 'user', content: [{ text: 'investigate' }] }),
			L({ id: 'g', timestamp: '2026-05-01T00:00:02.000Z', type: 'gemini', content: '', toolCalls: [
				{ id: 'c0', name: 'read_file', args: { file_path: 'a' }, status: 'success', result: [] },
				{ id: 'c1', name: 'codebase_investigator', args: { objective: 'look' }, status: 'success', agentId: 'kid', result: [{ functionResponse: { id: 'c1', name: 'codebase_investigator', response: { output: 'found it' } } }] }
			] })
		].join('\n');
		const kid = [L({ sessionId: 'kid', projectHash: 'h', startTime: '2026-05-01T00:00:02.500Z', kind: 'subagent' }), L({ id: 'k', timestamp: '2026-05-01T00:00:03.000Z', type: 'gemini', content: 'inside' })].join('\n');
		const out = await loadSessions([
			{ path: 'chats/session-p1.jsonl', blob: new Blob([parent]) },
			{ path: 'chats/p1/kid.jsonl', blob: new Blob([kid]) }
		]);
		expect(out.sessions).toHaveLength(1);
		expect(out.sessions[0].children.c1?.result.session.rompUuid).toBe('kid');
		expect(out.sessions[0].unattached).toEqual([]);
	});

	test('a Codex child without spawn_call_id is tied by the parent spawn event naming its thread', async () => {
		const L = (t: string, type: string, payload: object) => JSON.stringify({ timestamp: t, type, payload });
		const parent = [
			L('2026-05-01T00:00:00.000Z', 'session_meta', { id: 'P', timestamp: '2026-05-01T00:00:00.000Z', source: 'cli' }),
			L('2026-05-01T00:00:01.000Z', 'event_msg', { type: 'user_message', message: 'two helpers' }),
			L('2026-05-01T00:00:02.000Z', 'response_item', { type: 'function_call', name: 'spawn_agent', arguments: '{"message":"one"}', call_id: 's1' }),
			L('2026-05-01T00:00:02.100Z', 'response_item', { type: 'function_call', name: 'spawn_agent', arguments: '{"message":"two"}', call_id: 's2' }),
			L('2026-05-01T00:00:02.200Z', 'event_msg', { type: 'collab_agent_spawn_end', call_id: 's2', new_thread_id: 'B', new_agent_nickname: 'Bea' }),
			L('2026-05-01T00:00:02.300Z', 'event_msg', { type: 'collab_agent_spawn_end', call_id: 's1', new_thread_id: 'A', new_agent_nickname: 'Al' })
		].join('\n');
		// B starts first, but the spawn events say which call started which thread.
		const child = (id: string, t: string, text: string) =>
			[L(t, 'session_meta', { id, timestamp: t, source: { subagent: { thread_spawn: { parent_thread_id: 'P', agent_nickname: text } } } }), L(t, 'event_msg', { type: 'agent_message', message: text })].join('\n');
		const out = await loadSessions([
			{ path: 'sessions/P.jsonl', blob: new Blob([parent]) },
			{ path: 'sessions/B.jsonl', blob: new Blob([child('B', '2026-05-01T00:00:03.000Z', 'from B')]) },
			{ path: 'sessions/A.jsonl', blob: new Blob([child('A', '2026-05-01T00:00:04.000Z', 'from A')]) }
		]);
		expect(out.sessions).toHaveLength(1);
		const c = out.sessions[0].children;
		expect(c.s1?.result.session.rompUuid).toBe('A');
		expect(c.s2?.result.session.rompUuid).toBe('B');
		expect(c.s2?.description).toBe('from B');
	});

	test('Strap events as JSONL and an export {events: [...]} open as Strap sessions', async () => {
		const ev = [{ type: 'event', from: 'user', kind: 'message', text: 'hello' }, { type: 'event', from: 'model', agent: 'a', kind: 'message', text: 'hi' }];
		const out = await loadSessions([
			{ path: 'x/events.jsonl', blob: new Blob([ev.map((e) => JSON.stringify(e)).join('\n')]) },
			{ path: 'x/export.json', blob: new Blob([JSON.stringify({ events: ev }, null, 2)]) }
		]);
		expect(out.unknown).toEqual([]);
		expect(out.sessions.map((s) => s.meta.harness)).toEqual(['strap', 'strap']);
		expect(out.sessions.every((s) => s.title === 'hello')).toBe(true);
	});

	test('a Codex rollout whose first line is longer than the classifier head is still recognised', async () => {
		const huge = 'x'.repeat(80 * 1024);
		const text = [
			JSON.stringify({ timestamp: '2026-05-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'long-1', timestamp: '2026-05-01T00:00:00.000Z', base_instructions: { text: huge } } }),
			JSON.stringify({ timestamp: '2026-05-01T00:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'hi' } })
		].join('\n');
		const out = await loadSessions([{ path: 'rollout.jsonl', blob: new Blob([text]) }]);
		expect(out.sessions.map((s) => [s.meta.harness, s.result.session.rompUuid])).toEqual([['codex', 'long-1']]);
	});

	test('a Cursor subagents/ folder attaches to the Agent call of the parent transcript', async () => {
		const out = await loadSessions(dropFolder(join(H, 'cursor/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/cursor/subagent')));
		expect(out.sessions).toHaveLength(1);
		const s = out.sessions[0];
		expect(s.meta.harness).toBe('cursor');
		const [call] = Object.keys(s.children);
		expect(s.children[call].result.session.turns.length).toBeGreaterThan(0);
	});

	test('other files of a dropped ~/.codex or ~/.gemini folder are named in their reason', async () => {
		const out = await loadSessions([
			{ path: '.codex/history.jsonl', blob: new Blob(['{"session_id":"s","ts":1,"text":"hi"}\n']) },
			{ path: '.gemini/tmp/p/logs.json', blob: new Blob([JSON.stringify([{ sessionId: 's', messageId: 0, timestamp: 't', type: 'user', message: 'hi' }])]) }
		]);
		expect(out.unknown.map((u) => u.reason)).toEqual([expect.stringMatching(/Codex CLI prompt history/), expect.stringMatching(/Gemini CLI prompt log/)]);
	});

	test('a pasted Strap state (pretty-printed JSON) opens like a dropped file', async () => {
		const out = await loadText('pasted', readFileSync(join(H, 'strap/_authored__harness-corpus/state-v0.3.json'), 'utf8'));
		expect(out.sessions.map((s) => s.meta.harness)).toEqual(['strap']);
		expect(Object.keys(out.sessions[0].children)).toEqual(['fork_01']);
	});
});
