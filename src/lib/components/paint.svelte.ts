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

/** Runs `step` (one step drawn; false when none remain) at least once, then again while twice
 *  the last step's time still fits in `budgetMs` from the start. Returns how many ran. */
export function stepsWithin(budgetMs: number, step: () => boolean, now: () => number = () => performance.now()): number {
  const start = now();
  let ran = 0;
  for (;;) {
    const t = now();
    const more = step();
    ran++;
    if (!more || now() - start + 2 * (now() - t) >= budgetMs) return ran;
  }
}

/** A count that grows by one per painted frame (or per task, with `next` = afterTask) up to
 *  `total()` (read in an effect, so it may grow). With `budgetMs`, a frame takes as many steps as
 *  fit in that time instead of one (stepsWithin; each step drawn and laid out at once, flushSync,
 *  so that its time is the time the browser spends on it): a step that draws in 3 ms then costs
 *  3 ms, not a frame of 16. */
export function paced(total: () => number, next: (fn: () => void) => () => void = afterPaint, budgetMs = 0): { readonly n: number } {
  let n = $state(0);
  $effect(() => {
    if (n >= total()) return;
    return next(() => {
      if (!budgetMs) {
        n++;
        return;
      }
      stepsWithin(budgetMs, () => {
        n++;
        flushSync();
        // Style and layout now, inside the timed step: the frame after the task then only paints
        // (a step's SVG laid out after the task made a 66 ms one).
        void document.body?.offsetHeight;
        return n < total();
      });
    });
  });
  return {
    get n() {
      return n;
    }
  };
}
