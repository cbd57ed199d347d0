// Issue 24, part 3: a reload right after a drop says `ready` must not forget the session. The page
// itself reloads in the same task that sets data-state=ready (a MutationObserver armed before
// the drop), which is sooner than any test could; then "Recent sessions" must hold the session.
// Five fresh drops in a row (the bug showed in about one run of five).
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, pickFiles } from './helpers';
import { longSession } from './make-session';

let DIR = '';
test.beforeAll(() => {
  DIR = mkdtempSync(join(tmpdir(), 'loupe-reload-'));
});
test.afterAll(() => {
  if (DIR) rmSync(DIR, { recursive: true, force: true });
});

test('a reload at the instant a drop is ready keeps the session in Recent sessions (5 fresh drops)', async ({ page }) => {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.documentElement.dataset.state !== 'ready' || sessionStorage.getItem('reloadOnReady') !== '1') return;
      sessionStorage.removeItem('reloadOnReady');
      sessionStorage.setItem('readyKey', document.querySelector('main[data-session-key]')?.getAttribute('data-session-key') ?? '');
      location.reload();
    }).observe(document, { attributes: true, attributeFilter: ['data-state'], subtree: true });
  });
  await openApp(page);
  const keys: string[] = [];
  for (let i = 0; i < 5; i++) {
    // Each drop a new session (other times, so another content hash and key).
    const file = join(DIR, `reload-${i}.jsonl`);
    writeFileSync(file, longSession(3 + i, { start: Date.UTC(2026, 6, 1 + i, 9) }));
    await page.evaluate(() => sessionStorage.setItem('reloadOnReady', '1'));
    const reloaded = page.waitForEvent('load');
    await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles(file);
    await reloaded;
    await openApp(page);
    const key = await page.evaluate(() => sessionStorage.getItem('readyKey'));
    expect(key).toBeTruthy();
    keys.push(key!);
    await expect(page.locator(`[data-recent-session="${key}"]`)).toBeVisible();
  }
  expect(new Set(keys).size).toBe(5);
  await expect(page.locator('[data-recent-session]')).toHaveCount(5);
  // And a recent entry reopens the session it names.
  await page.locator(`[data-recent-session="${keys[4]}"] button.open`).click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', keys[4]);
});

test('a parsed-whole drop is in the cache when it says ready (read from IndexedDB directly)', async ({ page }) => {
  await openApp(page);
  const file = join(DIR, 'direct.jsonl');
  writeFileSync(file, longSession(4, { start: Date.UTC(2026, 7, 1, 9) }));
  await pickFiles(page, [file]);
  const key = await page.locator('main[data-session-key]').getAttribute('data-session-key');
  const stored = await page.evaluate(
    (k) =>
      new Promise<boolean>((resolve, reject) => {
        const req = indexedDB.open('loupe-cache');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const get = db.transaction('sessions').objectStore('sessions').get(k!);
          get.onsuccess = () => {
            db.close();
            resolve(!!get.result);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    key
  );
  expect(stored).toBe(true);
  // Its file was hashed by the hash worker, not on the page's thread (state/hash-client.ts): a
  // worker that failed would have left the hash to the page, with the same result.
  expect(await page.evaluate(() => (window as unknown as { __loupe: { hashes(): { inWorker: number; failed: boolean } } }).__loupe.hashes())).toEqual({ inWorker: 1, failed: false });
});
