// After the next paint, for what draws in steps (the chat's first rows, the timeline, the history
// dashboard, the Markdown renderer's load): requestAnimationFrame runs just
// before the browser paints a frame, so a task queued from it runs once that frame is on screen,
// and each step shows before the next one holds the main thread.
import { flushSync } from 'svelte';

/** Runs `fn` in a task of its own after the next paint; returns a cancel. */
export function afterPaint(fn: () => void): () => void {
  if (typeof requestAnimationFrame !== 'function') return afterTask(fn);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(fn, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Runs `fn` in the next task (no frame waited for); returns a cancel. */
export function afterTask(fn: () => void): () => void {
  const t = setTimeout(fn, 0);
  return () => clearTimeout(t);
}

/** Resolves after the next paint. */
export const painted = (): Promise<void> => new Promise((done) => void afterPaint(done));

/** A count that grows by one per painted frame (or per task, with `next` = afterTask) up to
 *  `total()` (read in an effect, so it may grow). With `budgetMs`, a frame takes as many steps as
 *  fit in that time instead of one (each drawn at once, flushSync, and timed): a step that draws
 *  in 3 ms then costs 3 ms, not a frame of 16, and no task runs past the budget by more than the
 *  margin the last step's time leaves. */
export function paced(total: () => number, next: (fn: () => void) => () => void = afterPaint, budgetMs = 0): { readonly n: number } {
  let n = $state(0);
  $effect(() => {
    if (n >= total()) return;
    return next(() => {
      const start = performance.now();
      let last = 0;
      do {
        const t = performance.now();
        n++;
        if (!budgetMs) return;
        flushSync();
        last = performance.now() - t;
      } while (n < total() && performance.now() - start + 2 * last < budgetMs);
    });
  });
  return {
    get n() {
      return n;
    }
  };
}
