// Issue 12: export and share safely. The dialog lists each planted fake secret once, downloads
// and links are redacted, the one-file HTML opened from disk renders the session without a
// single request leaving the page, and the hostile fixtures run nothing in it.
import { expect, test, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeShare, encodeShare } from '../../src/lib/view/links/share';
import { ROOT, filesUnder, openApp, pickFiles, pickFolder } from './helpers';

const PLANTED = join(ROOT, 'fixtures/redaction/planted');
const SECRETS = JSON.parse(readFileSync(join(ROOT, 'fixtures/redaction/secrets.json'), 'utf8')) as Record<string, string>;
/** Kinds the default choices redact (e-mail addresses are optional, off by default). */
const DEFAULT_KINDS = Object.keys(SECRETS).filter((k) => k !== 'email');

function leaks(text: string): string[] {
  return DEFAULT_KINDS.filter((k) => {
    const v = SECRETS[k];
    const needles = k === 'private-key' ? v.split('\n').slice(1, 3) : k === 'home-path' ? ['alicefake'] : [v.replace(/^https:\/\//, '').slice(0, 40)];
    return needles.some((n) => text.includes(n));
  });
}

const exportText = (page: Page, format: string, redact = true) =>
  page.evaluate(([f, r]) => (window as unknown as { __loupe: { exportText: (f: string, o: object) => Promise<string> } }).__loupe.exportText(f as string, { redact: r }), [format, redact] as const);

const tmp = () => mkdtempSync(join(tmpdir(), 'loupe-export-'));

test('the export dialog lists each planted secret once, and downloads are redacted', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, PLANTED);
  await page.locator('[data-action="export"]').click();
  const dialog = page.locator('[data-dialog="share"]');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[data-finding-kind]').first()).toBeVisible();
  const kinds = await dialog.locator('[data-finding-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-finding-kind')));
  expect([...kinds].sort()).toEqual([...DEFAULT_KINDS].sort());
  // A preview never shows a whole secret.
  const shown = await dialog.innerText();
  expect(leaks(shown)).toEqual([]);

  for (const format of ['markdown', 'html', 'strap']) {
    await dialog.locator(`input[name="export-format"][value="${format}"]`).check();
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-action="download"]').click()]);
    const text = readFileSync((await download.path()) as string, 'utf8');
    expect(leaks(text), format).toEqual([]);
    expect(text, format).toContain('[REDACTED:');
    // The automation hook holds exactly what the download holds.
    expect(await exportText(page, format)).toBe(text);
  }
  await expect(dialog.locator('[role=status]')).toContainText(/Saved .+ \(\d/);
  // Without redaction the secrets are there (the check above can fail).
  expect(leaks(await exportText(page, 'markdown', false)).length).toBeGreaterThan(DEFAULT_KINDS.length / 2);
});

test('unticking one finding keeps exactly that string in the download', async ({ page }) => {
  await openApp(page);
  await pickFolder(page, PLANTED);
  await page.locator('[data-action="export"]').click();
  const dialog = page.locator('[data-dialog="share"]');
  await dialog.locator('[data-finding-kind="slack-bot-token"] input[type=checkbox]').uncheck();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-action="download"]').click()]);
  const text = readFileSync((await download.path()) as string, 'utf8');
  expect(leaks(text)).toEqual(['slack-bot-token']);
});

