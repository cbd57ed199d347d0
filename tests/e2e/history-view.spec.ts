// The history view: a dropped tree's history index, read back after a reload without the files.
// The start page says what is kept and opens the view; the view (its own link, filters in it)
// holds the usage dashboard, every session from the digests, and history search at its top; a
// cached session opens from the cache, another says which folder to drop (or, with the folder's
// handle kept, offers to reopen it). Two roots: each says where it came from, each clears alone.
// The old search scope names still answer; a phone's width scrolls only downwards.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, dropFolder, openApp, pickFolder } from './helpers';

let OUT = '';
// Big enough to be listed from the scan (only the opened session is cached), like history-search.spec.ts.
const SESSIONS = 40;

test.beforeAll(() => {
  OUT = mkdtempSync(join(tmpdir(), 'loupe-history-view-'));
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '3', '--sessions', String(SESSIONS), '--projects', '3', '--seed', '5', '--out', join(OUT, 'projects')]);
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '1', '--sessions', '6', '--projects', '1', '--seed', '9', '--out', join(OUT, 'laptop')]);
});

test.afterAll(() => {
  if (OUT) rmSync(OUT, { recursive: true, force: true });
});

type Found = { total: number; hits: { sessionKey: string; atomUuid: string }[] };
type UsageRow = { key: string; messages: number; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number };
type Api = { __loupe: { search: (q: string, o?: object) => Promise<Found>; historySearchIndex: () => Promise<{ listed: number; indexed: number }>; recentKeys: () => string[]; history: () => Promise<{ summarized?: boolean }>; historyUsage: (q: object) => Promise<{ rows: UsageRow[] }> } };
const search = (page: Page, q: string, scope: string) => page.evaluate(([q, scope]) => (window as unknown as Api).__loupe.search(q, { scope }), [q, scope] as const);

/** Drops (or picks) a tree and waits until its history index is ready. */
async function indexTree(page: Page, dir: string, how: 'drop' | 'pick' = 'pick'): Promise<number> {
  if (how === 'drop') {
    await dropFolder(page, dir);
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  } else await pickFolder(page, dir);
  const s = await page.evaluate(() => (window as unknown as Api).__loupe.historySearchIndex());
  expect(s.indexed).toBe(s.listed);
  return s.listed;
}

async function openHistory(page: Page): Promise<void> {
  await page.locator('[data-action="open-history"]').click();
  await expect(page.locator('[data-view="history"]')).toBeVisible();
  await expect(page.locator('[data-history-usage] [data-history-total]')).toBeVisible();
}

