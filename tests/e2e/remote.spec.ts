// Remote trees: `?src=` and the start page's "Open a URL" open a projects tree served by Debian's
// nginx (JSON and HTML autoindex, CORS headers, Range as nginx serves it) or by s3rver, started on
// loopback by this spec (tests/servers/remote.ts) over a small generated tree with a 403 file,
// a .jsonl that is not JSON lines, a .txt and a folder that redirects to another origin.
import { expect, test, type Page } from '@playwright/test';
import { makeTree, startNginx, startS3, type Nginx, type S3 } from '../servers/remote';
import { openApp, stats } from './helpers';

let tree: ReturnType<typeof makeTree>;
let nginx: Nginx;
let s3: S3;

test.beforeAll(async () => {
  tree = makeTree();
  [nginx, s3] = await Promise.all([startNginx(tree.dir), startS3(tree.projects, tree.files.filter((f) => !f.includes('forbidden-')), 'alice/projects/')]);
});

test.afterAll(async () => {
  await Promise.all([nginx?.stop(), s3?.stop()]);
  tree?.cleanup();
});

const entries = (page: Page) => page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key]');
const ready = (page: Page) => expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
const notes = (page: Page) => page.locator('[data-remote-note]');

test('?src= a folder on nginx lists the sessions and opens the newest; a 403 file is one line', async ({ page }) => {
  await page.goto(`/?src=${encodeURIComponent(`${nginx.origin}/json/projects/`)}`);
  await ready(page);
  const s = await stats(page);
  expect(s.sessions).toBeGreaterThan(24);
  await expect(entries(page).first()).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', (await entries(page).first().getAttribute('data-session-key'))!);
  await expect(notes(page).filter({ hasText: /^1 file could not be read \(\/json\/projects\/.*forbidden-0000\.jsonl: the server answered 403 Forbidden\); everything else was opened\.$/ })).toHaveCount(1);
  await expect(notes(page).filter({ hasText: '1 file that is not .jsonl or .json was left out.' })).toHaveCount(1);
  await expect(notes(page).filter({ hasText: /moved\/ redirected/ })).toHaveCount(1);
  // Only GET and HEAD reached the server, and the files' heads and tails came as ranges.
  const log = nginx.log();
  expect(log.every((l) => l.method === 'GET' || l.method === 'HEAD' || l.method === 'OPTIONS')).toBe(true);
  expect(log.filter((l) => l.status === 206).length).toBeGreaterThan(20);

  // Another session is built when picked (its files read whole).
  const third = (await entries(page).nth(2).getAttribute('data-session-key'))!;
  await entries(page).nth(2).click();
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', third);
  await expect(page.locator('[data-row-kind]').first()).toBeVisible();
});

test('a second visit reads no file again but the newest session\'s', async ({ page }) => {
  type Hooks = { __loupe: { scansKept: () => number; scanStats: () => Promise<{ files: number; reused: number }>; history: () => Promise<{ ready: boolean }> } };
  const src = `/?src=${encodeURIComponent(`${nginx.origin}/json/projects/`)}`;
  await page.goto(src);
  await ready(page);
  await page.waitForFunction(() => (window as unknown as Hooks).__loupe.scansKept() > 0);
  // The history index of the first visit is complete and stored: the second visit's reads are the load's alone.
  await expect.poll(() => page.evaluate(async () => (await (window as unknown as Hooks).__loupe.history()).ready), { timeout: 60_000 }).toBe(true);
  const from = nginx.log().length;
  await page.goto(src);
  await ready(page);
  const again = await page.evaluate(() => (window as unknown as Hooks).__loupe.scanStats());
  expect(again.reused).toBe(again.files);
  // Files read again (not listings, not cached by the browser): the newest session's only, to
  // build it — its transcript and its subagents, all named by its session id.
  const reread = nginx.log().slice(from).filter((l) => !l.uri.endsWith('/') && l.status !== 304);
  const sids = new Set(reread.map((l) => l.uri.split('/')[4].replace(/\.jsonl$/, '')));
  expect(sids.size).toBeLessThanOrEqual(1);
});

test('the history index builds over a remote tree, its files read on the engine\'s thread for the lanes', async ({ page }) => {
  type Hooks = { __loupe: { history: () => Promise<{ ready: boolean; listed: number; indexed: number; failed: number; calls: number }> } };
  await page.goto(`/?src=${encodeURIComponent(`${nginx.origin}/json/projects/`)}`);
  await ready(page);
  await expect.poll(() => page.evaluate(() => (window as unknown as Hooks).__loupe.history().then((h) => h.ready)), { timeout: 60_000 }).toBe(true);
  const h = await page.evaluate(() => (window as unknown as Hooks).__loupe.history());
  expect(h.indexed).toBe(h.listed);
  expect(h.calls).toBeGreaterThan(0);
});

test('an S3 bucket prefix (s3rver) opens the same sessions', async ({ page }) => {
  await page.goto(`/?src=${encodeURIComponent(`${s3.origin}/${s3.bucket}/alice/projects/`)}`);
  await ready(page);
  const viaS3 = await stats(page);
  await page.goto(`/?src=${encodeURIComponent(`${nginx.origin}/html/projects/`)}`);
  await ready(page);
  // The bucket holds the tree but the file nginx refuses; the HTML listing leaves that one out (its size cannot be learnt).
  expect((await stats(page)).sessions).toBe(viaS3.sessions);
});

test('"Open a URL" on the start page opens a folder; a host without CORS is one clear line', async ({ page }) => {
  await openApp(page);
  await page.getByLabel('Open a URL').fill(`${nginx.origin}/nocors/projects/`);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'error', { timeout: 30_000 });
  await expect(page.getByRole('alert')).toHaveText(`127.0.0.1:${new URL(nginx.origin).port} refused the request or does not allow cross-origin reads (CORS).`);
  await page.getByLabel('Open a URL').fill(`${nginx.origin}/html/projects/`);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await ready(page);
  expect((await stats(page)).sessions).toBeGreaterThan(24);
});
