// A real folder drop (issue 9's "no long task from drop to ready"): the folder is dropped through
// CDP Input.dispatchDragEvent, so the page walks directory handles as it does for a person's drag,
// and says "loading" with a file count from the drop on. "Open folder" uses the File System Access
// picker where there is one (stubbed here with a folder in the origin-private file system) and the
// folder input where there is none.
import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT, dropFolder, filesUnder, openApp, stats } from './helpers';

let TREE = '';

test.beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'loupe-drop-'));
  TREE = join(out, 'projects');
  execFileSync('node', [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', '2', '--sessions', '30', '--projects', '2', '--seed', '4', '--out', TREE]);
});

test.afterAll(() => {
  if (TREE) rmSync(join(TREE, '..'), { recursive: true, force: true });
});

const sessionsIn = (tree: string) => readdirSync(tree).reduce((n, p) => n + readdirSync(join(tree, p)).filter((f) => f.endsWith('.jsonl')).length, 0);
const entries = (page: Page) => page.getByRole('navigation', { name: 'Sessions' }).locator('button[data-session-key]');

/** Records every data-state the page takes and the file counts it shows while reading a folder. */
async function watchStates(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __states: string[]; __walked: string[] };
    w.__states = [];
    w.__walked = [];
    new MutationObserver(() => {
      const state = document.documentElement?.dataset.state ?? '';
      if (w.__states.at(-1) !== state) w.__states.push(state);
      const walked = document.querySelector('[data-walked]');
      if (walked && state === 'loading' && w.__walked.at(-1) !== walked.textContent) w.__walked.push(walked.textContent ?? '');
    }).observe(document, { attributes: true, childList: true, subtree: true, characterData: true });
  });
}

async function expectProjectLevel(page: Page) {
  const total = sessionsIn(TREE);
  const s = await stats(page);
  expect(s.sessions).toBe(total);
  expect((s as unknown as { projects: number }).projects).toBe(2);
  await expect(page.getByRole('navigation', { name: 'Projects' }).locator('button[data-project]')).toHaveCount(2);
  await expect(page.locator('[data-session-count]')).toHaveAttribute('data-session-count', String(total));
  // The newest session is open: the list's first entry, marked current, is the chat's session.
  const newest = await entries(page).first().getAttribute('data-session-key');
  await expect(entries(page).first()).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('main[data-session-key]')).toHaveAttribute('data-session-key', newest!);
  await expect(page.locator('[data-row-kind]').first()).toBeVisible();
}

test('a dropped projects folder is read with a file count on screen, then listed with its newest session open', async ({ page }) => {
  await watchStates(page);
  await openApp(page);
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expectProjectLevel(page);
  const { states, walked } = await page.evaluate(() => {
    const w = window as unknown as { __states: string[]; __walked: string[] };
    return { states: w.__states, walked: w.__walked };
  });
  expect(states.slice(states.indexOf('loading'))).toEqual(['loading', 'ready']);
  // "Reading the folder… N files" while loading, counting up to every file of the tree.
  expect(walked.length).toBeGreaterThan(0);
  expect(walked.every((t) => /^Reading the folder… [\d,]+ files$/.test(t))).toBe(true);
  const counts = walked.map((t) => Number(t.replace(/\D/g, '')));
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  expect(Math.max(...counts)).toBeLessThanOrEqual(filesUnder(TREE, /./).length);
  // A dropped folder can be followed live (its handle was kept from the same drop).
  await expect(page.locator('[data-action="follow-dropped"]')).toBeVisible();
});

test('a dropped folder names its files from the folder down, as the folder input does', async ({ page }) => {
  await openApp(page);
  await dropFolder(page, TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const dropped = await page.evaluate(() => (window as unknown as { __loupe: { list: () => { key: string; project: string }[] } }).__loupe.list());
  await openApp(page);
  await page.locator('input[type=file][webkitdirectory]').setInputFiles(TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  const picked = await page.evaluate(() => (window as unknown as { __loupe: { list: () => { key: string; project: string }[] } }).__loupe.list());
  expect(dropped).toEqual(picked);
  expect(new Set(dropped.map((e) => e.project))).toEqual(new Set(readdirSync(TREE).map((p) => `projects/${p}`)));
});

test('"Open folder" opens the folder picker where the browser has one, and walks the picked folder', async ({ page }) => {
  const files = filesUnder(TREE, /./).map((p) => ({ path: relative(TREE, p), text: readFileSync(p, 'utf8') }));
  await page.addInitScript(() => {
    (window as unknown as { showDirectoryPicker: () => Promise<FileSystemDirectoryHandle> }).showDirectoryPicker = async () =>
      (await navigator.storage.getDirectory()).getDirectoryHandle('projects', { create: true });
  });
  await watchStates(page);
  await openApp(page);
  // The picked folder: the tree copied into the origin-private file system.
  await page.evaluate(async (files) => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('projects', { recursive: true }).catch(() => undefined);
    const top = await root.getDirectoryHandle('projects', { create: true });
    for (const f of files) {
      const parts = f.path.split('/');
      let d = top;
      for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
      const w = await (await d.getFileHandle(parts.at(-1)!, { create: true })).createWritable();
      await w.write(f.text);
      await w.close();
    }
  }, files);
  let chooser = false;
  page.on('filechooser', () => (chooser = true));
  await page.locator('#toolbar-actions').getByText('Open folder').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expectProjectLevel(page);
  expect(chooser).toBe(false);
  const walked = await page.evaluate(() => (window as unknown as { __walked: string[] }).__walked);
  expect(walked.length).toBeGreaterThan(0);
});

test('without a folder picker, "Open folder" opens the folder input', async ({ page }) => {
  await page.addInitScript(() => delete (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker);
  await openApp(page);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#toolbar-actions').getByText('Open folder').click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles(TREE);
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expectProjectLevel(page);
});

test('a file the browser will not hand over is listed as not opened; the rest of the folder opens', async ({ page }) => {
  const [good] = filesUnder(TREE).filter((p) => !p.includes('/subagents/'));
  const text = readFileSync(good, 'utf8');
  await page.addInitScript((text) => {
    // A picked folder whose second file fails to read, as a file removed or locked mid-walk does.
    const file = (name: string, read: () => Promise<File>) => ({ kind: 'file', name, getFile: read });
    const dir = (name: string, children: object[]) => ({
      kind: 'directory',
      name,
      async *entries() {
        for (const c of children) yield [(c as { name: string }).name, c];
      }
    });
    const picked = dir('picked', [
      file('good-session.jsonl', async () => new File([text], 'good-session.jsonl')),
      file('locked-session.jsonl', async () => {
        throw new DOMException('The requested file could not be read', 'NotReadableError');
      })
    ]);
    (window as unknown as { showDirectoryPicker: () => Promise<unknown> }).showDirectoryPicker = async () => picked;
  }, text);
  await openApp(page);
  await page.locator('#toolbar-actions').getByText('Open folder').click();
  await expect(page.locator('html')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  expect((await stats(page)).sessions).toBe(1);
  const issues = page.locator('details.issues');
  await expect(issues.locator('summary')).toContainText('1 file not opened');
  await issues.locator('summary').click();
  await expect(issues).toContainText('picked/locked-session.jsonl');
  await expect(issues).toContainText('would not hand this file over');
});
