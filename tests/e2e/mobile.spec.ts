// Small screens, touch, zoom, contrast and motion (issue 15): a phone-sized viewport with touch,
// the 320 px reflow width, and a desktop zoomed to 400 % (320 × 256 CSS px). Every view checked
// here must not scroll sideways, keep its actions reachable, and answer taps.
import AxeBuilder from '@axe-core/playwright';
import { devices, expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { CORPUS, openApp, pickFiles, pickFolder, timelineSettled } from './helpers';

const TOOLS = join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl');
const PROJECTS = join(CORPUS, 'claude-code-log/test/test_data/real_projects');

const VIEWPORTS = {
  'Pixel 7': { viewport: devices['Pixel 7'].viewport, hasTouch: true, isMobile: true },
  'iPhone-sized': { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  '320 × 640': { viewport: { width: 320, height: 640 }, hasTouch: true },
  '400 % zoom of 1280 × 1024': { viewport: { width: 320, height: 256 }, deviceScaleFactor: 4 }
} as const;

/** Loads one of the views this issue names. */
const VIEWS: Record<string, (page: Page) => Promise<void>> = {
  'start page': async (page) => {
    await openApp(page);
    await expect(page.locator('html')).toHaveAttribute('data-state', 'empty');
  },
  'sample session': async (page) => {
    await page.goto('/?sample');
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  },
  'corpus file': async (page) => {
    await openApp(page);
    await pickFiles(page, [TOOLS]);
  },
  'project tree': async (page) => {
    await openApp(page);
    await pickFolder(page, PROJECTS);
  }
};

/** The page's own horizontal overflow, and the elements that stick out of the viewport. */
async function sideways(page: Page): Promise<{ scrollWidth: number; clientWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const w = root.clientWidth;
    const culprits: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      // Content inside an element that scrolls on its own (terminal blocks, diffs) does not count.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const ox = getComputedStyle(p).overflowX;
        if (ox !== 'visible') { clipped = true; break; }
      }
      if (clipped) continue;
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 0.5) culprits.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} → ${Math.round(r.right)}`);
    }
    return { scrollWidth: Math.max(root.scrollWidth, document.body.scrollWidth), clientWidth: w, culprits: culprits.slice(0, 8) };
  });
}

async function expectNoSidewaysScroll(page: Page) {
  const m = await sideways(page);
  expect(m.culprits, `elements past the right edge at ${m.clientWidth} px`).toEqual([]);
  expect(m.scrollWidth).toBeLessThanOrEqual(m.clientWidth);
}

for (const [device, opts] of Object.entries(VIEWPORTS)) {
  test.describe(`${device}`, () => {
    test.use(opts);
    for (const [view, load] of Object.entries(VIEWS)) {
      test(`${view}: no sideways scroll, with the menu and the drawer open too`, async ({ page }) => {
        await load(page);
        await expectNoSidewaysScroll(page);
        const toggle = page.getByRole('button', { name: 'Menu' });
        await toggle.click();
        await expect(page.locator('#toolbar-actions')).toBeVisible();
        await expectNoSidewaysScroll(page);
        await page.keyboard.press('Escape');
        await expect(page.locator('#toolbar-actions')).toBeHidden();
        const drawer = page.getByRole('button', { name: /^Sessions \(\d+\)$/ });
        if (await drawer.count()) {
          await drawer.click();
          await expect(page.locator('#session-drawer')).toBeVisible();
          await expectNoSidewaysScroll(page);
        }
      });
    }
  });
}

test.describe('Pixel 7 with touch', () => {
  test.use(VIEWPORTS['Pixel 7']);

  test('the session title stays visible and every toolbar action is in the menu, 44 px tall', async ({ page }) => {
    await VIEWS['sample session'](page);
    const title = page.locator('[data-session-title]');
    await expect(title).toBeInViewport({ ratio: 1 });
    expect((await title.boundingBox())!.width).toBeGreaterThan(100);
    // Folded: the actions are not on screen until the menu opens.
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeHidden();
    await page.getByRole('button', { name: 'Menu' }).tap();
    const actions = page.locator('#toolbar-actions > *');
    const names = await actions.allInnerTexts();
    expect(names.map((n) => n.trim())).toEqual(expect.arrayContaining(['Open files', 'Open folder', 'Copy link', expect.stringMatching(/^Theme/)]));
    for (let i = 0; i < (await actions.count()); i++) {
      const a = actions.nth(i);
      await expect(a).toBeInViewport({ ratio: 1 });
      const box = (await a.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    // An action from the menu works, and choosing it folds the menu.
    const before = await page.locator('html').getAttribute('data-theme');
    await page.getByRole('button', { name: /^Theme/ }).tap();
    await expect(page.locator('#toolbar-actions')).toBeHidden();
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).not.toBe(before);
  });

  test('a tap on a tool group opens it; row toggles are at least 44 × 44 px', async ({ page }) => {
    await VIEWS['corpus file'](page);
    const group = page.locator('[data-row-kind=tool-group]').first();
    const toggle = group.locator('button[aria-expanded]').first();
    await toggle.scrollIntoViewIfNeeded();
    const box = (await toggle.boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.width).toBeGreaterThanOrEqual(44);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.tap();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expectNoSidewaysScroll(page);
  });

  test('a tap on a row shows its time inside the row (no hover needed)', async ({ page }) => {
    await VIEWS['sample session'](page);
    const row = page.locator('[data-row-kind=assistant]').first();
    const time = row.locator('> .time');
    await expect(time).toHaveCSS('opacity', '0');
    await row.tap();
    await expect(time).toHaveCSS('opacity', '1');
    // Both boxes from one frame: the timeline arrives after the first chat frame and may move the
    // chat between two separate measurements.
    const [r, t] = await row.evaluate((el) => [el.getBoundingClientRect(), el.querySelector(':scope > .time')!.getBoundingClientRect()].map((b) => ({ x: b.x, y: b.y, width: b.width })));
    expect(t.x).toBeGreaterThanOrEqual(r.x);
    expect(t.x + t.width).toBeLessThanOrEqual(r.x + r.width + 0.5);
    expect(t.y).toBeGreaterThanOrEqual(r.y);
  });

  test('the timeline starts as a strip; a tap unfolds it, a pinch zooms it, a tap on a bar shows its tooltip', async ({ page }) => {
    await VIEWS['sample session'](page);
    const strip = page.getByRole('button', { name: /^Timeline/ });
    await expect(strip).toHaveAttribute('aria-expanded', 'false');
    await expect(page.locator('.tl-minimap')).toBeHidden();
    await strip.tap();
    await expect(page.locator('.tl-minimap')).toBeVisible();
    const windowWidth = async () => Number(await page.locator('.tl-minimap .window').getAttribute('width'));
    const full = await windowWidth();
    const svg = page.locator('.plot svg');
    const b = (await svg.boundingBox())!;
    const y = b.y + b.height / 2;
    const cx = b.x + b.width / 2;
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: cx - spread, y, id: 1 }, { x: cx + spread, y, id: 2 }]
      });
    await touch('touchStart', 10);
    for (const s of [20, 35, 50, 70]) await touch('touchMove', s);
    await touch('touchEnd', 70);
    await expect.poll(windowWidth).toBeLessThan(full * 0.6);
    const bar = page.locator('[data-segment-id][data-bar-index]').first();
    await bar.tap();
    await expect(page.getByRole('tooltip')).toBeVisible();
  });

  test('axe finds no serious or critical violation on a phone, with the menu open, and in forced colours', async ({ page }) => {
    await VIEWS['corpus file'](page);
    const check = async () => {
      const results = await new AxeBuilder({ page }).analyze();
      const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`)).toEqual([]);
    };
    await check();
    await page.getByRole('button', { name: 'Menu' }).tap();
    await check();
    await page.emulateMedia({ forcedColors: 'active' });
    await check();
  });
});

