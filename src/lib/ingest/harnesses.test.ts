import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadSessions } from './load-files.ts';
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

const OPENED = /^(codex|gemini|strap)\//;
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
			if (row.path.startsWith('pi/')) expect(reason).toMatch(/pi coding-agent/);
			else if (row.path.startsWith('cursor/') && !/off-format/.test(row.format)) expect(reason).toMatch(/Cursor/);
			else expect(reason.length).toBeGreaterThan(10);
		});
	}

	test('OpenCode storage files are named in the reason', async () => {
		const opencode = filesUnder(join(H, 'opencode')).filter((p) => p.endsWith('.json'));
		const out = await loadSessions(opencode.map((p) => ({ path: p.slice(H.length + 1), blob: new Blob([readFileSync(p)]) })));
		expect(out.sessions).toEqual([]);
		expect(out.unknown.every((u) => /OpenCode/.test(u.reason ?? ''))).toBe(true);
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
});
