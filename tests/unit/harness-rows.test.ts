// Sessions of other harnesses go through the unchanged chat and timeline projections: the rows
// they produce are the kinds Claude Code sessions produce (prompts, prose, thinking, terminal
// calls with exit status, file edits with diffs, plans, delegations with child rows,
// compactions, notices), and an untimed Strap state gets no invented times.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSessions } from '../../src/lib/ingest/load-files.ts';
import type { LoadedSession } from '../../src/lib/ingest/types.ts';
import { buildChatRows, type ChatRow } from '../../src/lib/view/chat/index.ts';
import { layoutTimeline } from '../../src/lib/view/timeline/layout.ts';

const H = resolve(__dirname, '../../fixtures/harnesses');
async function open(rel: string): Promise<LoadedSession> {
	const out = await loadSessions([{ path: rel, blob: new Blob([readFileSync(join(H, rel))]) }]);
	expect(out.sessions).toHaveLength(1);
	return out.sessions[0];
}
const rowsOf = (s: LoadedSession) => buildChatRows(s.result.session, s.children, { metadata: s.result.metadata });
/** Rows with tool groups opened up. */
function flat(rows: ChatRow[]): ChatRow[] {
	return rows.flatMap((r) => (r.kind === 'tool-group' ? [r, ...(r.entries as unknown as ChatRow[])] : [r]));
}
const tools = (rows: ChatRow[]) => flat(rows).filter((r): r is Extract<ChatRow, { kind: 'tool' }> => r.kind === 'tool');

describe('other harnesses through the chat rows', () => {
	test('Codex G1: every row kind, a failing command, an apply_patch diff over two files', async () => {
		const s = await open('codex/_authored__harness-corpus/sessions/2025/12/20/rollout-2025-12-20T10-00-00-bbbbbbbb-0000-7000-8000-000000000002.jsonl');
		const rows = rowsOf(s);
		const kinds = new Set(flat(rows).map((r) => r.kind));
		for (const k of ['user', 'assistant', 'thinking', 'tool', 'compaction', 'notice']) expect(kinds).toContain(k);
		const calls = tools(rows).map((r) => r.call);
		const pytest = calls.find((c) => c.command === 'pytest -q');
		expect(pytest?.status).toBe('error');
		expect(pytest?.renderer).toBe('bash');
		const patch = calls.find((c) => c.id === 'call_b02');
		expect(patch?.renderer).toBe('edit');
		expect(patch?.diffs?.map((d) => [d.path, d.added > 0])).toEqual([['calc/ops.py', true], ['tests/test_ops.py', true]]);
		expect(calls.find((c) => c.renderer === 'web-search')?.target).toBe('pytest import function from package module');
		// Injected context is a notice, not the user's prompt.
		const users = flat(rows).filter((r) => r.kind === 'user');
		expect(users).toHaveLength(3);
	});

	test('Codex: a sub-agent thread is a delegation with the child rows', async () => {
		const dir = 'codex/daaain__claude-code-log/test/test_data/codex/sessions/2026/01/03';
		const files = ['rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl', 'rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl'];
		const out = await loadSessions(files.map((f) => ({ path: `${dir}/${f}`, blob: new Blob([readFileSync(join(H, dir, f))]) })));
		const rows = rowsOf(out.sessions[0]);
		const del = flat(rows).find((r) => r.kind === 'delegation') as Extract<ChatRow, { kind: 'delegation' }>;
		expect(del.description).toBe('synthetic_researcher');
		expect(del.childRows?.some((r) => r.kind === 'assistant' && r.text === 'The fixtures are fully synthetic.')).toBe(true);
	});

	test('Strap v0.4: speaker labels, a fork delegation with child rows, a compaction, a notice; no times', async () => {
		const s = await open('strap/_authored__harness-corpus/state-v0.4.json');
		const rows = rowsOf(s);
		const user = flat(rows).find((r) => r.kind === 'user') as Extract<ChatRow, { kind: 'user' }>;
		expect(user.author.label).toBe('dana');
		const del = flat(rows).find((r) => r.kind === 'delegation') as Extract<ChatRow, { kind: 'delegation' }>;
		expect(del.agentType).toBe('reviewer');
		expect(del.result).toBe('Flush is correct; also handle a trailing \\r.');
		expect(del.childRows?.filter((r) => r.kind === 'assistant').map((r) => (r as { text: string }).text)).toEqual(['Checking the EOF path.', 'Looks right; add CRLF handling.']);
		expect(flat(rows).some((r) => r.kind === 'compaction')).toBe(true);
		expect(flat(rows).some((r) => r.kind === 'notice' && (r as { title: string }).title === 'strap \u00b7 checkpoint')).toBe(true);
		expect(rows.every((r) => r.ms === null)).toBe(true);
		const layout = layoutTimeline([{ key: s.key, label: s.title, session: s.result.session, children: s.children }]);
		expect(layout.bars).toEqual([]);
		expect(layout.untimed).toBeGreaterThan(0);
	});

	test('Gemini: thoughts, a shell call, tokens on the turn', async () => {
		const s = await open('gemini/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/gemini/large.json');
		const rows = rowsOf(s);
		expect(flat(rows).some((r) => r.kind === 'thinking')).toBe(true);
		expect(tools(rows).some((r) => r.call.renderer === 'bash')).toBe(true);
		const layout = layoutTimeline([{ key: s.key, label: s.title, session: s.result.session, children: s.children }]);
		expect(layout.bars.length).toBeGreaterThan(0);
		expect(layout.bars.every((b) => Number.isFinite(b.t0))).toBe(true);
	});
});
