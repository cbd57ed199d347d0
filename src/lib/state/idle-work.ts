// Idle-time work: when to run it (whenIdle), and when it should wait or hurry. The font warm-up
// (components/app/font-warmup.ts) and DOMPurify's preload (components/markdown/render.ts) are
// such work: each asks the browser for something, and a load in progress waits for neither.
//
// Wait: while a big session parses, the worker's garbage collection keeps both cores of a 2-core
// machine busy, and a synchronous call from the page to the browser (a font lookup) waits tens of
// ms. The Viewer holds idle work for such a load; the work skips its turns while it is held.
// Hurry: once the parse is done, the Viewer releases the hold and hurries the work for a bounded
// time before it draws, so the first frame does not make those lookups itself.

/** Runs `run` in the page's next idle period, at most `timeout` ms on; where the browser has no
 *  requestIdleCallback (Safari), after `fallback` ms. */
export function whenIdle(run: (deadline?: IdleDeadline) => void, { timeout = 2000, fallback = 50 }: { timeout?: number; fallback?: number } = {}): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout });
  else setTimeout(run, fallback);
}

/** No load is running: the page is empty (the start page) or shows what it loaded (html[data-state]). */
export function noLoadRunning(): boolean {
  const state = document.documentElement.dataset.state;
  return state === 'empty' || state === 'ready';
}

let holds = 0;
let hurries = 0;
/** Undone idle work, each settling when it is done. */
const pending = new Set<Promise<void>>();

/** Holds idle work until the returned release is called (calling it again does nothing). */
export function holdIdleWork(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holds--;
  };
}

/** True while any hold is in place and nobody hurries the work. */
export const idleWorkHeld = (): boolean => holds > 0 && hurries === 0;

/** True while someone waits for the idle work to finish (hurryIdleWork). */
export const idleWorkHurried = (): boolean => hurries > 0;

/** Registers a piece of idle work as undone; call the returned function when it is done. */
export function idleWorkStarted(): () => void {
  let done!: () => void;
  const work = new Promise<void>((resolve) => (done = resolve));
  pending.add(work);
  void work.then(() => pending.delete(work));
  return done;
}

/** Resolves when every piece of idle work registered now is done, or after `maxMs`; meanwhile
 *  the work is hurried (idleWorkHurried) and no hold stops it. */
export async function hurryIdleWork(maxMs: number): Promise<void> {
  if (!pending.size) return;
  hurries++;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([Promise.all(pending), new Promise((resolve) => (timer = setTimeout(resolve, maxMs)))]);
  } finally {
    clearTimeout(timer);
    hurries--;
  }
}
