// Issue 4: the chat zoom — row kinds, groups, subagents, diffs, images, hostile input, a11y,
// virtualization and remembered choices.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { CORPUS, ROOT, drawnFaces, filesUnder, openApp, pickFiles, scrollToRow, stats, waitCached, timelineSettled } from './helpers';
import { WORKSPACE_FONTS, faceKey } from '../../src/lib/components/app/font-warmup';
import { longSession } from './make-session';

const TOOLS = join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl');
const IMAGES = join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/images-in-tool-results.jsonl');
const INLINE_SIDECHAINS = join(CORPUS, 'claude-code-viewer/mock-global-claude-dir/projects/sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
/** An Edit call in general-tool-calls.jsonl whose result carries a structuredPatch. */
const EDIT_ATOM = '0429aa68-9db5-4902-bb6a-76d51acfb917';

const sessionKey = (page: Page) => page.locator('main[data-session-key]').getAttribute('data-session-key');

test('a corpus session shows prompts, replies and tool work as their own row kinds', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [TOOLS]);
  for (const kind of ['user', 'assistant']) await expect(page.locator(`[data-row-kind=${kind}]`).first()).toBeAttached();
  await expect(page.locator('[data-row-kind=tool-group], [data-row-kind=tool]').first()).toBeAttached();
  const kinds = await page.locator('[data-row-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-row-kind')));
  const allowed = ['user', 'assistant', 'thinking', 'tool-group', 'tool', 'delegation', 'question', 'approval', 'compaction', 'error', 'notice', 'raw'];
  expect(kinds.filter((k) => !allowed.includes(k ?? ''))).toEqual([]);
});

test('a tool group expands and collapses, and the choice survives a reload', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [TOOLS]);
  const group = await scrollToRow(page, '[data-row-kind=tool-group]');
  const head = group.locator('button[aria-expanded]').first();
  await expect(head).toHaveAttribute('aria-expanded', 'false');
  await expect(group.locator('[data-row-kind=tool]')).toHaveCount(0);
  await head.click();
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  await expect(group.locator('[data-row-kind=tool]').first()).toBeVisible();
  const uuid = await group.getAttribute('data-atom-uuid');

  // Reopen the same session from the cache: the group is still open.
  await waitCached(page);
  const key = await sessionKey(page);
  await page.goto(`/#s=${key}`);
  await page.reload(); // a fresh page: the session comes back from IndexedDB
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  const again = page.locator(`[data-row-kind=tool-group][data-atom-uuid="${uuid}"]`);
  await again.scrollIntoViewIfNeeded();
  await expect(again.locator('button[aria-expanded]').first()).toHaveAttribute('aria-expanded', 'true');
  await again.locator('button[aria-expanded]').first().click();
  await expect(again.locator('[data-row-kind=tool]')).toHaveCount(0);
});

test('Enter on a focused row toggles it', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [TOOLS]);
  const group = page.locator('[data-row-kind=tool-group]').first();
  await group.scrollIntoViewIfNeeded();
  await group.focus();
  await page.keyboard.press('Enter');
  await expect(group.locator('[data-row-kind=tool]').first()).toBeVisible();
});

test('a deep link lands on an Edit, shown as a diff with its +N −M stat', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [TOOLS]);
  await waitCached(page);
  const key = await sessionKey(page);
  await page.goto(`/#s=${key}&a=${EDIT_ATOM}`);
  await page.reload(); // the link opened fresh: session from the cache, then the landing
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  const target = page.locator(`[data-atom-uuid="${EDIT_ATOM}"]`).first();
  await expect(target).toBeInViewport();
  // Edit renderers collapse the diff under the call; open it if needed.
  const toggle = target.locator('button[aria-expanded="false"]').first();
  if (await toggle.count()) await toggle.click();
  const stat = target.locator('.stat').first();
  await expect(stat).toBeVisible();
  await expect(stat).toHaveText(/\+\d+\s+−\d+/);
});

test('a subagent (inline sidechain) is a collapsed delegation whose child transcript opens', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [INLINE_SIDECHAINS]);
  const delegation = await scrollToRow(page, '[data-row-kind=delegation]');
  await expect(delegation.locator('[data-row-kind]')).toHaveCount(0);
  await delegation.locator('button[aria-expanded]').first().click();
  await expect(delegation.locator('[data-row-kind]').first()).toBeVisible();
});

