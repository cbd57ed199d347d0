// Issue 25: the Firefox smoke — a subset of the end-to-end suite in Debian's firefox-esr over
// WebDriver BiDi (node:test, run by scripts/test-all.mjs): the sample, a file through the real
// file input, a file drop and a folder drop through the fallback Firefox takes (webkitGetAsEntry, no File
// System Access), search, usage, export and the share link. Every test also fails on a page error.
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { writeSearchProject } from '../e2e/search-fixture.ts';
import { BASE, ROOT, dropFiles, dropFolder, launch, newPage, openApp, pickFiles, startServer, stopServer, textOf, until, waitButton, waitSel, waitState, waitText } from './firefox.ts';

const CORPUS = join(ROOT, 'fixtures/corpus');
const TOOLS = join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/general-tool-calls.jsonl');
const USAGE = join(ROOT, 'fixtures/usage/project');
const PLANTED = join(ROOT, 'fixtures/redaction/planted');

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let tree = '';
/** Small trees of their own (nothing in them stored yet): each drop's history pass reads them. */
const passes: string[] = [];

before(async () => {
  server = await startServer();
  browser = await launch();
  const out = mkdtempSync(join(tmpdir(), 'loupe-ff-'));
  tree = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '1', '--sessions', '10', '--projects', '2', '--seed', '7', '--out', tree]);
  for (let i = 0; i < 6; i++) {
    passes.push(join(out, `pass-${i}`, 'projects'));
    execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '0.2', '--sessions', '3', '--projects', '1', '--seed', String(20 + i), '--out', passes[i]]);
  }
});

after(async () => {
  await browser?.close();
  stopServer(server);
  if (tree) rmSync(join(tree, '..'), { recursive: true, force: true });
});

/** A fresh context per test (nothing cached from another test), a desktop-sized viewport. */
async function onePage(fn: (page: Page) => Promise<void>): Promise<void> {
  const { page, errors } = await newPage(browser!);
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text().slice(0, 300)));
  try {
    await fn(page);
    assert.deepEqual(errors, [], 'page errors');
  } catch (e) {
    await diagnose(page, errors, logs);
    throw e;
  } finally {
    await page.browserContext().close();
  }
}

/** After a failed wait: whether the page and its engine still answer (each asked with a bound). */
async function diagnose(page: Page, errors: string[], logs: string[]): Promise<void> {
  const bounded = (expr: string) =>
    Promise.race([page.evaluate(`(async () => JSON.stringify(await window.__loupe.${expr}))()`).then(String), new Promise<string>((r) => setTimeout(() => r('no answer in 5 s'), 5000))]).catch((e) => `threw ${e}`);
  console.log(`# diagnose: state ${await page.evaluate(() => document.documentElement.dataset.state).catch(() => '?')}`);
  for (const expr of ['stats()', 'history()', 'scanStats()', 'historySearchStatus()']) console.log(`# diagnose: ${expr} → ${(await bounded(expr)).slice(0, 300)}`);
  console.log(`# diagnose: page errors ${JSON.stringify(errors)}; last console lines ${JSON.stringify(logs.slice(-8))}`);
}

/**
 * In CI a failed test runs once more in a fresh context and says so ("# flaky"), as the Chromium
 * suite does (playwright.config.ts). The two flakes this suite was known for are fixed: an open or
 * a click "stalling" after a drop (the history progress line moved the session list under the
 * pointer; HistoryProgress.svelte, pinned by e2e/history.spec.ts), and a panel that asks the engine
 * right after a drop not answering in 30 s: the engine's worker started and ended its lanes' workers
 * itself, which in Firefox under WebDriver leaves its thread stuck (they are the page's workers now:
 * lane-worker.ts; pinned by the history-passes test below, which hung on the old code). A failure
 * prints whether the page and the engine still answer.
 */
