// After the next paint, for what draws in steps (the chat's first rows, the timeline, the history
// dashboard, the Markdown renderer's load): requestAnimationFrame runs just
// before the browser paints a frame, so a task queued from it runs once that frame is on screen,
// and each step shows before the next one holds the main thread.

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
 *  `total()` (read in an effect, so it may grow). */
export function paced(total: () => number, next: (fn: () => void) => () => void = afterPaint): { readonly n: number } {
  let n = $state(0);
  $effect(() => {
    if (n >= total()) return;
    return next(() => n++);
  });
  return {
    get n() {
      return n;
    }
  };
}
