// Issue 10: search — the field, hits, landing (collapsed output, subagent), options, errors,
// next / previous, another session, #q= links, Ctrl+F, and window.__loupe.search.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { openApp, pickFiles, pickFolder, waitCached } from './helpers';
import { writeSearchProject } from './search-fixture';

const field = (page: Page) => page.locator('input[type=search]');
const count = async (page: Page) => Number(((await page.locator('[data-search-count]').textContent()) ?? '').replace(/,/g, '').match(/^\s*(\d+)/)?.[1] ?? NaN);

async function openProject(page: Page): Promise<void> {
  await openApp(page);
  await pickFolder(page, writeSearchProject());
  // Open session A (the one with the tool output and the subagent).
  const key = await page.locator('main[data-session-key]').getAttribute('data-session-key');
  if (!key?.includes('sess-a')) await page.locator('[data-session-key*="sess-a"]').first().click();
  await expect(page.locator('main[data-session-key*="sess-a"]')).toBeVisible();
}

async function searchFor(page: Page, q: string, total: number): Promise<void> {
  await field(page).fill(q);
  await expect(page.locator('[data-search-count]')).toHaveText(new RegExp(`^${total} result`));
}

/** Session B's prompt is found only with a wider scope; its hit opens B and marks the match. */
async function findNarwhalIn(page: Page, scope: 'everything'): Promise<void> {
  await searchFor(page, 'narwhal', 0);
  await page.getByLabel('Search scope').selectOption(scope);
  await expect(page.locator('[data-search-count]')).toHaveText(/^1 result/);
  const hit = page.locator('[data-search-hit]');
  await expect(hit).toHaveAttribute('data-session-key', /sess-b/);
  await hit.click();
  await expect(page.locator('main[data-session-key*="sess-b"]')).toBeVisible();
  await expect(page.locator('main [data-search-landed]')).toContainText('NARWHAL');
}

