// The page's side of the Markdown worker (worker/markdown.worker.ts): a block's source goes there
// and comes back as HTML, still to be sanitized (components/markdown does that, with DOMPurify,
// before {@html}). The worker starts on the first block, never at module load (prerendering has
// no Worker). Where it cannot run (no Worker, or its script failed to load: an 'error' event and
// no answer) every block waiting and every later one is rendered on this thread instead, with the
// same renderer and the same HTML, only slower.
import * as Comlink from 'comlink';
import type { MarkdownWorkerApi } from '../worker/markdown.worker.ts';

let api: Comlink.Remote<MarkdownWorkerApi> | null = null;
let failed = false;
const counts = { inWorker: 0, onPage: 0 };
/** Blocks asked of the worker and not answered yet: rendered here if the worker fails. */
const waiting = new Map<number, { source: string; resolve: (html: string) => void; reject: (e: unknown) => void }>();
let nextId = 0;

function start(): Comlink.Remote<MarkdownWorkerApi> {
  const worker = new Worker(new URL('../worker/markdown.worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener(
    'error',
    () => {
      failed = true;
      worker.terminate();
      const left = [...waiting.values()];
      waiting.clear();
      for (const w of left) onPage(w.source).then(w.resolve, w.reject);
    },
    { once: true }
  );
  return Comlink.wrap<MarkdownWorkerApi>(worker);
}

/** The renderer on this thread, loaded on first need (the same module the worker runs). */
async function onPage(source: string): Promise<string> {
  const { markdownToHtmlWithCode } = await import('../view/chat/markdown-html.ts');
  const html = await markdownToHtmlWithCode(source);
  counts.onPage++;
  return html;
}

/** The worker, started if it is not yet (null where it cannot run). */
function ensure(): Comlink.Remote<MarkdownWorkerApi> | null {
  if (!failed && typeof Worker !== 'undefined') {
    try {
      api ??= start();
    } catch {
      failed = true;
    }
  }
  return failed ? null : api;
}

/** Starts the worker ahead of its first block. A big load's parse leaves time for its boot
 *  (script, module compile and evaluation: ~100 ms of CPU here), which otherwise came in the first
 *  frames after ready, beside the first chat frame. */
export function warmMarkdown(): void {
  ensure();
}

/** Unsanitized HTML for a Markdown source: from the worker, or from this thread where it cannot run. */
export function markdownHtml(source: string): Promise<string> {
  const remote = ensure();
  if (!remote) return onPage(source);
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    waiting.set(id, { source, resolve, reject });
    remote.render(source).then(
      (html) => {
        if (!waiting.delete(id)) return; // the worker failed first: this thread answers
        counts.inWorker++;
        resolve(html);
      },
      (e: unknown) => {
        if (waiting.delete(id)) reject(e);
      }
    );
  });
}

/** Blocks rendered by the worker and on this thread, and whether the worker failed
 *  (`window.__loupe.markdown()`). */
export const markdownStats = (): { inWorker: number; onPage: number; failed: boolean } => ({ ...counts, failed });
