// Issue 3: every way in goes through the one load funnel and ends in html[data-state].
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, ROOT, filesUnder, openApp, pickFiles, pickFolder, scrollToRow, stats, waitCached } from './helpers';

const SESSION = join(CORPUS, 'claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl');
const PROJECT = join(CORPUS, 'claude-code-log/test/test_data/real_projects/-experiments-worktrees');

test('a single transcript opens into turns and chat rows', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [SESSION]);
  const s = await stats(page);
  expect(s.sessions).toBe(1);
  expect(s.turns).toBeGreaterThan(0);
  expect(s.rows).toBeGreaterThan(0);
  await expect(page.locator('[data-row-kind=user]').first()).toBeVisible();
  await expect(page).toHaveTitle(/ · Loupe$/);
});

test('a project folder with subagents and a state log: subagent rows sit under their Agent call', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, join(ROOT, 'static/sample'));
  const s = await stats(page);
  expect(s.sessions).toBe(1);
  const delegation = await scrollToRow(page, '[data-row-kind=delegation]');
  await expect(delegation).toBeVisible();
  // The child's rows are not in the parent's flow until the delegation is opened.
  await expect(delegation.locator('[data-row-kind]')).toHaveCount(0);
  await delegation.locator('button[aria-expanded]').first().click();
  await expect(delegation.locator('[data-row-kind]').first()).toBeVisible();
});

test('the worktree project folder groups its subagents with the session', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, PROJECT);
  expect((await stats(page)).sessions).toBe(1);
  await expect(await scrollToRow(page, '[data-row-kind=delegation]')).toBeAttached();
});

test('every corpus file opens, none is an error', async ({ page }) => {
  await openApp(page);
  const files = filesUnder(CORPUS, /\.jsonl?$/).filter((f) => !f.includes('/subagents/') && !f.endsWith('.meta.json'));
  expect(files.length).toBeGreaterThan(8);
  for (const file of files) {
    await pickFiles(page, [file]);
    await expect(page.locator('[role=alert]')).toHaveCount(0);
  }
});

test('a binary file gets a message and the open session stays', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [SESSION]);
  const before = await stats(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'core.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7, 8, 9])
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'error');
  await expect(page.getByRole('alert')).toContainText('core.bin');
  expect((await stats(page)).turns).toBe(before.turns);
  await expect(page.locator('[data-row-kind]').first()).toBeVisible();
});

test('an empty file and a JSON document that is not JSONL each get a clear message', async ({ page }) => {
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({ name: 'empty.jsonl', mimeType: 'application/jsonl', buffer: Buffer.alloc(0) });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'error');
  await expect(page.getByRole('alert')).toContainText('empty.jsonl');
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'doc.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ hello: 'world', nested: { a: [1, 2, 3] } }, null, 2))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'error');
  await expect(page.getByRole('alert')).toContainText('doc.json');
});

test('a broken line is an issue and the rest of the file loads', async ({ page }) => {
  await openApp(page);
  const good = '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","timestamp":"2026-07-01T10:00:00.000Z","promptSource":"typed","message":{"role":"user","content":"hello there"}}';
  const reply = '{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","timestamp":"2026-07-01T10:00:05.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"General Kenobi"}],"stop_reason":"end_turn"}}';
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'broken.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from([good, '{"type":"user", this is not json', reply].join('\n'))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByText('General Kenobi')).toBeVisible();
  const issues = page.locator('details.issues');
  await expect(issues).toContainText('1 issue');
  await issues.locator('summary').click();
  await expect(issues).toContainText('broken.jsonl:2');
});

test('reload, then reopen the session from Recent sessions', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [SESSION]);
  const before = await stats(page);
  await waitCached(page);
  await page.goto('/');
  const entry = page.locator('[data-recent-session]').first();
  await expect(entry).toBeVisible();
  await entry.locator('button.open').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  const after = await stats(page);
  expect(after.turns).toBe(before.turns);
  expect(after.atoms).toBe(before.atoms);
});

type Hooks = { __loupe: { rows: (a: number, b: number) => Promise<unknown[]>; indexWrite: () => unknown; restored: () => boolean; search: (q: string) => Promise<{ total: number }> } };

