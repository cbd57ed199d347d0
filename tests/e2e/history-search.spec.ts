// Issue 23: history search. A generated projects tree (big enough to be listed from the scan, its
// sessions built on demand) is indexed by the history index (search index included); the history scope then answers what
// the scan over every listed session answers, the facets narrow it, and a hit inside a subagent
// of a session never opened opens that session at the atom with the match marked.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, openApp, pickFolder } from './helpers';

let TREE = '';

test.beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'loupe-history-search-'));
  TREE = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '3', '--sessions', '40', '--projects', '3', '--seed', '2', '--out', TREE]);
});

test.afterAll(() => {
  if (TREE) rmSync(join(TREE, '..'), { recursive: true, force: true });
});

interface Found {
  total: number;
  hits: { sessionKey: string; atomUuid: string }[];
}
interface Status {
  listed: number;
  indexed: number;
  indexBytes: number;
  treeBytes: number;
}
type Api = {
  __loupe: {
    search: (q: string, o?: object) => Promise<Found>;
    historySearchIndex: () => Promise<Status>;
    builtKeys: () => Promise<string[]>;
    prepareSearch: (scope?: string) => Promise<{ warmed?: number }>;
    list: () => { key: string; project: string }[];
  };
};
const search = (page: Page, q: string, o: object) => page.evaluate(([q, o]) => (window as unknown as Api).__loupe.search(q as string, o as object), [q, o] as const);
const count = (page: Page) => page.locator('[data-search-count]');

async function indexed(page: Page): Promise<Status> {
  await openApp(page);
  await pickFolder(page, TREE);
  return page.evaluate(() => (window as unknown as Api).__loupe.historySearchIndex());
}

test('the history scope answers what the scan answers, from the index; the facets narrow it', async ({ page }) => {
  const status = await indexed(page);
  expect(status).toMatchObject({ listed: 40, indexed: 40 });
  expect(status.indexBytes / status.treeBytes).toBeLessThan(0.25);
  for (const [q, o] of [
    ['parser', {}],
    ['timeout|truncated \\w+ line', { regex: true }],
    ['CAFÉ', { ignoreDiacritics: true }]
  ] as const) {
    const scan = await search(page, q, { ...o, scope: 'loaded' });
    const history = await search(page, q, { ...o, scope: 'history' });
    expect(scan.total).toBeGreaterThan(0);
    expect(history).toMatchObject({ total: scan.total, hits: scan.hits });
  }

  // The field: history scope, a line saying how much is indexed, hits grouped by project.
  const q = 'fixture';
  const all = await search(page, q, { scope: 'history' });
  await page.locator('input[type=search]').fill(q);
  await page.getByLabel('Search scope').selectOption('everything');
  await expect(count(page)).toHaveText(new RegExp(`^${all.total.toLocaleString('en-US')} results`));
  await expect(page.locator('[data-search-index-line]')).toHaveText(/All 40 sessions indexed/);
  const projectOf = new Map((await page.evaluate(() => (window as unknown as Api).__loupe.list())).map((e) => [e.key, e.project]));
  const projects = new Set(all.hits.map((h) => projectOf.get(h.sessionKey)));
  expect(projects.size).toBe(3);
  // The hits drawn come project by project (never back to one left), each project headed once.
  await page.getByRole('button', { name: /^Show more hits/ }).click();
  const shown = (await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-key')))).map((k) => projectOf.get(k!));
  const runs = shown.filter((p, i) => i === 0 || p !== shown[i - 1]);
  expect(new Set(runs).size).toBe(runs.length);
  await expect(page.locator('[data-search-project]')).toHaveCount(runs.length);

  // Project facet: exactly that project's matching fields.
  const project = [...projects][1]!;
  await page.locator('[data-search-facet=project]').selectOption(project);
  const inProject = all.hits.filter((h) => projectOf.get(h.sessionKey) === project).length;
  await expect(count(page)).toHaveText(new RegExp(`^${inProject.toLocaleString('en-US')} results`));
  for (const key of await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-key')))) expect(projectOf.get(key!)).toBe(project);

  // Role facet: prompts only; then failed calls only (every hit a failed tool call's output).
  await page.locator('[data-search-facet=project]').selectOption('');
  // (Polled: the list is replaced when the narrowed query's first batch arrives.)
  const kinds = () => page.locator('[data-search-hit] .kind').allTextContents();
  await page.locator('[data-search-kind=prompt]').click();
  await expect.poll(async () => (await kinds()).length > 0 && (await kinds()).every((k) => k === 'prompt')).toBe(true);
  await page.locator('[data-search-kind=prompt]').click();
  await page.locator('input[type=search]').fill('the');
  await page.locator('[data-search-failed]').click();
  await expect.poll(async () => (await kinds()).length > 0 && (await kinds()).every((k) => /^\S+ error$/.test(k))).toBe(true);
  await page.locator('[data-search-failed]').click();

  // Date facet: a range after every session leaves nothing.
  await page.locator('[data-search-facet=since]').fill('2099-01-01');
  await expect(count(page)).toHaveText(/^0 results/);
});

test('a hit inside a subagent of a session never opened opens it at the atom, match marked, with a #q= link at this scope', async ({ page }) => {
  await indexed(page);
  await page.locator('input[type=search]').fill('investigate');
  await page.getByLabel('Search scope').selectOption('everything');
  await page.locator('[data-search-author=subagent]').click();
  await expect(page.locator('[data-search-hit]').first()).toBeVisible();
  const built = await page.evaluate(() => (window as unknown as Api).__loupe.builtKeys());
  const hits = page.locator('[data-search-hit]');
  const keys = await hits.evaluateAll((els) => els.map((e) => [e.getAttribute('data-session-key'), e.getAttribute('data-atom-uuid'), !!e.querySelector('[data-search-subagent]')] as const));
  const i = keys.findIndex(([k, , sub]) => sub && !built.includes(k!));
  expect(i).toBeGreaterThanOrEqual(0);
  const [key, atom] = keys[i];
  // By its attributes, not its index: more hits may still be arriving, and the list redraws.
  // click() scrolls it into view and retries on an element redrawn meanwhile.
  const hit = page.locator(`[data-search-hit][data-session-key="${key}"][data-atom-uuid="${atom}"]`).first();
  const match = (await hit.locator('mark').first().textContent())!;
  await hit.click();
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', key!);
  await expect(page.locator('main [data-search-landed]')).toContainText(new RegExp(match, 'i'));
  await expect(page).toHaveURL(new RegExp(`a=${atom}&q=investigate&qs=everything`));
});

test('a search opened at history scope while the history indexes has the history decoded once the index is ready', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, TREE);
  // Opened while it indexes: the warm-up the scope asks for cannot run yet (the index's lanes need the memory).
  await expect(page.locator('[data-history-progress]')).toBeVisible();
  await page.locator('input[type=search]').focus();
  await page.getByLabel('Search scope').selectOption('everything');
  // Once the page has seen the index ready, its workers have been sent every session not built:
  // a warm-up asked for now finds none left to decode (without the page's own it decodes them all).
  // The index reads the whole tree in the background: on a busy 2-core machine that took over
  // the default 5 s once.
  await expect(page.locator('[data-history-progress]')).toHaveCount(0, { timeout: 30_000 });
  const built = await page.evaluate(() => (window as unknown as Api).__loupe.builtKeys());
  expect(built.length).toBeLessThan(40);
  expect(await page.evaluate(() => (window as unknown as Api).__loupe.prepareSearch('history'))).toMatchObject({ warmed: 0 });
});
