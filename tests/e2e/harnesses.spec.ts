// Issue 13: sessions of other harnesses (Codex CLI, Strap, Gemini CLI) open through the real file
// input and draw with the same row kinds as Claude Code: prompts, replies, thinking, tool work,
// an apply_patch diff, delegations whose child rows open, compactions and notices.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS, ROOT, openApp, pickFiles, pickFolder, scrollToRow, stats, waitCached } from './helpers';

const H = join(ROOT, 'fixtures/harnesses');
const CODEX_G1 = join(H, 'codex/_authored__harness-corpus/sessions/2025/12/20/rollout-2025-12-20T10-00-00-bbbbbbbb-0000-7000-8000-000000000002.jsonl');
const SPAWN = join(H, 'codex/daaain__claude-code-log/test/test_data/codex/sessions/2026/01/03');
const CODEX_PARENT = join(SPAWN, 'rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl');
const CODEX_CHILD = join(SPAWN, 'rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl');
const STRAP = (v: string) => join(H, `strap/_authored__harness-corpus/state-${v}.json`);
const GEMINI = join(H, 'gemini/_authored__harness-corpus/tmp/calc-project/chats/session-2026-04-20T09-00-d4c1f0aa.jsonl');
const GEMINI_LEGACY = join(H, 'gemini/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/gemini/large.json');
const PI = join(H, 'pi/kenn-io__agentsview/internal/parser/testdata/pi/session.jsonl');
const CURSOR = join(H, 'cursor/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/cursor/large.jsonl');
const CLAUDE = join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl');

async function harnessOf(page: Page): Promise<string | null> {
	return ((await stats(page)) as unknown as { harness: string | null }).harness;
}

/** Expands a delegation and returns it once its child rows are drawn. */
async function openDelegation(page: Page) {
	const delegation = await scrollToRow(page, '[data-row-kind=delegation]');
	await expect(delegation.locator('[data-row-kind]')).toHaveCount(0);
	await delegation.locator('button[aria-expanded]').first().click();
	await expect(delegation.locator('[data-row-kind]').first()).toBeVisible();
	return delegation;
}

test('a Codex rollout: the harness is named, every row kind draws, apply_patch shows a diff', async ({ page }) => {
	await openApp(page);
	await pickFiles(page, [CODEX_G1]);
	expect(await harnessOf(page)).toBe('codex');
	await expect(page.locator('header [data-harness=codex]')).toHaveText('Codex CLI');
	for (const kind of ['user', 'assistant', 'thinking', 'tool-group', 'compaction', 'notice']) {
		await scrollToRow(page, `[data-row-kind=${kind}]`);
		await expect(page.locator(`[data-row-kind=${kind}]`).first()).toBeAttached();
	}
	// The patch sits in a tool group: open groups, then calls, until a file diff shows.
	const closed = page.locator('[data-row-kind=tool-group] button[aria-expanded="false"], [data-row-kind=tool] button[aria-expanded="false"]');
	await scrollToRow(page, '[data-row-kind=tool-group]');
	for (let i = 0; i < 20 && !(await page.locator('.file-head', { hasText: 'tests/test_ops.py' }).count()); i++) {
		if (!(await closed.count())) break;
		await closed.first().click();
	}
	const file = page.locator('.file-head', { hasText: 'tests/test_ops.py' }).first();
	await expect(file).toBeVisible();
});

test('a Codex sub-agent thread is a delegation whose child rows open', async ({ page }) => {
	await openApp(page);
	await pickFiles(page, [CODEX_PARENT, CODEX_CHILD]);
	expect((await stats(page)).sessions).toBe(1);
	const delegation = await openDelegation(page);
	await expect(delegation.getByText('The fixtures are fully synthetic.')).toBeVisible();
});

for (const v of ['v0.3', 'v0.4']) {
	test(`a Strap ${v} state: the fork's child rows open, speakers are named`, async ({ page }) => {
		await openApp(page);
		await pickFiles(page, [STRAP(v)]);
		expect(await harnessOf(page)).toBe('strap');
		const delegation = await openDelegation(page);
		const childText = v === 'v0.3' ? 'Root cause: no flush at EOF.' : 'Looks right; add CRLF handling.';
		await expect(delegation.getByText(childText)).toBeVisible();
		await expect(page.locator('[data-row-kind=compaction]').first()).toBeAttached();
		if (v === 'v0.4') await expect(page.locator('[data-row-kind=user]').first()).toContainText('dana');
		// No times in a Strap state: the timeline says why it is empty instead of inventing any.
		await expect(page.locator('.timeline .empty')).toContainText('records no timestamps');
	});
}

