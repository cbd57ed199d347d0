// Shared steps of the end-to-end specs: open the app, feed the real file inputs, wait on the
// automation contract (html[data-state]) instead of sleeping.
import { expect, type Page } from '@playwright/test';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const CORPUS = join(ROOT, 'fixtures/corpus');

export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-state', /empty|ready|loading|error/);
  // data-state is in the served HTML: wait until the app has started too (its drop and paste
  // handlers are attached then; a drop dispatched before that was lost, and a test failed in CI).
  await page.waitForFunction(() => '__loupe' in window);
}

/**
 * Waits until the timeline panel has its final size: it loads after the chat's first frame (a
 * cold start draws the chat first), and its arrival moves the chat below it. Tests that measure
 * where a chat row sits wait for it first, so they measure the chat's own behaviour.
 */
export async function timelineSettled(page: Page): Promise<void> {
  await expect(page.locator('[data-timeline-panel="collapsed"], [data-timeline-panel="open"] [role=application], [data-timeline-panel="open"] .empty').first()).toBeAttached();
}

/** Picks files through the real multi-file input and waits until the load settles. */
export async function pickFiles(page: Page, files: string[], expectState: 'ready' | 'error' = 'ready'): Promise<void> {
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles(files);
  await expect(page.locator('html')).toHaveAttribute('data-state', expectState, { timeout: 30_000 });
}

/** Picks a whole folder through the real webkitdirectory input. */
export async function pickFolder(page: Page, dir: string, expectState: 'ready' | 'error' = 'ready'): Promise<void> {
  await page.locator('input[type=file][webkitdirectory]').setInputFiles(dir);
  await expect(page.locator('html')).toHaveAttribute('data-state', expectState, { timeout: 60_000 });
}

export function filesUnder(dir: string, re = /\.jsonl$/): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p, re) : re.test(name) ? [p] : [];
  });
}

export async function stats(page: Page): Promise<{ sessions: number; turns: number; atoms: number; segments: number; rows: number; issues: number; loadMs: number }> {
  return page.evaluate(() => (window as unknown as { __loupe: { stats: () => never } }).__loupe.stats());
}

/** Scrolls the virtualized chat from the top until a row matching `selector` is drawn. */
export async function scrollToRow(page: Page, selector: string) {
  const viewport = page.locator('main .chat-viewport');
  const row = page.locator(selector).first();
  await viewport.evaluate((el) => el.scrollTo(0, 0));
  await expect(page.locator('[data-slot][data-placeholder="1"]')).toHaveCount(0);
  for (let i = 0; i < 200 && !(await row.count()); i++) {
    const atEnd = await viewport.evaluate((el) => {
      const end = el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      el.scrollBy(0, el.clientHeight * 0.8);
      return end;
    });
    if (atEnd) break;
    // Rows arrive from the worker after a scroll: wait until no slot is a placeholder.
    await expect(page.locator('[data-slot][data-placeholder="1"]')).toHaveCount(0);
  }
  await row.scrollIntoViewIfNeeded();
  return row;
}

/** Caching runs after the view is ready; wait until the open session is in "Recent sessions". */
export async function waitCached(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const key = document.querySelector('main[data-session-key]')?.getAttribute('data-session-key');
    const loupe = (window as unknown as { __loupe?: { recentKeys?: () => string[] } }).__loupe;
    return !!key && !!loupe?.recentKeys?.().includes(key);
  });
}

/** Drops a folder on the page as the OS would (CDP Input.dispatchDragEvent with a real path): the
 *  page gets directory entries and File System Access handles, as from a person's drag. A page
 *  that has seen no input yet sometimes ignores the first drag (a fresh context, a busy machine),
 *  so the drop is checked to have arrived and dragged again elsewhere if it did not. */
export async function dropFolder(page: Page, dir: string): Promise<void> {
  // data-state is in the served HTML: wait for the app itself (its drop handler) to be running.
  await page.waitForFunction(() => !!(window as unknown as { __loupe?: object }).__loupe);
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (let attempt = 0; attempt < 4; attempt++) {
    await page.evaluate(() => {
      const w = window as unknown as { __dropSeen?: boolean };
      w.__dropSeen = false;
      addEventListener('drop', () => (w.__dropSeen = true), { capture: true, once: true });
    });
    const at = 300 + 20 * attempt;
    await page.mouse.move(at, at);
    const cdp = await page.context().newCDPSession(page);
    for (const type of ['dragEnter', 'dragOver', 'drop'] as const) await cdp.send('Input.dispatchDragEvent', { type, x: at, y: at, data });
    await cdp.detach();
    const seen = await page
      .waitForFunction(() => (window as unknown as { __dropSeen?: boolean }).__dropSeen === true, null, { timeout: 5000 })
      .then(() => true, () => false);
    if (seen) return;
  }
  throw new Error('the page never received the folder drop');
}

/** The font faces (family, size, weight, style) of every element with text on screen. */
export const drawnFaces = (page: Page) =>
  page.evaluate(() => [
    ...new Set(
      [...document.querySelectorAll('body *')]
        .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim()) && e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
        .map((e) => {
          const s = getComputedStyle(e);
          // The family list as font-warmup.ts names it: the chat's monospace list (--chat-mono) is
          // the one with 'Liberation Mono' in it.
          const stack = s.fontFamily.startsWith('ui-monospace') ? (s.fontFamily.includes('Liberation Mono') ? 'chat-mono' : 'mono') : 'ui';
          return `${stack}|${Math.round(parseFloat(s.fontSize) * 100) / 100}|${s.fontWeight}|${s.fontStyle}`;
        })
    )
  ]);