test('images in tool results are thumbnails that open full size', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [IMAGES]);
  // Images sit inside tool rows; open groups until one shows.
  const heads = page.locator('[data-row-kind=tool-group] button[aria-expanded="false"], [data-row-kind=tool] button[aria-expanded="false"]');
  for (let i = 0; i < 20 && !(await page.locator('button.thumb img').count()); i++) {
    if (!(await heads.count())) break;
    await heads.first().click();
  }
  const thumb = page.locator('button.thumb').first();
  await thumb.scrollIntoViewIfNeeded();
  await expect(thumb.locator('img')).toHaveAttribute('src', /^data:image\/(png|jpeg|gif|webp);base64,/);
  await thumb.click();
  await expect(page.getByAltText(/^Full size/)).toBeVisible();
});

test('hostile transcripts: nothing runs, the payloads read as text', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await openApp(page);
  for (const file of filesUnder(join(ROOT, 'fixtures/hostile'))) {
    await pickFiles(page, [file]);
    // Open every collapsed row so renderers of hidden content run too.
    for (let i = 0; i < 60; i++) {
      const closed = page.locator('main button[aria-expanded="false"]');
      if (!(await closed.count())) break;
      await closed.first().click();
    }
    await expect(page.locator('[data-row-kind]').first()).toBeAttached();
    // Markdown shows as plain text until its HTML is back from the Markdown worker and sanitized:
    // check what they rendered.
    await expect(page.locator('main [data-md=plain]')).toHaveCount(0);
    const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
    expect(pwned, `a payload ran in ${file}`).toBeUndefined();
    expect(await page.locator('main script, main iframe, main object, main embed').count()).toBe(0);
    const handlers = await page.locator('main *').evaluateAll((els) =>
      els.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)).map((a) => `${e.tagName} ${a.name}`))
    );
    expect(handlers, file).toEqual([]);
  }
  await expect(page.locator('main')).toContainText('<script');
  expect(dialogs).toEqual([]);
});

test('the page ships a Content-Security-Policy without inline or remote scripts', async ({ page }) => {
  await openApp(page);
  const csp = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
  const scriptSrc = csp?.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src')) ?? '';
  expect(scriptSrc).toMatch(/^script-src 'self'/);
  expect(scriptSrc).not.toContain('unsafe-inline');
  expect(scriptSrc).not.toMatch(/https?:/);
  expect(csp).toContain("object-src 'none'");
});