test('Gemini CLI sessions (JSONL and legacy JSON) open with their prompts, thoughts and calls', async ({ page }) => {
	await openApp(page);
	await pickFiles(page, [GEMINI]);
	expect(await harnessOf(page)).toBe('gemini');
	// Compression keeps the earlier prompts above the compaction; the prompt after it follows.
	await expect(page.locator('[data-row-kind=user]').first()).toContainText('Why does divide(1, 0) crash?');
	await expect(page.locator('[data-row-kind=user]', { hasText: 'Add a guard that raises ValueError.' })).toBeAttached();
	await expect(page.locator('[data-row-kind=compaction]').first()).toBeAttached();
	await expect(page.locator('[data-row-kind=error]').first()).toBeAttached();
	await pickFiles(page, [GEMINI_LEGACY]);
	expect(await harnessOf(page)).toBe('gemini');
	await expect(page.locator('[data-row-kind=thinking]').first()).toBeAttached();
	await expect(page.locator('[data-row-kind=tool-group], [data-row-kind=tool]').first()).toBeAttached();
});

test('a mixed drop lists Claude Code and Codex sessions, each entry carrying its harness', async ({ page }) => {
	await openApp(page);
	await pickFiles(page, [CLAUDE, CODEX_G1]);
	await expect(page.locator('nav.sessions [data-harness=claude-code]')).toHaveCount(1);
	await expect(page.locator('nav.sessions [data-harness=codex]')).toHaveCount(1);
	await page.locator('nav.sessions [data-harness=codex]').click();
	await expect.poll(() => harnessOf(page)).toBe('codex');
});

test('pi and Cursor sessions open with their own harness named', async ({ page }) => {
	await openApp(page);
	await pickFiles(page, [PI]);
	expect(await harnessOf(page)).toBe('pi');
	await expect(page.locator('[data-row-kind=user]').first()).toContainText('Fix the login bug');
	await expect(page.locator('[data-row-kind=compaction]').first()).toBeAttached();
	await pickFiles(page, [CURSOR]);
	expect(await harnessOf(page)).toBe('cursor');
	await expect(page.locator('[data-row-kind=user]').first()).toContainText('What files are here?');
	await expect(page.locator('header [data-harness=cursor]')).toHaveText('Cursor');
});

test('an OpenCode storage folder lists its sessions, each opening with its prompt and tool call', async ({ page }) => {
	await openApp(page);
	await pickFolder(page, join(H, 'opencode/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/opencode/storage_v2'));
	await expect(page.locator('nav.sessions [data-harness=opencode]')).toHaveCount(2);
	await page.locator('nav.sessions [data-harness=opencode]', { hasText: 'OpenCode Small' }).click();
	await expect(page.locator('[data-row-kind=user]').first()).toContainText('Hello');
	await expect(page.locator('[data-row-kind=tool-group], [data-row-kind=tool]').first()).toBeAttached();
	expect(await harnessOf(page)).toBe('opencode');
});

test('a Strap state and a Codex thread with its child reopen from Recent sessions with the same rows', async ({ page }) => {
	for (const files of [[STRAP('v0.4')], [CODEX_PARENT, CODEX_CHILD]]) {
		await openApp(page);
		await pickFiles(page, files);
		const before = await stats(page);
		await waitCached(page);
		await page.goto('/');
		await page.locator('[data-recent-session]').first().locator('button.open').click();
		await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
		const after = await stats(page);
		expect([after.atoms, after.rows, (after as unknown as { harness: string }).harness]).toEqual([before.atoms, before.rows, (before as unknown as { harness: string }).harness]);
		await openDelegation(page);
	}
});

/**
 * What a delegation's child rows say: each row's kind, with the text of prompts and replies (the
 * text only: times and token counts are what a Strap export leaves out).
 */