test.describe('forced colours and reduced motion', () => {
  /** A turn still running: a Bash call whose result has not arrived. Its glyph pulses. */
  function runningSession(): string {
    const base = { sessionId: 'live-1', cwd: '/w', version: '2.1.30', isSidechain: false, userType: 'external' };
    const t = Date.now() - 2_000;
    return [
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, timestamp: new Date(t).toISOString(), message: { role: 'user', content: 'run the tests' } },
      { ...base, type: 'assistant', uuid: 'c1', parentUuid: 'u1', timestamp: new Date(t + 500).toISOString(), message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }], stop_reason: 'tool_use', usage: { input_tokens: 3, output_tokens: 2 } } }
    ].map((l) => JSON.stringify(l)).join('\n') + '\n';
  }

  async function openRunning(page: Page) {
    await openApp(page);
    await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({ name: 'running.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(runningSession()) });
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
    const toggle = page.locator('[data-row-kind] button[aria-expanded]').first();
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    await expect(page.getByRole('img', { name: 'running' }).first()).toBeVisible();
  }

  const running = (page: Page) => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);

  test('a running call pulses normally and not at all with reduced motion', async ({ page }) => {
    await openRunning(page);
    expect(await running(page)).toBeGreaterThan(0);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => running(page)).toBe(0);
  });

  test('forced colours keep the landed row and focus visible', async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto('/?sample');
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const row = page.locator('[data-row-kind=user]').first();
    await row.focus();
    expect(await row.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  });
});