test('after a reload the start page opens the stored history: dashboard, sessions, search, a cached session', async ({ page }) => {
  await openApp(page);
  const listed = await indexTree(page, join(OUT, 'projects'), 'drop');
  expect(listed).toBe(SESSIONS);
  const before = await search(page, 'parser', 'loaded');
  expect(before.total).toBeGreaterThan(0);
  const cached = await page.evaluate(() => (window as unknown as Api).__loupe.recentKeys());
  // The stored history's summary is written once the entries are: what the reload's view reads.
  await page.waitForFunction(async () => (await (window as unknown as Api).__loupe.history()).summarized);
  const bySession = () => page.evaluate(async () => (await (window as unknown as Api).__loupe.historyUsage({ by: 'session', timezone: 'UTC' })).rows.map((r) => [r.key, r.messages, r.input, r.output, r.cacheRead, r.cacheWrite, r.costUsd.toFixed(9)]));
  const usageBefore = await bySession();
  expect(usageBefore.length).toBeGreaterThan(10);

  // A reload: nothing dropped, the files not read.
  await openApp(page);
  await expect(page.locator('[data-your-history]')).toHaveAttribute('data-your-history', String(SESSIONS));
  await expect(page.locator('[data-your-history]')).toContainText(/3 projects/);
  await openHistory(page);
  await expect(page).toHaveURL(/#history$/);
  await expect(page.locator('[data-history-sessions] tr[data-row-key]')).toHaveCount(SESSIONS);
  // The usage from the summary is the one the calls gave before the reload.
  expect(await bySession()).toEqual(usageBefore);
  // Its tables draw 10 rows first; "Show N" draws the rest.
  const sessionRows = page.locator('[data-table=history-sessions] tbody tr');
  await expect(sessionRows).toHaveCount(10);
  await page.locator('[data-table=history-sessions] [data-action=table-more]').click();
  await expect(sessionRows).toHaveCount(Math.min(usageBefore.length, 500));

  // Sorting and filtering go into the link, which opens the view as it was.
  await page.locator('[data-sort=cost]').click();
  await expect(page).toHaveURL(/#history&hs=cost/);
  const costs = await page.locator('[data-history-sessions] tr[data-row-key] td:nth-child(5)').allTextContents();
  const numbers = costs.map((c) => Number(c.replace(/[^0-9.]/g, '')));
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  await page.locator('[data-history-filter=project]').selectOption({ index: 1 });
  const inProject = await page.locator('[data-history-sessions] tr[data-row-key]').count();
  expect(inProject).toBeGreaterThan(0);
  expect(inProject).toBeLessThan(SESSIONS);
  const link = page.url();
  expect(link).toMatch(/hp=/);
  await openApp(page, link.slice(link.indexOf('/', 8)));
  await expect(page.locator('[data-view="history"] [data-history-sessions] tr[data-row-key]')).toHaveCount(inProject);
  await page.locator('[data-history-filter=project]').selectOption('');

  // History search at the top: Everything, from the stored index, the same hits as before the reload.
  await page.locator('[data-view="history"] input[aria-label="Search the transcript"]').fill('parser');
  await expect(page.locator('[data-search-count]')).toHaveText(new RegExp(`^${before.total.toLocaleString('en-US')} results`), { timeout: 15_000 });
  const after = await search(page, 'parser', 'everything');
  expect(after.total).toBe(before.total);
  expect(after.hits.map((h) => h.atomUuid).sort()).toEqual(before.hits.map((h) => h.atomUuid).sort());
  // The old names are aliases.
  expect((await search(page, 'parser', 'history')).total).toBe(before.total);
  await page.locator('[data-view="history"] input[aria-label="Search the transcript"]').fill('');

  // A cached session opens from the cache.
  const shownKeys = await page.locator('[data-open-session]').evaluateAll((els) => els.map((e) => e.getAttribute('data-open-session')!));
  const key = cached.find((k) => shownKeys.includes(k));
  expect(key).toBeTruthy();
  await page.locator(`[data-open-session="${key}"]`).click();
  await expect(page.locator(`main[data-session-key="${key}"]`)).toBeVisible();
  await expect(page.locator('[data-view="history"]')).toHaveCount(0);

  // Another, not cached: the folder kept from the drop is offered ("Reopen projects").
  await page.goBack();
  await expect(page.locator('[data-view="history"]')).toBeVisible();
  const other = (await page.locator('[data-open-session]').evaluateAll((els) => els.map((e) => e.getAttribute('data-open-session')!))).find((k) => !cached.includes(k));
  await page.locator(`[data-open-session="${other}"]`).click();
  await expect(page.locator('[data-action="reopen-folder"]')).toHaveText('Reopen projects');
});

test('without a kept folder, a session not cached names the folder to drop; two roots clear one at a time', async ({ page }) => {
  await openApp(page);
  await indexTree(page, join(OUT, 'projects'));
  await indexTree(page, join(OUT, 'laptop'));
  await openApp(page);
  await expect(page.locator('[data-your-history]')).toContainText(/from 2 folders/);
  await openHistory(page);
  await expect(page.locator('[data-history-sessions] tr[data-row-key]')).toHaveCount(SESSIONS + 6);
  await expect(page.locator('[data-history-sessions] [data-history-root=laptop]')).toHaveCount(6);
  const cached = await page.evaluate(() => (window as unknown as Api).__loupe.recentKeys());
  const other = (await page.locator('[data-open-session]').evaluateAll((els) => els.map((e) => e.getAttribute('data-open-session')!))).find((k) => !cached.includes(k));
  await page.locator(`[data-open-session="${other}"]`).click();
  await expect(page.locator('[data-history-notice]')).toHaveText(/drop the folder “(projects|laptop)”/);
  await expect(page.locator('[data-action="reopen-folder"]')).toHaveCount(0);

  await page.locator('[data-action="clear-root"][data-root=laptop]').click();
  await expect(page.locator('[data-history-sessions] tr[data-row-key]')).toHaveCount(SESSIONS);
  await expect(page.locator('[data-history-sessions] [data-history-root]')).toHaveCount(0);
  await openApp(page);
  await expect(page.locator('[data-your-history]')).toHaveAttribute('data-your-history', String(SESSIONS));
});

test('on a 390 px phone the history view scrolls only downwards, the list above the dashboard', async ({ page }) => {
  await openApp(page);
  await indexTree(page, join(OUT, 'projects'));
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '/#history');
  await expect(page.locator('[data-view="history"] [data-history-usage] [data-history-total]')).toBeVisible();
  await expect(page.locator('[data-history-sessions] tr[data-row-key]')).toHaveCount(SESSIONS);
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, view: document.querySelector('[data-view="history"]')!.scrollWidth, viewClient: document.querySelector('[data-view="history"]')!.clientWidth }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  expect(widths.view).toBeLessThanOrEqual(widths.viewClient);
  const list = await page.locator('[data-history-sessions]').boundingBox();
  const board = await page.locator('[data-history-usage]').boundingBox();
  expect(list!.y + list!.height).toBeLessThanOrEqual(board!.y + 1);
});