test('axe finds no serious or critical accessibility violations', async ({ page }) => {
  await openApp(page);
  await pickFiles(page, [TOOLS]);
  const group = page.locator('[data-row-kind=tool-group]').first();
  await group.locator('button[aria-expanded]').first().click();
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`)).toEqual([]);
});

test('15,000 atoms keep fewer than 2,000 chat elements in the DOM, and j / k move by turns', async ({ page }) => {
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'big.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(longSession(3800))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  expect((await stats(page)).atoms).toBeGreaterThanOrEqual(15_000);
  const count = () => page.locator('main .chat-viewport *').count();
  expect(await count()).toBeLessThan(2000);
  await page.locator('main .chat-viewport').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  await expect(page.locator('[data-row-kind]').first()).toBeAttached();
  expect(await count()).toBeLessThan(2000);
  await page.locator('main .chat-viewport').evaluate((el) => el.scrollTo(0, 0));
  await expect(page.locator('[data-atom-uuid="u1"]')).toBeInViewport();
  await page.keyboard.press('j');
  await expect(page.locator('[data-atom-uuid="u2"]')).toBeInViewport();
});

test('Markdown is rendered off the page: prose and highlighted code come from the Markdown worker', async ({ page }) => {
  const lines = longSession(2).trim().split('\n').map((l) => JSON.parse(l));
  lines.find((l) => l.uuid === 'a1').message.content[0].text = 'Here is **the fix**:\n\n```ts\nconst answer: number = 42;\n```\n';
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'code.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n') + '\n')
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  const reply = page.locator('[data-atom-uuid="a1"]');
  await expect(reply.locator('strong')).toHaveText('the fix');
  await expect(reply.locator('code.language-typescript .hljs-keyword').first()).toHaveText('const');
  await expect(page.locator('main [data-md=plain]')).toHaveCount(0);
  const md = await page.evaluate(() => (window as unknown as { __loupe: { markdown(): { inWorker: number; onPage: number; failed: boolean } } }).__loupe.markdown());
  expect(md).toEqual({ inWorker: expect.any(Number), onPage: 0, failed: false });
  expect(md.inWorker).toBeGreaterThanOrEqual(2);
});

test('every font face the chat draws for the corpus sessions is resolved ahead (font-warmup.ts)', async ({ page }) => {
  test.setTimeout(120_000);
  const LOG = join(CORPUS, 'claude-code-log/test/test_data/real_projects');
  const sessions = [
    TOOLS,
    INLINE_SIDECHAINS,
    join(LOG, '-experiments-worktrees/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl'),
    join(LOG, '-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl'),
    join(CORPUS, 'session-share/samples/claude-code-projects/0ccf1a04-1b4c-43b6-8aa5-79e41db43a68.jsonl')
  ];
  await openApp(page);
  const warmed = new Set(WORKSPACE_FONTS.map(faceKey));
  const missing = new Set<string>();
  for (const file of sessions) {
    await pickFiles(page, [file]);
    // Screen by screen through the first part of each chat, its Markdown rendered.
    for (let screen = 0; screen < 8; screen++) {
      await expect(page.locator('main [data-md=plain]')).toHaveCount(0);
      for (const face of await drawnFaces(page)) if (!warmed.has(face)) missing.add(face);
      await page.locator('main .chat-viewport').evaluate((el) => el.scrollBy(0, el.clientHeight * 0.9));
    }
  }
  expect([...missing]).toEqual([]);
});

test('the theme follows the system, toggles, and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const systemDark = await bg();
  const toggle = page.getByRole('button', { name: /^Theme:/ });
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await bg()).not.toBe(systemDark);
  await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await bg()).toBe(systemDark);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('landing on a call inside a collapsed group opens the group and shows the call', async ({ page }) => {
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'grouped.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(longSession(60, { calls: 3 }))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  const key = await sessionKey(page);
  await page.goto(`/#s=${key}&a=c40_2`);
  const target = page.locator('[data-atom-uuid="c40_2"]');
  await expect(target).toBeInViewport();
  const group = page.locator('[data-row-kind=tool-group]', { has: target });
  await expect(group.locator('button[aria-expanded]').first()).toHaveAttribute('aria-expanded', 'true');
  // Only that group was opened: the next turn's group keeps its default.
  await expect(page.locator('[data-row-kind=tool-group][data-atom-uuid="c41"] button[aria-expanded]').first()).toHaveAttribute('aria-expanded', 'false');
});

test('expanding a group does not move the row under the pointer', async ({ page }) => {
  await openApp(page);
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles({
    name: 'grouped.jsonl',
    mimeType: 'application/jsonl',
    buffer: Buffer.from(longSession(60, { calls: 4 }))
  });
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await timelineSettled(page);
  await page.locator('main .chat-viewport').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  // Wait until the list has moved its window (the first drawn group is from a later turn) and
  // the rows of that window have arrived, before picking one.
  const firstGroupTurn = async () => Number(/^c(\d+)/.exec((await page.locator('[data-row-kind=tool-group]').first().getAttribute('data-atom-uuid')) ?? '')?.[1] ?? 0);
  await expect.poll(firstGroupTurn).toBeGreaterThan(10);
  await expect(page.locator('[data-slot][data-placeholder="1"]')).toHaveCount(0);
  // And their Markdown has come: a reply above the group turning from plain text to HTML changes
  // its height, which moves the group whatever the click does (a 39 px move, once in a full run).
  await expect(page.locator('main [data-md=plain]')).toHaveCount(0);
  const uuid = await page.locator('[data-row-kind=tool-group]').nth(2).getAttribute('data-atom-uuid');
  const head = page.locator(`[data-row-kind=tool-group][data-atom-uuid="${uuid}"] button[aria-expanded]`).first();
  await expect(head).toHaveAttribute('aria-expanded', 'false');
  await head.hover();
  const before = await head.boundingBox();
  await head.click();
  await expect(head).toHaveAttribute('aria-expanded', 'true');
  const after = await head.boundingBox();
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThanOrEqual(1);
});
