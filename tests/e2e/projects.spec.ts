// Issue 9: a whole ~/.claude/projects tree. Generated fresh for the run (gen-project.mjs, small
// options: 3 projects, 40 sessions, ~19 MB), so it is big enough to be listed from the scan and
// built on open, and nothing large is committed.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, drawnFaces, openApp, pickFolder, stats, waitCached } from './helpers';
import { WORKSPACE_FONTS, faceKey } from '../../src/lib/components/app/font-warmup';

let TREE = '';
let SESSIONS_BY_PROJECT: Record<string, number> = {};

test.beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'loupe-projects-'));
  TREE = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '3', '--sessions', '40', '--projects', '3', '--seed', '2', '--out', TREE]);
  SESSIONS_BY_PROJECT = Object.fromEntries(readdirSync(TREE).map((p) => [p, readdirSync(join(TREE, p)).filter((f) => f.endsWith('.jsonl')).length]));
});

test.afterAll(() => {
  if (TREE) rmSync(join(TREE, '..'), { recursive: true, force: true });
});

const list = (page: Page) => page.getByRole('navigation', { name: 'Sessions' });
const entries = (page: Page) => list(page).locator('button[data-session-key]');
const main = (page: Page) => page.locator('main[data-session-key]');

test('a projects folder lists its projects first, then a project\'s sessions', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const s = await stats(page);
  expect(s.sessions).toBe(40);
  expect((s as unknown as { projects: number }).projects).toBe(3);
  const projects = page.getByRole('navigation', { name: 'Projects' }).locator('button[data-project]');
  await expect(projects).toHaveCount(3);
  await expect(page.getByRole('navigation', { name: 'Projects' })).toContainText('~/work/api');
  // The newest session is open, and the list marks it.
  await expect(entries(page).first()).toHaveAttribute('aria-current', 'true');
  await expect(entries(page).first()).toHaveAttribute('data-harness', 'claude-code');
  const api = projects.filter({ hasText: '~/work/api' });
  await api.click();
  const n = SESSIONS_BY_PROJECT['-home-dev-work-api'];
  await expect(page.locator('[data-session-count]')).toHaveAttribute('data-session-count', String(n));
  await expect(api).toHaveAttribute('aria-current', 'true');
});

test('the sessions after the open one are built ahead while the page is idle', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const keys = await entries(page).evaluateAll((els) => els.slice(0, 3).map((el) => el.getAttribute('data-session-key')));
  const built = () => page.evaluate(() => (window as unknown as { __loupe: { builtKeys: () => Promise<string[]> } }).__loupe.builtKeys());
  // Only the newest is built by the drop itself; the next two follow at idle.
  await expect.poll(built).toEqual(expect.arrayContaining(keys));
  // Opening the third builds nothing new for it (it is already built) and prefetches past it.
  await entries(page).nth(2).click();
  await expect(main(page)).toHaveAttribute('data-session-key', keys[2]!);
  const next = await entries(page).evaluateAll((els) => els.slice(3, 5).map((el) => el.getAttribute('data-session-key')));
  await expect.poll(built).toEqual(expect.arrayContaining(next));
});

test('the session list sorts, filters and opens sessions built on demand', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const count = page.locator('[data-session-count]');
  await expect(count).toHaveAttribute('data-session-count', '40');
  // Unbuilt sessions show the scan's estimate.
  await expect(entries(page).nth(1)).toContainText('~');

  const newestFirst = await entries(page).first().getAttribute('data-session-key');
  await page.getByLabel('Sort sessions').selectOption('largest');
  const sizes = await entries(page).evaluateAll((els) =>
    els.slice(0, 5).map((el) => {
      const m = /([\d.]+) (MB|kB)/.exec(el.textContent ?? '');
      return m ? Number(m[1]) * (m[2] === 'MB' ? 1e6 : 1e3) : 0;
    })
  );
  expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
  expect(await entries(page).first().getAttribute('data-session-key')).not.toBe(newestFirst);

  // Open the largest session from the list: it is built now, and its turn count is exact.
  const target = entries(page).first();
  const key = await target.getAttribute('data-session-key');
  await target.click();
  await expect(main(page)).toHaveAttribute('data-session-key', key ?? '');
  await expect(page.locator('[data-row-kind]').first()).toBeVisible();
  await expect(target).not.toContainText('~');

  // Keyboard: ↓ then Enter opens the next entry.
  await target.focus();
  await page.keyboard.press('ArrowDown');
  const next = await page.evaluate(() => document.activeElement?.getAttribute('data-session-key'));
  expect(next).toBeTruthy();
  await page.keyboard.press('Enter');
  await expect(main(page)).toHaveAttribute('data-session-key', next ?? '');

  // A title filter and a date range.
  const title = (await entries(page).first().locator('.title').textContent()) ?? '';
  const word = title.split(/\s+/).find((w) => w.length > 4) ?? title;
  await page.getByLabel('Filter sessions by title').fill(word);
  const filtered = Number(await count.getAttribute('data-session-count'));
  expect(filtered).toBeGreaterThan(0);
  for (const t of await entries(page).locator('.title').allTextContents()) expect(t.toLowerCase()).toContain(word.toLowerCase());
  await page.getByLabel('Filter sessions by title').fill('');
  await page.getByLabel('Sessions from').fill('2031-01-01');
  await expect(count).toHaveAttribute('data-session-count', '0');
  await expect(list(page)).toContainText('No session matches');
});