test('Copy link runs the redaction dialog: a session opened from a #z= link is shared redacted', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const files = filesUnder(PLANTED).map((p) => ({ name: p.slice(PLANTED.length + 1), text: readFileSync(p, 'utf8') }));
  const incoming = await encodeShare(files);
  expect(incoming.ok).toBe(true);
  await page.goto(`/#z=${incoming.ok ? incoming.payload : ''}`);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready');
  await page.getByRole('button', { name: 'Copy link' }).click();
  const dialog = page.locator('[data-dialog="share"]');
  await expect(dialog).toHaveAttribute('data-purpose', 'share');
  await expect(dialog.locator('[data-finding-kind="github-pat"]')).toHaveCount(1);
  await dialog.locator('[data-action="copy-link"]').click();
  await expect(dialog).toBeHidden();
  const link = await page.locator('input.link').inputValue();
  const z = new URL(link).hash.match(/[#&]z=([^&]+)/)?.[1] ?? '';
  const back = await decodeShare(z);
  expect(back.ok).toBe(true);
  const text = back.ok ? back.files.map((f) => f.text).join('\n') : '';
  expect(leaks(text)).toEqual([]);
  expect(text).toContain('[REDACTED:github-pat]');
});

test('the one-file HTML opened from disk renders the session and requests nothing', async ({ page, browser }) => {
  await openApp(page);
  await pickFolder(page, PLANTED);
  const html = await exportText(page, 'html');
  const file = join(tmp(), 'planted.html');
  writeFileSync(file, html);
  const offline = await browser.newPage();
  const requests: string[] = [];
  offline.on('request', (r) => requests.push(r.url()));
  const url = pathToFileURL(file).href;
  await offline.goto(url);
  await expect(offline.locator('[data-row-kind="user"]').first()).toBeVisible();
  await expect(offline.locator('[data-row-kind="delegation"]')).toHaveCount(1);
  // Rows expand and collapse.
  const group = offline.locator('[data-row-kind="tool-group"] details').first();
  await group.locator(':scope > summary').click();
  await expect(group).toHaveAttribute('open', '');
  // Themes switch without a script.
  const bg = () => offline.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await offline.locator('label[for=theme-dark]').click();
  const dark = await bg();
  await offline.locator('label[for=theme-light]').click();
  expect(await bg()).not.toBe(dark);
  expect(requests).toEqual([url]);
  await offline.close();
});

test('hostile transcripts: nothing runs in their one-file HTML export', async ({ page, browser }) => {
  const dir = tmp();
  await openApp(page);
  for (const fixture of filesUnder(join(ROOT, 'fixtures/hostile'))) {
    await pickFiles(page, [fixture]);
    const file = join(dir, `${fixture.split('/').pop()}.html`);
    writeFileSync(file, await exportText(page, 'html'));
    const offline = await browser.newPage();
    const dialogs: string[] = [];
    const requests: string[] = [];
    offline.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    offline.on('request', (r) => requests.push(r.url()));
    await offline.goto(pathToFileURL(file).href);
    await expect(offline.locator('[data-row-kind]').first()).toBeAttached();
    // Open every row so hidden content is laid out too.
    await offline.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    expect(await offline.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), fixture).toBeUndefined();
    expect(await offline.locator('script, iframe, object, embed').count(), fixture).toBe(0);
    const handlers = await offline.locator('body *').evaluateAll((els) =>
      els.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value)).map((a) => `${e.tagName} ${a.name}`))
    );
    expect(handlers, fixture).toEqual([]);
    expect(dialogs, fixture).toEqual([]);
    expect(requests, fixture).toEqual([pathToFileURL(file).href]);
    await offline.close();
  }
});

test('a session too large for a link offers the one-file HTML instead, redacted', async ({ page }) => {
  // About 2.4 MB of random base64: it compresses to more than a link carries.
  const noise = randomBytes(1_800_000).toString('base64');
  const line = (o: object) => JSON.stringify({ sessionId: 'big', cwd: '/Users/bigfake/x', version: '2.1.30', isSidechain: false, userType: 'external', ...o });
  const text = [
    line({ type: 'user', uuid: 'u1', parentUuid: null, timestamp: '2026-11-01T09:00:00Z', promptSource: 'typed', message: { role: 'user', content: `token ${SECRETS['github-pat']} and noise:\n${noise.match(/.{1,100}/g)!.join('\n')}` } }),
    line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: '2026-11-01T09:00:05Z', message: { id: 'm1', role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'Noted.' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } } })
  ].join('\n');
  const file = join(tmp(), 'too-large.jsonl');
  writeFileSync(file, text + '\n');
  await openApp(page);
  await pickFiles(page, [file]);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const dialog = page.locator('[data-dialog="share"]');
  await dialog.locator('[data-action="copy-link"]').click();
  await expect(dialog.locator('[role=status]')).toContainText('too large to travel inside a link');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.locator('[data-action="download-html"]').click()]);
  expect(download.suggestedFilename()).toMatch(/\.html$/);
  const html = readFileSync((await download.path()) as string, 'utf8');
  expect(html).toContain('Noted.');
  expect(html).toContain('[REDACTED:github-pat]');
  expect(html).not.toContain(SECRETS['github-pat']);
  expect(html).not.toContain('bigfake');
});