async function childRowsOf(delegation: ReturnType<Page['locator']>): Promise<string[]> {
	// Markdown is drawn as plain text until its renderer has loaded and upgraded the block: read
	// the rows once none is plain, or the two sides may be read at different stages (a CI flake).
	await expect(delegation.locator('.children [data-md=plain]')).toHaveCount(0);
	return delegation.locator('.children [data-row-kind]').evaluateAll((els) =>
		els.map((e) => {
			const kind = e.getAttribute('data-row-kind');
			const body = kind === 'assistant' ? e.querySelector('.prose') : kind === 'user' ? e.querySelector('.bubble .text, .bubble .command') : null;
			return body ? `${kind}: ${(body.textContent ?? '').replace(/\s+/g, ' ').trim()}` : String(kind);
		})
	);
}

test('a Claude Code session exported as Strap loads back through the file input with the same subagent rows', async ({ page }) => {
	await openApp(page);
	await pickFolder(page, join(CORPUS, 'claude-code-log/test/test_data/real_projects/-src-experiments-claude_p'));
	expect(await harnessOf(page)).toBe('claude-code');
	const before = await childRowsOf(await openDelegation(page));
	expect(before.filter((k) => k.startsWith('assistant: ')).length).toBeGreaterThan(5);
	expect(before).toContain('tool-group');

	const text = await page.evaluate(() => (window as unknown as { __loupe: { exportText: (f: string, o: object) => Promise<string> } }).__loupe.exportText('strap', { redact: false }));
	await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({ name: 'claude_p.strap.json', mimeType: 'application/json', buffer: Buffer.from(text) });
	await expect.poll(() => harnessOf(page)).toBe('strap');
	await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
	const after = await childRowsOf(await openDelegation(page));
	// The session has no thinking, images or system records, so nothing is left out: the same rows.
	expect(after).toEqual(before);
});

test('a folder of 30 Codex rollouts is listed from the scan and a rollout opens from the list', async ({ page }) => {
	// ~/.codex/sessions in miniature: one authored rollout made into 30, one per day folder.
	const root = mkdtempSync(join(tmpdir(), 'loupe-codex-'));
	const sessions = join(root, 'sessions');
	const sample = readFileSync(join(H, 'codex/_authored__harness-corpus/sessions/2026/04/10/rollout-2026-04-10T08-00-00-cccccccc-0000-7000-8000-000000000003.jsonl'), 'utf8');
	for (let i = 0; i < 30; i++) {
		const day = new Date(Date.UTC(2026, 4, 1 + i)).toISOString().slice(0, 10);
		const id = `cccccccc-0000-7000-8000-${String(i).padStart(12, '0')}`;
		const dir = join(sessions, ...day.split('-'));
		mkdirSync(dir, { recursive: true });
		const body = sample.replaceAll('cccccccc-0000-7000-8000-000000000003', id).replaceAll('2026-04-10', day).replaceAll('What does divide() do on zero?', `Rollout ${i} asks what divide() does on zero?`);
		writeFileSync(join(dir, `rollout-${day}T08-00-00-${id}.jsonl`), body);
	}
	try {
		await openApp(page);
		await pickFolder(page, sessions);
		const entries = page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key]');
		await expect(page.locator('[data-session-count]')).toHaveAttribute('data-session-count', '30');
		expect((await stats(page)).sessions).toBe(30);
		await expect(page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key][data-harness=codex]').first()).toBeVisible();
		expect(await entries.evaluateAll((els) => els.every((el) => el.getAttribute('data-harness') === 'codex'))).toBe(true);
		// Newest first: the list opens on rollout 29; rollout 26 is built only when clicked.
		const target = entries.filter({ hasText: 'Rollout 26 asks' });
		const key = await target.getAttribute('data-session-key');
		// Listed from the scan, not parsed whole: it is built only when opened. (Its turn count may be
		// exact before that: the history index reads every listed session in the background.)
		const built = () => page.evaluate(() => (window as unknown as { __loupe: { builtKeys: () => Promise<string[]> } }).__loupe.builtKeys());
		expect(await built()).not.toContain(key);
		await target.click();
		await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', key ?? '');
		await expect(page.locator('[data-row-kind=user]', { hasText: 'Rollout 26 asks' }).first()).toBeVisible();
		expect(await built()).toContain(key);
		await expect(target).not.toContainText('~');
		expect(await harnessOf(page)).toBe('codex');
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
});