async function withPage(fn: (page: Page) => Promise<void>): Promise<void> {
  const tries = process.env.CI ? 2 : 1;
  for (let i = 1; ; i++) {
    try {
      return await onePage(fn);
    } catch (e) {
      if (i >= tries) throw e;
      console.log(`# flaky: failed on try ${i}, retrying in a fresh context (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    }
  }
}

const loupe = <T>(page: Page, expr: string): Promise<T> => page.evaluate(`(async () => window.__loupe.${expr})()`) as Promise<T>;
const rowCount = (page: Page) => page.evaluate(() => document.querySelectorAll('main [data-row-kind]').length);

test('Firefox is the browser driven, without the File System Access API', async () => {
  assert.match(await browser!.version(), /^firefox\//i);
  await withPage(async (page) => {
    await openApp(page);
    assert.deepEqual(await page.evaluate(() => [typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker, typeof DataTransferItem.prototype.webkitGetAsEntry]), ['undefined', 'function']);
  });
});

test('?sample opens the sample session with its chat rows', async () => {
  await withPage(async (page) => {
    await page.goto(`${BASE}/?sample`);
    await waitState(page, 'ready');
    await waitSel(page, 'main [data-row-kind=user]');
    await waitSel(page, 'main [data-row-kind=assistant]');
    assert.ok((await rowCount(page)) > 2);
  });
});

test('a file picked through the file input opens with its tool work', async () => {
  await withPage(async (page) => {
    await openApp(page);
    await pickFiles(page, [TOOLS]);
    await waitSel(page, 'main [data-row-kind=user]');
    await waitSel(page, 'main [data-row-kind=tool-group], main [data-row-kind=tool]');
    const s = await loupe<{ sessions: number; atoms: number }>(page, 'stats()');
    assert.equal(s.sessions, 1);
    assert.ok(s.atoms > 10);
  });
});

test('a file dropped on the page opens through its entry (no File System Access handle)', async () => {
  await withPage(async (page) => {
    await openApp(page);
    await dropFiles(page, [TOOLS]);
    await waitState(page, 'ready');
    await waitSel(page, 'main [data-row-kind=tool-group], main [data-row-kind=tool]');
    const s = await loupe<{ sessions: number; atoms: number }>(page, 'stats()');
    assert.equal(s.sessions, 1);
    assert.ok(s.atoms > 10);
    assert.match(await textOf(page, '[data-session-title]'), /\S/);
  });
});

test('a dropped projects folder is walked through its entries, listed by project, and following it says why not in one line', async () => {
  const total = readdirSync(tree).reduce((n, p) => n + readdirSync(join(tree, p)).filter((f) => f.endsWith('.jsonl')).length, 0);
  await withPage(async (page) => {
    await openApp(page);
    await dropFolder(page, tree);
    await waitState(page, 'ready');
    const s = await loupe<{ sessions: number; projects: number }>(page, 'stats()');
    assert.equal(s.sessions, total);
    assert.equal(s.projects, 2);
    await waitSel(page, 'nav[aria-label="Projects"] button[data-project]');
    await waitSel(page, 'main [data-row-kind]');
    // No handle came with the drop: nothing offers to follow it …
    assert.equal(await page.$('[data-action="follow-dropped"]'), null);
    // … and asking to follow a folder says in one sentence that this browser cannot.
    await (await waitSel(page, '[data-action="follow"]')).click();
    const notice = await textOf(page, '[data-live-notice]');
    assert.match(notice, /cannot follow a folder/);
    assert.equal(notice.split(/(?<=\.)\s/).length, 1, notice);
    assert.notEqual(await page.evaluate(() => document.documentElement.dataset.live), 'on');
    assert.equal((await loupe<{ sessions: number }>(page, 'stats()')).sessions, total, 'the drop is kept');
  });
});

test('the engine keeps answering after many history passes (each lets its lane workers go)', async () => {
  // While the engine's worker started and ended its lanes' workers itself, Firefox left its thread
  // stuck within a few passes (lane-worker.ts): every later call hung.
  await withPage(async (page) => {
    await openApp(page);
    for (const dir of passes) {
      await dropFolder(page, dir);
      await waitState(page, 'ready');
      await until(page, () => (window as unknown as { __loupe: { history(): Promise<{ ready: boolean }> } }).__loupe.history().then((h) => h.ready), [], 30_000, 100);
    }
    const answered = await page.evaluate(() =>
      Promise.race([
        (window as unknown as { __loupe: { scanStats(): Promise<unknown> } }).__loupe.scanStats().then(() => 'answered'),
        new Promise((r) => setTimeout(() => r('no answer in 10 s'), 10_000))
      ])
    );
    assert.equal(answered, 'answered');
    // Each pass's lane workers closed once it ended: none is left of the six passes.
    await until(page, () => (window as unknown as { __loupe: { laneWorkers(): number } }).__loupe.laneWorkers() === 0, [], 10_000, 100);
  });
});

test('search finds a string inside a collapsed tool output and lands on it', async () => {
  await withPage(async (page) => {
    await openApp(page);
    await dropFolder(page, writeSearchProject());
    await waitState(page, 'ready');
    const other = await page.$('[data-session-key*="sess-a"]:not(main)');
    if (!(await page.$('main[data-session-key*="sess-a"]'))) await other!.click();
    await waitSel(page, 'main[data-session-key*="sess-a"]');
    await page.type('input[type=search]', 'quokka');
    await waitText(page, '[data-search-count]', /^1 result/);
    const hit = (await waitSel(page, '[data-search-hit]'));
    assert.equal(await hit.evaluate((e) => e.getAttribute('data-atom-uuid')), 'a-r1');
    await hit.click();
    await waitText(page, 'main [data-search-landed]', /QUOKKA/);
    await until(page, () => location.hash.includes('q=quokka'), []);
  });
});

test('usage: the panel shows the hand-computed totals, subagent included', async () => {
  await withPage(async (page) => {
    await openApp(page);
    await dropFolder(page, USAGE);
    await waitState(page, 'ready');
    await (await waitSel(page, '[data-action=usage]')).click();
    await waitSel(page, '[data-usage-panel] [data-chart=context] svg, [data-usage-panel] [data-chart=context]');
    assert.equal(await waitText(page, '[data-usage-cost]', /\$/), '≥ $0.04 (1 message unpriced)');
    const u = await loupe<{ input: number; output: number; cacheRead: number; unpricedMessages: number }>(page, 'usage()');
    assert.deepEqual([u.input, u.output, u.cacheRead, u.unpricedMessages], [1495, 385, 11200, 1]);
  });
});

test('export: the one-file HTML download is redacted and is what the automation hook gives', async () => {
  await withPage(async (page) => {
    await openApp(page);
    await dropFolder(page, PLANTED);
    await waitState(page, 'ready');
    // Keep the downloaded blob: Firefox's download itself goes to disk, out of reach.
    await page.evaluate(() => {
      const w = window as unknown as { __blobs: Blob[] };
      w.__blobs = [];
      const make = URL.createObjectURL.bind(URL);
      URL.createObjectURL = (b: Blob | MediaSource) => (b instanceof Blob && w.__blobs.push(b), make(b));
    });
    await (await waitSel(page, '[data-action="export"]')).click();
    await waitSel(page, '[data-dialog="share"] [data-finding-kind="github-pat"]');
    await (await waitSel(page, '[data-dialog="share"] input[name="export-format"][value="html"]')).click();
    await (await waitSel(page, '[data-dialog="share"] [data-action="download"]')).click();
    await until(page, () => (window as unknown as { __blobs: Blob[] }).__blobs.length > 0, []);
    const text = await page.evaluate(() => (window as unknown as { __blobs: Blob[] }).__blobs[0].text());
    assert.match(text, /^<!doctype html>/i);
    assert.match(text, /\[REDACTED:github-pat\]/);
    assert.equal(text, await loupe<string>(page, "exportText('html', { redact: true })"));
    await waitText(page, '[data-dialog="share"] [role=status]', /Saved .+ \(\d/);
  });
});

test('share link: Copy link makes a #z= link that opens the same session elsewhere', async () => {
  let link = '';
  let rows = 0;
  await withPage(async (page) => {
    await openApp(page);
    await pickFiles(page, [TOOLS]);
    rows = (await loupe<{ rows: number }>(page, 'stats()')).rows;
    await (await waitButton(page, 'Copy link')).click();
    await (await waitSel(page, '[data-dialog="share"] [data-action="copy-link"]:not([disabled])')).click();
    const input = await waitSel(page, 'input.link');
    link = await input!.evaluate((e) => (e as HTMLInputElement).value);
  });
  assert.ok(/^http:.*[#&]z=/.test(link), 'a #z= link');
  await withPage(async (page) => {
    await page.goto(link);
    await waitState(page, 'ready');
    await waitSel(page, 'main [data-row-kind=user]');
    assert.equal((await loupe<{ rows: number }>(page, 'stats()')).rows, rows);
  });
});