test('a session opened from the list reopens from the cache', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  await entries(page).nth(2).click();
  const key = await entries(page).nth(2).getAttribute('data-session-key');
  await expect(main(page)).toHaveAttribute('data-session-key', key ?? '');
  const before = await stats(page);
  await waitCached(page);
  await page.goto('/');
  const entry = page.locator(`[data-recent-session="${key}"]`);
  await expect(entry).toBeVisible();
  await entry.locator('button.open').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  expect(before.rows).toBeGreaterThan(0);
  expect((await stats(page)).rows).toBe(before.rows);
});

type Listed = { key: string; bytes: number; subagents: number; title: string };
const listed = (page: Page) => page.evaluate(() => (window as unknown as { __loupe: { list: () => Listed[] } }).__loupe.list());
const openKey = (page: Page, key: string) => page.evaluate((k) => (window as unknown as { __loupe: { open: (k: string) => Promise<void> } }).__loupe.open(k), key);

test('the timeline overview has one row per listed session; a click on a row opens it', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  await page.getByRole('button', { name: 'All sessions' }).click();
  const overview = page.locator('[data-overview-rows]');
  await expect(overview).toHaveAttribute('data-overview-rows', '40');
  // Virtualized: far fewer row elements than sessions once the panel is small.
  const rows = page.locator('[data-overview-row]');
  expect(await rows.count()).toBeLessThan(40);
  // Narrowing the list to one project narrows the overview too.
  await page.getByRole('navigation', { name: 'Projects' }).locator('button[data-project]').first().click();
  const n = Number(await page.locator('[data-session-count]').getAttribute('data-session-count'));
  await expect(overview).toHaveAttribute('data-overview-rows', String(n));
  const row = rows.nth(1);
  const key = await row.getAttribute('data-overview-row');
  await row.click();
  await expect(main(page)).toHaveAttribute('data-session-key', key ?? '');
  await expect(row).toHaveAttribute('aria-current', 'true');
  // Zoomed out over every gap, and zoomed in far: no axis label overlaps another.
  const labelsApart = async () => {
    const xs = await page.locator('.overview .axis > .mark').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]));
    expect(xs.length).toBeGreaterThan(0);
    const sorted = xs.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i][0]).toBeGreaterThanOrEqual(sorted[i - 1][1]);
  };
  await page.getByRole('navigation', { name: 'Projects' }).getByRole('button', { name: /^All/ }).click();
  await labelsApart();
  for (let i = 0; i < 6; i++) await page.getByRole('button', { name: 'Zoom the overview in' }).click();
  await labelsApart();
});

test('a session with subagents: one timeline lane per subagent, its bar from the spawning call', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const withSubs = (await listed(page)).filter((e) => e.subagents > 0).sort((a, b) => b.subagents - a.subagents)[0];
  expect(withSubs).toBeTruthy();
  await openKey(page, withSubs.key);
  await expect(main(page)).toHaveAttribute('data-session-key', withSubs.key);
  const lanes = page.locator('[data-lane-label]');
  await expect(lanes).toHaveCount(1 + withSubs.subagents);
  await expect(lanes.nth(1)).toContainText('↳');
  const agentBars = page.locator('rect[data-segment-id^="agent:"]');
  await expect(agentBars).toHaveCount(withSubs.subagents);
  // Each subagent bar sits on its own row, below the main lane.
  const ys = await agentBars.evaluateAll((els) => els.map((e) => Number(e.getAttribute('y'))));
  expect(new Set(ys).size).toBe(ys.length);
  // Lane labels are not cut off at the left edge.
  const plotLeft = await page.locator('.timeline .labels').evaluate((el) => el.getBoundingClientRect().left);
  for (const left of await lanes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().left))) expect(left).toBeGreaterThanOrEqual(plotLeft);
});

