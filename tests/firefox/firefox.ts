// The Firefox smoke's harness: serves the built app with `vite preview`, drives Debian's
// firefox-esr over WebDriver BiDi with puppeteer-core (Playwright's Firefox channel speaks a
// BiDi dialect ESR 153 rejects), and the steps the smoke shares: open the app, pick files
// through the real file input, drop a folder as Firefox delivers one (webkitGetAsEntry), wait
// on html[data-state] and on selectors (polled through page.evaluate, see `until`), never on a
// clock. It runs against ESR 140 (bookworm's main list) and ESR 153 (bookworm-security).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const PORT = Number(process.env.FF_PORT ?? process.env.PW_PORT ?? 4174);
export const BASE = `http://localhost:${PORT}`;
export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Builds the app (unless FF_REUSE_BUILD is set: scripts/test-all.mjs has just built it) and serves it. */
export async function startServer(): Promise<ChildProcess> {
  if (!process.env.FF_REUSE_BUILD) {
    const b = spawnSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (b.status !== 0) throw new Error('vite build failed');
  }
  // Its own process group, so stopping it ends npx and the vite process under it.
  const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort'], { cwd: ROOT, stdio: 'ignore', detached: true });
  for (let i = 0; i < 600; i++) {
    const up = await fetch(BASE).then((r) => r.ok, () => false);
    if (up) return server;
    if (server.exitCode !== null) throw new Error(`vite preview exited (${server.exitCode}); is port ${PORT} taken?`);
    await new Promise((r) => setTimeout(r, 100)); // polling the server's port, not waiting on the page
  }
  throw new Error('vite preview did not answer');
}

export function stopServer(server: ChildProcess | undefined): void {
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
}

/** A desktop-sized viewport, each new page's (launch's defaultViewport). Puppeteer sends the size
 *  with a screen-orientation override; ESR 140 (Debian bookworm's main list) does not know that
 *  command and rejects the pair, though the size applies. Puppeteer tolerates the rejection for a
 *  default viewport, so newPage checks that the size did apply. */
const VIEWPORT = { width: 1280, height: 900 };

/** FF_DUMPIO=1: Firefox's own output, the page's and its workers' console lines included. */
export function launch(): Promise<Browser> {
  return puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, protocol: 'webDriverBiDi', headless: true, defaultViewport: VIEWPORT, dumpio: !!process.env.FF_DUMPIO, extraPrefsFirefox: process.env.FF_DUMPIO ? { 'devtools.console.stdout.content': true } : {} });
}

/** A fresh page that records page errors (an uncaught exception or rejection fails the test). */
export async function newPage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const ctx = await browser.createBrowserContext();
  const page = await ctx.newPage();
  await until(page, (w, h) => innerWidth === w && innerHeight === h, [VIEWPORT.width, VIEWPORT.height], 10_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String((e as Error)?.message ?? e)));
  return { page, errors };
}

/**
 * Waits until `fn(...args)`, run in the page, returns something truthy, and returns it. Puppeteer's
 * own waitForFunction and waitForSelector build their predicate with `new Function` inside the
 * page, which the app's CSP (no 'unsafe-eval') refuses in Firefox ESR 140, Debian bookworm's
 * firefox-esr (ESR 153 let it through). page.evaluate is WebDriver BiDi's script.callFunction,
 * which the page's CSP does not govern. Each check is a fresh evaluate; a miss waits `every` ms.
 */
