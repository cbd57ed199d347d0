// The Markdown renderer as the page gets it. marked and highlight.js run in the
// Markdown worker (state/markdown-client.ts): their module evaluation, first lexes and grammar
// compiles were page tasks of 60–100 ms at 4× CPU. The page keeps DOMPurify (it needs a DOM),
// loaded after the first chat rows have been painted, like the worker. Until a block's HTML is
// here it shows its source as escaped plain text (Svelte text, never HTML). HTML comes back in
// the order asked and is sanitized and inserted a few blocks per task (UPGRADE_MS of work, then a
// yield), so the upgrade of a screenful never becomes one long task. Sanitized HTML is kept by
// source, so a block drawn again (the chat's rows come and go as it scrolls) shows at once.
import { flushSync } from 'svelte';
import { ByteLru } from '$lib/ingest/lru';
import { markdownHtml } from '$lib/state/markdown-client';
import { painted } from '../paint.svelte';
import { idleWorkHeld, idleWorkHurried, idleWorkStarted, noLoadRunning, whenIdle } from '$lib/state/idle-work';

/** Work per task while blocks upgrade from plain text to rendered Markdown. */
const UPGRADE_MS = 8;
/** Sanitized HTML kept, in characters of source and HTML (~2 bytes each). */
const CACHE_CHARS = 8_000_000;

const cache = new ByteLru<string>(CACHE_CHARS, 32);
/** Raw HTML asked of the worker and not back yet, by source: a block drawn twice asks once. */
const asked = new Map<string, Promise<string>>();
let firstPaint: Promise<void> | null = null;
let sanitizer: Promise<unknown> | null = null;
let sanitize: ((html: string) => string) | null = null;
/** Whether DOMPurify has sanitized once (its first call is the slow one, see `warmSanitizer`). */
let warmed = false;
const waiting: (() => void)[] = [];
let draining = false;

/** Sanitized HTML for `source` if it was rendered before, else null. */
export const cachedMarkdown = (source: string): string | null => cache.get(source) ?? null;

function loadSanitizer(): Promise<unknown> {
  return (sanitizer ??= import('./sanitize').then(
    (m) => (sanitize = m.sanitizeHtml),
    (e: unknown) => {
      sanitizer = null; // a chunk that failed to load (offline, no service worker yet) is asked again by the next block
      throw e;
    }
  ));
}

/**
 * Loads DOMPurify and sanitizes once, in an idle period with no load running, so that the first
 * Markdown does not: evaluated beside a big session's first chat frames it was a 50–107 ms task
 * after ready. A load in progress waits for it, except the
 * Viewer's hurry before a held load is drawn, which the preload joins (state/idle-work.ts).
 */
export function preloadSanitizer(): void {
  const done = idleWorkStarted();
  const go = () => {
    if (!(noLoadRunning() || idleWorkHurried()) || idleWorkHeld()) return void whenIdle(go);
    loadSanitizer()
      .then(warmSanitizer)
      .catch(() => undefined)
      .finally(done);
  };
  whenIdle(go);
}

function rawHtml(source: string): Promise<string> {
  let p = asked.get(source);
  if (!p) {
    p = markdownHtml(source).finally(() => asked.delete(source));
    asked.set(source, p);
  }
  return p;
}

/** Renders `source` and calls `show` with its sanitized HTML, in its turn among the blocks
 *  waiting; nothing is asked before the first frame that wanted Markdown is painted. Returns a
 *  cancel (a block gone before its turn costs no sanitizing). */
export function renderMarkdown(source: string, show: (html: string) => void): () => void {
  let live = true;
  void (firstPaint ??= painted())
    .then(() => Promise.all([rawHtml(source), loadSanitizer()]))
    .then(([raw]) => {
      waiting.push(() => {
        if (!live) return;
        let html = cache.get(source);
        if (html === undefined) {
          html = sanitize!(raw);
          cache.set(source, html, source.length + html.length);
        }
        show(html);
      });
      if (!draining) {
        draining = true;
        setTimeout(drain, 0);
      }
    })
    .catch(() => undefined);
  return () => {
    live = false;
  };
}

/** DOMPurify's first call: it builds its own document and its first parses and regexes run cold. */
function warmSanitizer(): void {
  if (warmed || !sanitize) return;
  warmed = true;
  sanitize('<p>Loupe</p>');
}

function drain(): void {
  // When the preload did not come first (a folder dropped right after the page opened: its load
  // runs until ready), DOMPurify's first call gets a task of its own, not the first block's: with
  // the first block it was a 107 ms task after a 1 GB tree's ready (long-animation-frame
  // attribution, the drain's timer), and a history index line of its bench over 50 ms.
  if (!warmed) {
    warmSanitizer();
    setTimeout(drain, 0);
    return;
  }
  const t0 = performance.now();
  while (waiting.length && performance.now() - t0 < UPGRADE_MS) {
    waiting.shift()!();
    flushSync();
  }
  if (waiting.length) setTimeout(drain, 0);
  else draining = false;
}
