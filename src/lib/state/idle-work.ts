// Idle-time work that asks the browser for something (the font warm-up, components/app/
// font-warmup.ts), and when it should wait or hurry.
//
// Wait: while a big session parses, its worker's garbage collection (V8's scavenges, with helper
// threads) keeps both cores of a 2-core machine busy, and a synchronous IPC from the page (a font
// lookup: the browser's answer is a 0.0 ms task) then waits 40–70 ms for the browser's thread to
// run: the font warm-up's steps during a 100 MB load were 36–79 ms tasks (Chromium traces, issue
// 25). The Viewer holds idle work for such a load; the warm-up skips its steps while it is held.
//
// Hurry: what was held is then still undone when the session is first drawn, and that frame made
// the lookups itself: 20–53 font lookups and 7 fallbacks in one frame, 50–97 ms while the engine
// stored the session (traces of 100 MB loads picked at once). So once the parse is done the
// Viewer releases its hold and hurries the work before it draws: the work fills its idle periods
// (the page waits on the worker then), for at most a bounded time.

let holds = 0;
let hurries = 0;
/** Undone idle work, each resolving its entry's waiters when it finishes. */
const pending = new Map<symbol, Set<() => void>>();

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
  const id = Symbol('idle work');
  pending.set(id, new Set());
  return () => {
    for (const wake of pending.get(id) ?? []) wake();
    pending.delete(id);
  };
}

/** Resolves when every piece of idle work registered now is done, or after `maxMs`; meanwhile
 *  the work is hurried (idleWorkHurried) and no hold stops it. */
export function hurryIdleWork(maxMs: number): Promise<void> {
  if (!pending.size) return Promise.resolve();
  hurries++;
  return new Promise<void>((resolve) => {
    let left = pending.size;
    const finish = () => {
      clearTimeout(timer);
      for (const waiters of pending.values()) waiters.delete(done);
      hurries--;
      resolve();
    };
    const done = () => {
      if (--left === 0) finish();
    };
    const timer = setTimeout(finish, maxMs);
    for (const waiters of pending.values()) waiters.add(done);
  });
}