test('a string only inside a collapsed tool output is found, and landing opens it', async ({ page }) => {
  await openProject(page);
  await expect(page.getByText('OUTPUT-ONLY-QUOKKA')).toHaveCount(0);
  await searchFor(page, 'quokka', 1);
  const hit = page.locator('[data-search-hit]');
  await expect(hit).toHaveAttribute('data-atom-uuid', 'a-r1');
  await expect(hit.locator('mark')).toHaveText('QUOKKA');
  await hit.click();
  await expect(page.locator('main').getByText(/OUTPUT-ONLY-QUOKKA 17/)).toBeVisible();
  await expect(page.locator('main [data-search-landed]')).toContainText('QUOKKA');
  await expect(page).toHaveURL(/#s=.*&a=a-r1&q=quokka/);
});

test('a hit inside a subagent says so and lands inside the delegation', async ({ page }) => {
  await openProject(page);
  await searchFor(page, 'pangolin', 1);
  const hit = page.locator('[data-search-hit]');
  await expect(hit.locator('[data-search-subagent]')).toContainText('Inspect parser');
  await field(page).press('Enter');
  const deleg = page.locator('[data-row-kind=delegation]');
  await expect(deleg.getByText(/SUBAGENT-PANGOLIN/)).toBeVisible();
});

test('whole word and regex options, and an invalid regex is said so', async ({ page }) => {
  await openProject(page);
  await searchFor(page, 'cat', 1);
  await expect(page.locator('[data-search-hit] .n')).toHaveText('4×'); // cat, scattered, catalog, cat
  await page.locator('[data-search-option=wholeWord]').click();
  await expect(page.locator('[data-search-hit] .n')).toHaveText('2×');
  await page.locator('[data-search-option=wholeWord]').click();
  await page.locator('[data-search-option=regex]').click();
  await searchFor(page, 'error \\d{3}', 1);
  await expect(page.locator('[data-search-hit] mark')).toHaveText(['Error 404', 'error 500']);
  await field(page).fill('error (');
  await expect(page.locator('[data-search-error]')).toHaveText(/^Invalid regular expression: /);
  await expect(page.locator('[data-search-count]')).toHaveText(/^0 results/);
  await expect(page.locator('[data-search-hit]')).toHaveCount(0);
  await page.locator('[data-search-option=caseSensitive]').click();
  await searchFor(page, 'Error \\d+', 1);
});

test('the count, and next / previous with Enter, Shift+Enter and F3', async ({ page }) => {
  await openProject(page);
  // The prompt, the delegation's description and result, the subagent's prompt and output, the reply.
  await searchFor(page, 'parser', 6);
  // Each hit is a tick on its session's timeline lane.
  await expect(page.locator('[data-search-ticks]')).toHaveAttribute('data-search-ticks', '6');
  const hits = page.locator('[data-search-hit]');
  const atoms = await hits.evaluateAll((els) => els.map((e) => e.getAttribute('data-atom-uuid')));
  // Each step waits for its landing's history entry: a landing a newer one overtakes writes none
  // (Navigator.land), and on a loaded machine a key can come before the previous landing is done.
  const stepTo = async (key: () => Promise<void>, atom: string | null) => {
    await key();
    await expect(page.locator('[data-search-hit][aria-current]')).toHaveAttribute('data-atom-uuid', atom!);
    await expect(page).toHaveURL(new RegExp(`&a=${atom}&q=parser`));
  };
  await stepTo(() => field(page).press('Enter'), atoms[0]);
  await stepTo(() => field(page).press('Enter'), atoms[1]);
  await stepTo(() => page.keyboard.press('F3'), atoms[2]);
  await stepTo(() => field(page).press('Shift+Enter'), atoms[1]);
  // Back returns to the previous hit.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`&a=${atoms[2]}&q=parser`));
  await expect(page.locator('[data-search-hit][aria-current]')).toHaveAttribute('data-atom-uuid', atoms[2]!);
  await field(page).press('Escape');
  await expect(page.locator('[data-search-count]')).toHaveCount(0);
});

test('a hit in another loaded session opens that session and lands on the atom', async ({ page }) => {
  await openProject(page);
  await findNarwhalIn(page, 'everything');
});

test('author, kind and tool filters narrow the hits', async ({ page }) => {
  await openProject(page);
  await searchFor(page, 'parser', 6);
  await page.locator('[data-search-author=subagent]').click();
  await expect(page.locator('[data-search-count]')).toHaveText(/^3 results/);
  await page.locator('[data-search-kind=tool-output]').click();
  await expect(page.locator('[data-search-count]')).toHaveText(/^2 results/);
  await page.getByLabel('Tool name').fill('grep');
  await expect(page.locator('[data-search-count]')).toHaveText(/^1 result/);
  await expect(page.locator('[data-search-hit]')).toHaveAttribute('data-atom-uuid', 's-r1');
});

test('Ctrl+F and / focus the search field', async ({ page }) => {
  await openProject(page);
  await page.locator('main').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+f');
  await expect(field(page)).toBeFocused();
  await field(page).press('Escape');
  await expect(field(page)).not.toBeFocused();
  await page.keyboard.press('/');
  await expect(field(page)).toBeFocused();
});

test('window.__loupe.search uses the same engine as the field', async ({ page }) => {
  await openProject(page);
  const r = await page.evaluate(() => (window as unknown as { __loupe: { search: (q: string, o?: object) => Promise<{ total: number; hits: { sessionKey: string; atomUuid: string }[]; ms: number }> } }).__loupe.search('PARSER', { caseSensitive: false }));
  await searchFor(page, 'PARSER', r.total);
  const atoms = await page.locator('[data-search-hit]').evaluateAll((els) => els.map((e) => e.getAttribute('data-atom-uuid')));
  expect(r.hits.map((h) => h.atomUuid)).toEqual(atoms);
  expect(r.ms).toBeGreaterThanOrEqual(0);
  const all = await page.evaluate(() => (window as unknown as { __loupe: { search: (q: string, o?: object) => Promise<{ total: number; hits: { sessionKey: string }[] }> } }).__loupe.search('narwhal', { scope: 'loaded' }));
  expect(all.total).toBe(1);
  expect(all.hits[0].sessionKey).toMatch(/sess-b/);
  const cs = await page.evaluate(() => (window as unknown as { __loupe: { search: (q: string, o?: object) => Promise<{ total: number }> } }).__loupe.search('PARSER', { caseSensitive: true }));
  expect(cs.total).toBe(0);
  const rx = await page.evaluate(() => (window as unknown as { __loupe: { search: (q: string, o?: object) => Promise<{ total: number }> } }).__loupe.search('QUOK+A', { regex: true }));
  expect(rx.total).toBe(1);
});

test('a #q= link opens the session with the search run', async ({ page }) => {
  await openProject(page);
  await searchFor(page, 'quokka', 1);
  await page.locator('[data-search-hit]').click();
  await expect(page).toHaveURL(/&q=quokka/);
  // The session is cached by now; reopening the link from the cache runs the search again.
  await waitCached(page);
  const url = page.url();
  await page.goto('about:blank');
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(field(page)).toHaveValue('quokka');
  await expect(page.locator('[data-search-count]')).toHaveText(/^1 result/);
  await expect(page.locator('[data-search-hit][aria-current]')).toHaveAttribute('data-atom-uuid', 'a-r1');
  await expect(page.locator('main').getByText(/OUTPUT-ONLY-QUOKKA 17/)).toBeVisible();
});

test('"Everything" finds a cached session that is not loaded (from the stored history) and opens it from the cache', async ({ page }) => {
  const dir = writeSearchProject();
  await openApp(page);
  await pickFiles(page, [join(dir, 'sess-b.jsonl')]);
  await waitCached(page);
  // Session B is in the stored history once its index is ready.
  await page.evaluate(() => (window as unknown as { __loupe: { historySearchIndex: () => Promise<unknown> } }).__loupe.historySearchIndex());
  await pickFiles(page, [join(dir, 'sess-a.jsonl')]);
  await waitCached(page);
  await expect(page.locator('main[data-session-key*="sess-a"]')).toBeVisible();
  await searchFor(page, 'narwhal', 0);
  await page.getByLabel('Search scope').selectOption('everything');
  // Session B is not loaded: its group is named by its Recent entry.
  await expect(page.locator('.results .session')).toContainText('ONLY-IN-SESSION-B-NARWHAL');
  await page.getByLabel('Search scope').selectOption('session');
  await findNarwhalIn(page, 'everything');
  const viaHook = await page.evaluate(() => (window as unknown as { __loupe: { search: (q: string, o?: object) => Promise<{ total: number }> } }).__loupe.search('quokka', { scope: 'cached' }));
  expect(viaHook.total).toBe(1);
});

test('the search field and results have no serious or critical accessibility violations', async ({ page }) => {
  await openProject(page);
  await searchFor(page, 'parser', 6);
  await field(page).press('Enter');
  const results = await new AxeBuilder({ page }).include('header').include('[aria-label="Search results"]').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`)).toEqual([]);
});