export async function until<A extends unknown[], T>(page: Page, fn: (...args: A) => T | Promise<T>, args: A, timeout = 30_000, every = 50): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await page.evaluate(fn as (...a: unknown[]) => T, ...args);
    if (v) return v;
    if (Date.now() > end) throw new Error(`waited ${timeout} ms in vain for ${fn.toString().slice(0, 160)} ${JSON.stringify(args).slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** The first element matching a CSS selector, once one does. */
export async function waitSel<E extends Element = Element>(page: Page, selector: string, timeout = 30_000): Promise<ElementHandle<E>> {
  await until(page, (sel) => !!document.querySelector(sel), [selector], timeout);
  const el = await page.$(selector);
  if (!el) throw new Error(`${selector} matched, then went away`);
  return el as ElementHandle<E>;
}

/** The first button whose text is `text`, once there is one. */
export async function waitButton(page: Page, text: string, timeout = 30_000): Promise<ElementHandle<Element>> {
  await until(page, (t) => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === t), [text], timeout);
  const el = (await page.evaluateHandle((t) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === t) ?? null, text)).asElement();
  if (!el) throw new Error(`the ${text} button matched, then went away`);
  return el as ElementHandle<Element>;
}

export async function waitState(page: Page, state: string, timeout = 60_000): Promise<void> {
  await until(page, (s) => document.documentElement.dataset.state === s, [state], timeout);
}

/** Opens the app and waits until it has started (its drop handler attached: window.__loupe). */
export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(BASE + path);
  await until(page, () => '__loupe' in window, [], 60_000);
}

/** Picks files through the app's real multi-file input and waits until the load settles. */
export async function pickFiles(page: Page, files: string[], state = 'ready'): Promise<void> {
  const input = await waitSel<HTMLInputElement>(page, 'input[type=file]:not([webkitdirectory])');
  await input.uploadFile(...files);
  await waitState(page, state);
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Hands the page files through a hidden file input (#ff-staging), WebDriver's way to give a page
 *  files; the drop scripts below take them from it. */
async function stage(page: Page, files: string[]): Promise<void> {
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'ff-staging';
    input.hidden = true;
    document.body.append(input);
  });
  const staging = await page.$('input#ff-staging');
  await staging!.uploadFile(...files);
}

/**
 * Drops a folder on the page the way Firefox hands one over: a DataTransfer item whose
 * webkitGetAsEntry() is a directory entry, no getAsFileSystemHandle. WebDriver BiDi can neither
 * drag files nor fill <input webkitdirectory> (input.setFiles refuses a directory), so the files
 * go through a real file input (real File objects, and real FileSystemFileEntry objects from
 * Firefox's DataTransfer), and only the folders above them are built here, with readEntries
 * answering in batches of 100 as Firefox's does. The drop event goes to the page's own handler.
 */
export async function dropFolder(page: Page, dir: string): Promise<void> {
  const files = filesUnder(dir);
  const name = dir.split('/').filter(Boolean).at(-1)!;
  const paths = files.map((f) => `${name}/${relative(dir, f)}`);
  await stage(page, files);
  // A source string, not a function: tsx's transform would name the inner functions with a
  // helper (__name) that does not exist in the page.
  await page.evaluate(`(${DROP_SOURCE})(${JSON.stringify(paths)})`);
}

/** Drops files on the page as Firefox gives them: real File entries (webkitGetAsEntry) in the
 *  drop's DataTransfer, no handles. */
export async function dropFiles(page: Page, files: string[]): Promise<void> {
  await stage(page, files);
  await page.evaluate(`(${DROP_FILES_SOURCE})(${files.length})`);
}

const DROP_FILES_SOURCE = String.raw`function (count) {
  const input = document.getElementById('ff-staging');
  const picked = [...input.files];
  if (picked.length !== count) throw new Error('staged ' + picked.length + ' of ' + count + ' files');
  input.remove();
  const dt = new DataTransfer();
  for (const f of picked) dt.items.add(f);
  // The page must meet what Firefox gives a real drop: an entry per file, no handle.
  for (const item of dt.items) if (item.webkitGetAsEntry()?.isFile !== true || 'getAsFileSystemHandle' in item) throw new Error('not an entry-only drop');
  window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
}`;

/** In the page: wraps the staged files in the folder entries above them and drops the root. */
const DROP_SOURCE = String.raw`function (paths) {
  const input = document.getElementById('ff-staging');
  const picked = [...input.files];
  if (picked.length !== paths.length) throw new Error('staged ' + picked.length + ' of ' + paths.length + ' files');
  const makeDir = (name, fullPath) => ({
    isFile: false,
    isDirectory: true,
    name,
    fullPath,
    children: [],
    createReader() {
      let at = 0;
      const all = this.children;
      return { readEntries: (ok) => queueMicrotask(() => { const batch = all.slice(at, at + 100); at += batch.length; ok(batch); }) };
    }
  });
  const top = paths[0].split('/')[0];
  const root = makeDir(top, '/' + top);
  const dirs = new Map([[top, root]]);
  paths.forEach((p, i) => {
    const parts = p.split('/');
    let parent = root;
    for (let d = 1; d < parts.length - 1; d++) {
      const key = parts.slice(0, d + 1).join('/');
      let next = dirs.get(key);
      if (!next) {
        next = makeDir(parts[d], '/' + key);
        dirs.set(key, next);
        parent.children.push(next);
      }
      parent = next;
    }
    const one = new DataTransfer();
    one.items.add(picked[i]);
    parent.children.push(one.items[0].webkitGetAsEntry());
  });
  input.remove();
  const dt = new DataTransfer();
  dt.items.add(new File([], top));
  Object.defineProperty(dt.items[0], 'webkitGetAsEntry', { value: () => root });
  window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
}`;

/** The text of an element, once one matches. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const el = await waitSel(page, selector);
  return el.evaluate((e) => e.textContent ?? '');
}

/** Waits until the selector's text matches `re`. */
export async function waitText(page: Page, selector: string, re: RegExp): Promise<string> {
  return until(
    page,
    (sel: string, src: string, flags: string) => {
      const t = document.querySelector(sel)?.textContent ?? null;
      return t !== null && new RegExp(src, flags).test(t) ? t : null;
    },
    [selector, re.source, re.flags]
  ) as Promise<string>;
}