test('a session reopened from Recent sessions is shown from its persisted row index: same rows, search still finds', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [SESSION]);
  const before = await stats(page);
  const rowsBefore = await page.evaluate((n) => (window as unknown as Hooks).__loupe.rows(0, n), before.rows);
  const found = await page.evaluate(() => (window as unknown as Hooks).__loupe.search('timeline component'));
  expect(found.total).toBeGreaterThan(0);
  await waitCached(page);
  // The worker persists the shown session's row index after caching it.
  await page.waitForFunction(() => !!(window as unknown as Hooks).__loupe.indexWrite());
  await page.goto('/');
  await page.locator('[data-recent-session]').first().locator('button.open').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  expect(await page.evaluate(() => (window as unknown as Hooks).__loupe.restored())).toBe(true);
  const after = await stats(page);
  expect([after.turns, after.atoms, after.rows, after.issues]).toEqual([before.turns, before.atoms, before.rows, before.issues]);
  expect(await page.evaluate((n) => (window as unknown as Hooks).__loupe.rows(0, n), after.rows)).toEqual(rowsBefore);
  await expect(page.locator('[data-row-kind=user]').first()).toBeVisible();
  // Search needs the model: it waits for the background rebuild, through the field as a person types.
  await page.locator('input[type=search]').fill('timeline component');
  await expect(page.locator('[data-search-count]')).toHaveText(new RegExp(`^${found.total} result`));
});

/** Cuts the network once the service worker controls the page (it must, before the network goes away). */
async function offlineUnderServiceWorker(page: Page, context: BrowserContext): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);
  await context.setOffline(true);
}

test('offline after a first visit: the app and a cached session still load', async ({ page, context }) => {
  await openApp(page);
  await pickFiles(page, [SESSION]);
  await waitCached(page);
  await offlineUnderServiceWorker(page, context);
  await page.goto('/');
  const entry = page.locator('[data-recent-session]').first();
  await expect(entry).toBeVisible();
  await entry.locator('button.open').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  expect((await stats(page)).turns).toBeGreaterThan(0);
});

test("offline, the sample's Markdown renders in full: the chunks the Markdown worker imports are precached", async ({ page, context }) => {
  await page.goto('/');
  await offlineUnderServiceWorker(page, context);
  await page.goto('/?sample');
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('main .md').first()).toBeAttached();
  // A block with highlighted code waits for highlight.js, a chunk the worker imports lazily.
  await expect(page.locator('main [data-md=plain]')).toHaveCount(0);
  await expect(page.locator('main .md code[class*="language-"] [class^="hljs-"]').first()).toBeAttached();
});

test('the sample session opens from ?sample', async ({ page }) => {
  await page.goto('/?sample');
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  expect((await stats(page)).turns).toBeGreaterThan(1);
});

test('a folder of several projects gives a session list; picking one opens it', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, join(CORPUS, 'claude-code-log/test/test_data/real_projects'));
  const n = (await stats(page)).sessions;
  expect(n).toBeGreaterThan(2);
  const entries = page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key]');
  await expect(entries).toHaveCount(n);
  const main = page.locator('main[data-session-key]');
  const first = await main.getAttribute('data-session-key');
  await expect(entries.first()).toHaveAttribute('aria-current', 'true');
  await entries.nth(1).click();
  await expect(main).not.toHaveAttribute('data-session-key', first ?? '');
  await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('[data-row-kind]').first()).toBeVisible();
});

test('dropping files on the page loads them', async ({ page }) => {
  await openApp(page);
  const text = readFileSync(SESSION, 'utf8');
  const dt = await page.evaluateHandle((body) => {
    const dt = new DataTransfer();
    dt.items.add(new File([body], 'dropped.jsonl', { type: 'application/jsonl' }));
    return dt;
  }, text);
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  expect((await stats(page)).turns).toBeGreaterThan(0);
});

test('pasted JSONL opens like a file', async ({ page }) => {
  await openApp(page);
  await page.getByText('Paste JSONL').click();
  await page.getByLabel('Transcript JSONL').fill(readFileSync(SESSION, 'utf8'));
  await page.getByRole('button', { name: 'Open pasted text' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  expect((await stats(page)).turns).toBeGreaterThan(0);
});
