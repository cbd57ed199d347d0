// Issue 21: the history index. A small generated ~/.claude/projects (30 sessions, 3 projects, so
// it is listed from the scan) is dropped as a real folder drop; the index reads every session in
// the background (search workers) until window.__loupe.history() is ready; the list then shows
// exact turns and a cost for every session, the projects their cost; the start page says what
// the browser keeps; the same tree dropped again after a reload reads nothing.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, dropFolder, openApp } from './helpers';

let TREE = '';

test.beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'loupe-history-'));
  TREE = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '2', '--sessions', '30', '--projects', '3', '--seed', '7', '--out', TREE]);
});

test.afterAll(() => {
  if (TREE) rmSync(join(TREE, '..'), { recursive: true, force: true });
});

interface Status { listed: number; indexed: number; failed: number; calls: number; bytesStored: number; ms: number; ready: boolean; read?: number }
const history = (page: Page) => page.evaluate(() => (window as unknown as { __loupe: { history: () => Promise<Status> } }).__loupe.history());
const entries = (page: Page) => page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key]');

async function dropAndIndex(page: Page): Promise<Status> {
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect.poll(async () => (await history(page)).ready, { timeout: 60_000 }).toBe(true);
  // `ready` comes once every session is indexed; the last batches may still be on their way to
  // the store (bytesStored grows until they land). The pass has ended, its writes landed, when its
  // `ms` stops moving: it counts up until then.
  let last = -1;
  await expect
    .poll(async () => {
      const { ms } = await history(page);
      const still = ms === last;
      last = ms;
      return still;
    }, { timeout: 60_000 })
    .toBe(true);
  return history(page);
}

test('every session is indexed in the background: exact turns and cost in the list, then a re-drop after reload reads nothing', async ({ page }) => {
  await openApp(page);
  const first = await dropAndIndex(page);
  expect(first).toMatchObject({ listed: 30, indexed: 30, failed: 0, ready: true, read: 30 });
  expect(first.calls).toBeGreaterThan(30);
  expect(first.bytesStored).toBeGreaterThan(0);
  // Once ready the index stays for this unchanged drop: later reads never go back (a second load
  // or listing change of the same sessions used to restart it from 0 and read them again).
  for (let i = 0; i < 6; i++) {
    const later = await history(page);
    expect(later).toMatchObject({ listed: 30, indexed: 30, ready: true, read: 30 });
    expect(later.bytesStored).toBeGreaterThanOrEqual(first.bytesStored);
  }

  // No estimate is left in the list, and every session has its cost line.
  await expect(entries(page)).not.toHaveCount(0);
  const shown = await entries(page).count();
  await expect(entries(page).filter({ hasText: '~' })).toHaveCount(0);
  await expect(entries(page).locator('[data-session-usage]')).toHaveCount(shown);
  await expect(page.locator('[data-project-cost]')).toHaveCount(3);
  // The list's turns are the ones the session has once opened (built from its files).
  const builtTurns = (key: string) =>
    page.evaluate((k) => (window as unknown as { __loupe: { list: () => { key: string; turns: number; turnsExact: boolean }[] } }).__loupe.list().find((e) => e.key === k), key);
  for (const i of [1, 4, 9]) {
    const entry = entries(page).nth(i);
    const listed = Number(/([\d,]+) turns?/.exec((await entry.textContent()) ?? '')?.[1].replace(/,/g, ''));
    const key = (await entry.getAttribute('data-session-key'))!;
    await entry.click();
    await expect(page.locator('main')).toHaveAttribute('data-session-key', key);
    await expect.poll(async () => (await builtTurns(key))?.turnsExact).toBe(true);
    expect((await builtTurns(key))?.turns).toBe(listed);
  }

  // The start page after a reload says what the browser keeps.
  await page.reload();
  await openApp(page);
  const line = page.locator('[data-history-stored]');
  await expect(line).toHaveAttribute('data-history-stored', '30');
  await expect(line).toContainText(/History index: 30 sessions, [\d.]+ MB/);

  // The same tree again: every entry comes from the stored index.
  const again = await dropAndIndex(page);
  expect(again).toMatchObject({ listed: 30, indexed: 30, failed: 0, read: 0, calls: first.calls, bytesStored: first.bytesStored });
  await expect(entries(page).filter({ hasText: '~' })).toHaveCount(0);

  // Clear forgets it.
  await page.reload();
  await openApp(page);
  await page.locator('[data-action="clear-history"]').click();
  await expect(page.locator('[data-history-stored]')).toHaveCount(0);
});

// The progress line comes and goes while the index reads; if it pushed the list down, a click
// meant for one session would land on its neighbour (seen in the Firefox smoke as an open that
// never came). Every frame from ready until the index is done, the list stays where it was.
test('the session list does not move while the history index reads', async ({ page }) => {
  await openApp(page);
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const seen = await page.evaluate(
    () =>
      new Promise<{ tops: number[]; progressShown: boolean }>((resolve) => {
        const w = window as unknown as { __loupe: { history: () => Promise<{ ready: boolean }> } };
        const tops = new Set<number>();
        let progressShown = false;
        let done = false;
        const frame = () => {
          const first = document.querySelector('nav[aria-label="Sessions"] button[data-session-key]');
          if (first) tops.add(Math.round(first.getBoundingClientRect().top));
          if (document.querySelector('[data-history-progress]')) progressShown = true;
          if (done) resolve({ tops: [...tops], progressShown });
          else requestAnimationFrame(frame);
        };
        const poll = () => void w.__loupe.history().then((h) => (h.ready ? (done = true) : setTimeout(poll, 50)));
        requestAnimationFrame(frame);
        poll();
      })
  );
  expect(seen.progressShown).toBe(true);
  expect(seen.tops).toHaveLength(1);
});