test('the timeline panel is bounded, resizable and collapsible; the chat stays on screen', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const body = page.locator('.panel-body');
  const chat = page.locator('main .chat-viewport');
  const viewport = page.viewportSize()?.height ?? 720;
  expect((await body.boundingBox())?.height ?? 0).toBeLessThanOrEqual(viewport * 0.6);
  const handle = page.getByRole('separator', { name: 'Resize the timeline' });
  const before = Number(await handle.getAttribute('aria-valuenow'));
  await handle.focus();
  await page.keyboard.press('ArrowDown');
  await expect(handle).toHaveAttribute('aria-valuenow', String(before + 24));
  for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowDown');
  expect(Number(await handle.getAttribute('aria-valuenow'))).toBeLessThanOrEqual(Math.round(viewport * 0.6));
  const chatBox = await chat.boundingBox();
  expect(chatBox && chatBox.y + 40 < viewport).toBe(true);
  await page.getByRole('button', { name: /Timeline/ }).first().click();
  await expect(page.locator('[data-timeline-panel]')).toHaveAttribute('data-timeline-panel', 'collapsed');
  await expect(body).toHaveCount(0);
});

test('dropping the same tree again lists it from the scan index, without reading the files', async ({ page }) => {
  type Hooks = { __loupe: { scansKept: () => number; scanStats: () => Promise<{ files: number; reused: number }> } };
  await openApp(page);
  await pickFolder(page, TREE);
  await page.waitForFunction(() => (window as unknown as Hooks).__loupe.scansKept() > 0);
  const first = await page.evaluate(() => (window as unknown as Hooks).__loupe.scanStats());
  expect(first.reused).toBe(0);
  await page.goto('/');
  await pickFolder(page, TREE);
  const again = await page.evaluate(() => (window as unknown as Hooks).__loupe.scanStats());
  expect(again.files).toBe(first.files);
  expect(again.reused).toBe(first.files);
  expect((await stats(page)).sessions).toBe(40);
  await expect(entries(page).first()).toHaveAttribute('aria-current', 'true');
});

type SearchApi = { __loupe: { search: (q: string, o?: object) => Promise<{ total: number; hits: { sessionKey: string; atomUuid: string }[]; pooled: number }>; builtKeys: () => Promise<string[]> } };

test('a search across the tree builds the listed sessions in the search workers: same hits cold and cached, a hit opens its session', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  const search = (q: string) => page.evaluate((q) => (window as unknown as SearchApi).__loupe.search(q, { scope: 'loaded' }), q);
  // Cold: the workers build each listed session; again: each comes from the worker that kept its text.
  const cold = await search('thread');
  const again = await search('thread');
  // All but the few sessions the engine had built (the open one, the idle prefetch) went to the workers.
  expect(cold.pooled).toBeGreaterThanOrEqual(30);
  expect(cold.total).toBeGreaterThan(0);
  expect(again.total).toBe(cold.total);
  expect(again.hits).toEqual(cold.hits);
  // The field shows the same count; a hit in a session the engine never built opens it and lands.
  await page.locator('input[type=search]').fill('thread');
  await page.getByLabel('Search scope').selectOption('everything');
  await expect(page.locator('[data-search-count]')).toHaveText(new RegExp(`^${cold.total.toLocaleString('en-US')} results`));
  const built = await page.evaluate(() => (window as unknown as SearchApi).__loupe.builtKeys());
  // Everything lists the hits grouped by project (not in list order): the first drawn hit of a
  // session the engine never built, a page of 40 at a time.
  let target: { sessionKey: string; atomUuid: string } | undefined;
  for (let page_ = 0; !target && page_ < 25; page_++) {
    if (page_) await page.getByRole('button', { name: /^Show more hits/ }).click();
    const drawn = await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => ({ sessionKey: e.getAttribute('data-session-key')!, atomUuid: e.getAttribute('data-atom-uuid')! })));
    target = drawn.find((h) => !built.includes(h.sessionKey));
  }
  if (!target) throw new Error('no drawn hit in a session not built');
  const hit = page.locator(`[data-search-hit][data-session-key="${target.sessionKey}"][data-atom-uuid="${target.atomUuid}"]`);
  await hit.scrollIntoViewIfNeeded();
  await hit.click();
  await expect(main(page)).toHaveAttribute('data-session-key', target.sessionKey);
  // The landing highlights the row holding the hit's atom.
  await expect(page.locator('main .row.highlight')).toBeVisible();
});

test('every font face the workspace draws for a dropped tree is resolved ahead (font-warmup.ts)', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  await expect(entries(page).first()).toBeVisible();
  await expect(main(page)).toBeVisible();
  const warmed = new Set(WORKSPACE_FONTS.map(faceKey));
  const missing = (await drawnFaces(page)).filter((f) => !warmed.has(f));
  expect(missing).toEqual([]);
});
