// The Markdown renderer as the page gets it (issue 25): marked and DOMPurify (~130 KB, and their
// first use compiles dozens of regexes: ~1 s of one task at 4× CPU on the sample) are not on the
// boot path. The first Markdown block shown asks for them; until they are here every block shows
// its source as escaped plain text (Svelte text, never HTML). Once they are, the blocks waiting
// re-render a few per task (UPGRADE_MS of work, then a yield), top of the chat first, so the
// upgrade of a screenful never becomes one long task. The service worker precaches the chunks.
import { flushSync } from 'svelte';
import { painted } from '../paint.svelte';

/** Source → sanitized HTML, ready for {@html}. */
export type RenderMarkdown = (src: string) => string;

/** Work per task while blocks upgrade from plain text to rendered Markdown. */
const UPGRADE_MS = 8;

let render: RenderMarkdown | null = null;
let loading: Promise<RenderMarkdown> | null = null;
const waiting: (() => void)[] = [];
let draining = false;

/** The renderer once loaded, else null. */
export const markdownRenderer = (): RenderMarkdown | null => render;

/** Loads marked + DOMPurify once, after the frame that asked has been painted (the first rows
 *  show before the renderer's chunks are fetched and parsed). */
export function loadMarkdown(): Promise<RenderMarkdown> {
  return (loading ??= painted().then(() => Promise.all([import('$lib/view/chat/markdown-html'), import('./sanitize')])).then(([m, s]) => {
    render = (src) => s.sanitizeHtml(m.markdownToHtml(src));
    return render;
  }, (e: unknown) => {
    loading = null; // a chunk that failed to load (offline, no service worker yet) is asked again by the next block
    throw e;
  }));
}

/** Runs `upgrade` (which sets a component's state) once `ready` has settled, in its turn among the
 *  blocks waiting: each slice runs upgrades and flushes their rendering until UPGRADE_MS passed. */
export function upgradeWhen(ready: Promise<unknown>, upgrade: () => void): () => void {
  let live = true;
  const run = () => {
    if (live) upgrade();
  };
  void ready.then(() => {
    waiting.push(run);
    if (!draining) {
      draining = true;
      setTimeout(drain, 0);
    }
  }, () => undefined);
  return () => {
    live = false;
  };
}

function drain(): void {
  const t0 = performance.now();
  while (waiting.length && performance.now() - t0 < UPGRADE_MS) {
    waiting.shift()!();
    flushSync();
  }
  if (waiting.length) setTimeout(drain, 0);
  else draining = false;
}