test.describe('text size', () => {
  test('the chat text follows the browser font size (rem, not px)', async ({ page }) => {
    await page.goto('/?sample');
    await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    const size = () => page.locator('[data-row-kind=assistant]').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const before = await size();
    await page.evaluate(() => { document.documentElement.style.fontSize = '32px'; });
    expect(await size()).toBeGreaterThan(before * 1.6);
  });
});

test('desktop: the hover time of a row sits inside the row', async ({ page }) => {
  await page.goto(`/?sample`);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await timelineSettled(page);
  for (const kind of ['user', 'assistant', 'tool-group']) {
    const row = page.locator(`[data-row-kind=${kind}]`).first();
    await row.hover();
    const time = row.locator('> .time');
    await expect(time).toHaveCSS('opacity', '1');
    const r = (await row.boundingBox())!;
    const t = (await time.boundingBox())!;
    expect(t.x, kind).toBeGreaterThanOrEqual(r.x);
    expect(t.x + t.width, kind).toBeLessThanOrEqual(r.x + r.width + 0.5);
    expect(t.y, kind).toBeGreaterThanOrEqual(r.y);
    expect(t.y + t.height, kind).toBeLessThanOrEqual(r.y + r.height + 0.5);
  }
  await expectNoSidewaysScroll(page);
});


/** A panel or dialog that fits: inside the viewport horizontally, and the page does not scroll sideways. */
async function expectFits(page: Page, selector: string) {
  const box = (await page.locator(selector).first().boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, selector).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, selector).toBeLessThanOrEqual(width + 0.5);
  await expectNoSidewaysScroll(page);
}

for (const device of ['Pixel 7', '320 × 640'] as const) {
  test.describe(`${device}: this round's panels`, () => {
    test.use(VIEWPORTS[device]);

    test('search, usage and the share / export dialog fit the screen and are reached through the menu', async ({ page }) => {
      await VIEWS['corpus file'](page);
      const menu = page.getByRole('button', { name: 'Menu' });
      // Search: the field is in the menu; typing keeps the menu open and the results fit.
      await menu.click();
      await page.locator('input[type=search]').fill('the');
      await expect(page.locator('[data-search-count]')).toHaveText(/^\d+ result/);
      await menu.click(); // folds the menu; Esc would close the search itself
      await expect(page.locator('#toolbar-actions')).toBeHidden();
      await expectFits(page, 'section.results');
      // Usage: a menu action; its panel covers the chat instead of squeezing it.
      await menu.click();
      await page.locator('[data-action=usage]').click();
      await expect(page.locator('[data-usage-panel]')).toBeVisible();
      await expectFits(page, '[data-usage-panel]');
      await expect(page.locator('[data-chart=context]')).toBeVisible();
      await page.locator('[data-action=usage]').evaluate((b: HTMLElement) => b.click());
      // Export and Copy link open the one dialog; it fits, and its controls are reachable.
      await menu.click();
      await page.locator('[data-action=export]').click();
      const dialog = page.locator('[data-dialog="share"]');
      await expect(dialog).toBeVisible();
      await expectFits(page, '[data-dialog="share"]');
      await expect(dialog.locator('[data-action="download"]')).toBeVisible();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await menu.click();
      await page.getByRole('button', { name: 'Copy link' }).click();
      await expect(dialog).toHaveAttribute('data-purpose', 'share');
      await expectFits(page, '[data-dialog="share"]');
    });

    test('the project tree: the timeline overview and the session drawer fit', async ({ page }) => {
      await VIEWS['project tree'](page);
      await page.getByRole('button', { name: /^Timeline/ }).click();
      const allSessions = page.getByRole('button', { name: 'All sessions' });
      await allSessions.click();
      await expect(page.locator('[data-overview-row]').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.getByRole('button', { name: /^Sessions \(\d+\)$/ }).click();
      await expectFits(page, '#session-drawer');
      await page.locator('#session-drawer [data-session-key]').nth(1).click();
      await expect(page.locator('#session-drawer')).toBeHidden();
    });
  });
}
