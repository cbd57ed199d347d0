// Issue 5: timeline clicks land the chat, links carry a session or a place in it.
import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { longSession } from './make-session';
import { openApp, stats } from './helpers';

const TURNS = 120;

async function loadLong(page: Page): Promise<void> {
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'long.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(longSession(TURNS))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
}

/** The bar of turn i: one segment per turn, bars in time order (layout.bars is sorted by t0). */
async function barOfTurn(page: Page, i: number) {
  const bar = page.locator(`[data-bar-index="${i - 1}"][data-segment-id]`).first();
  await expect(bar).toBeAttached();
  return bar;
}

test('clicking a bar lands the chat on the segment reply', async ({ page }) => {
  await loadLong(page);
  expect((await stats(page)).segments).toBe(TURNS);
  const bar = await barOfTurn(page, 90);
  await bar.click();
  const row = page.locator('[data-atom-uuid="a90"]');
  await expect(row).toBeInViewport();
  await expect(page).toHaveURL(/#s=.+&a=a90$/);
});

test('clicking a dot lands on the prompt', async ({ page }) => {
  await loadLong(page);
  await page.locator('[data-trigger-uuid="u75"]').click();
  await expect(page.locator('[data-atom-uuid="u75"]')).toBeInViewport();
});

test('back and forward move between two landings', async ({ page }) => {
  await loadLong(page);
  await page.locator('[data-trigger-uuid="u20"]').click();
  await expect(page.locator('[data-atom-uuid="u20"]')).toBeInViewport();
  await page.locator('[data-trigger-uuid="u100"]').click();
  await expect(page.locator('[data-atom-uuid="u100"]')).toBeInViewport();
  await page.goBack();
  await expect(page).toHaveURL(/a=u20$/);
  await expect(page.locator('[data-atom-uuid="u20"]')).toBeInViewport();
  await page.goForward();
  await expect(page).toHaveURL(/a=u100$/);
  await expect(page.locator('[data-atom-uuid="u100"]')).toBeInViewport();
});

test('a #z= share link opens the same session in a fresh context', async ({ page, browser, baseURL }) => {
  await loadLong(page);
  await page.locator('[data-trigger-uuid="u60"]').click();
  const before = await stats(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  // Copy link opens the redaction dialog first (issue 12); its default choices make the link.
  await page.locator('[data-dialog="share"] [data-action="copy-link"]').click();
  const link = await page.getByLabel('Share link').inputValue();
  expect(link).toContain('#');
  expect(link).toContain('z=');
  const fresh = await browser.newContext({ baseURL });
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.locator('html')).toHaveAttribute('data-state', 'ready');
  const after = await stats(other);
  expect(after.turns).toBe(before.turns);
  expect(after.atoms).toBe(before.atoms);
  await expect(other.locator('[data-atom-uuid="u60"]')).toBeInViewport();
  await fresh.close();
});

test.describe('?src= links', () => {
  let server: Server;
  let origin: string;
  let release: () => void = () => {};
  const released = new Promise<void>((r) => (release = r));
  test.beforeAll(async () => {
    const body = longSession(12);
    server = createServer((req, res) => {
      if (req.url === '/raw/session.jsonl') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson', 'access-control-allow-origin': '*' });
        res.end(body);
      } else if (req.url === '/slow/session.jsonl') {
        // Sends half, then holds the rest until the test has seen the page loading.
        res.writeHead(200, { 'content-type': 'application/x-ndjson', 'access-control-allow-origin': '*' });
        res.write(body.slice(0, body.length >> 1));
        void released.then(() => res.end(body.slice(body.length >> 1)));
      } else if (req.url === '/private/session.jsonl') {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' }); // no CORS header
        res.end(body);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('opens a transcript served with CORS and lands on the linked atom', async ({ page }) => {
    await page.goto(`/?src=${encodeURIComponent(`${origin}/raw/session.jsonl`)}#a=a7`);
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
    expect((await stats(page)).turns).toBe(12);
    await expect(page.locator('[data-atom-uuid="a7"]')).toBeInViewport();
  });

  test('a load in flight shows its progress, then the session', async ({ page }) => {
    await page.goto(`/?src=${encodeURIComponent(`${origin}/slow/session.jsonl`)}`);
    await expect(page.locator('html')).toHaveAttribute('data-state', 'loading');
    await expect(page.getByRole('status').locator('progress')).toBeVisible();
    release();
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
    await expect(page.locator('progress')).toHaveCount(0);
    expect((await stats(page)).turns).toBe(12);
  });

  test('a host that refuses cross-origin reads gets a clear message', async ({ page }) => {
    await page.goto(`/?src=${encodeURIComponent(`${origin}/private/session.jsonl`)}`);
    await expect(page.locator('html')).toHaveAttribute('data-state', 'error');
    await expect(page.getByRole('alert')).toContainText('CORS');
  });
});

test('a corrupted share link shows one sentence and an empty viewer', async ({ page }) => {
  await page.goto('/#z=AQ-this-is-not-a-real-payload');
  await expect(page.locator('html')).toHaveAttribute('data-state', 'error');
  const alert = page.getByRole('alert');
  await expect(alert).toBeVisible();
  expect((await alert.innerText()).split(/[.!?]\s/).length).toBeLessThanOrEqual(2);
  await expect(alert).not.toContainText('Error:');
  await expect(page.locator('[data-row-kind]')).toHaveCount(0);
});

test('a target that is not in the session is said so', async ({ page }) => {
  await loadLong(page);
  await page.locator('[data-trigger-uuid="u3"]').click();
  await expect(page).toHaveURL(/a=u3$/); // the landing has written its fragment
  const url = new URL(page.url());
  url.hash = url.hash.replace(/a=u3/, 'a=nope-not-here');
  await page.goto(url.href);
  await expect(page.locator('[data-not-found]')).toContainText('nope-not-here');
});

test('scrolling the chat highlights the segment in view on the timeline', async ({ page }) => {
  await loadLong(page);
  const viewport = page.locator('main .chat-viewport');
  await viewport.evaluate((el) => el.scrollTo(0, el.scrollHeight * 0.6));
  // The turn whose row sits at the top edge of the chat.
  const turnAtTop = async () =>
    viewport.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + 4)?.closest('[data-atom-uuid]');
      const m = /^[ucra](\d+)$/.exec(hit?.getAttribute('data-atom-uuid') ?? '');
      return m ? Number(m[1]) : null;
    });
  await expect.poll(turnAtTop).not.toBeNull();
  const n = (await turnAtTop()) as number;
  expect(n).toBeGreaterThan(TURNS / 3);
  await expect(page.locator(`.bar.highlight[data-bar-index="${n - 1}"]`)).toBeAttached();
});

test('hovering a bar shows the prompt gist and time span; zoom buttons narrow the view', async ({ page }) => {
  await loadLong(page);
  // The first draw comes a step per painted frame (lanes, axis, minimap); data-drawn once all are there.
  await expect(page.locator('.timeline[data-drawn] .tl-minimap')).toBeVisible();
  await expect(page.locator('.timeline[data-drawn] svg g.ticks')).toBeAttached();
  const bar = await barOfTurn(page, 10);
  await bar.hover();
  const tip = page.getByRole('tooltip');
  await expect(tip).toContainText('Question number 10');
  await expect(tip).toContainText(/\d{1,2}:\d{2}/);
  const visibleBars = () => page.locator('[data-segment-id][data-bar-index]').count();
  const before = await visibleBars();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect.poll(visibleBars).toBeLessThan(before);
});

test('the timeline is keyboard reachable: arrows move between segments, Enter lands', async ({ page }) => {
  await loadLong(page);
  const plot = page.getByRole('application').or(page.locator('[aria-label^="Timeline of"]')).first();
  await plot.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-atom-uuid="a3"]')).toBeInViewport();
});

test('a session of 500 segments draws every bar and dot as an element, once data-drawn', async ({ page }) => {
  // Over WHOLE_DRAW_MAX (100) bars: the first draw adds them a slice a task, 50 then 100 (TimelineView.detailLimit).
  const turns = 500;
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({ name: 'longer.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(longSession(turns)) });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('.timeline[data-drawn]')).toHaveAttribute('data-detail', 'elements');
  await expect(page.locator('.timeline rect.bar[data-bar-index]')).toHaveCount(turns);
  await expect(page.locator('.timeline circle[data-dot-index]')).toHaveCount(turns);
});
