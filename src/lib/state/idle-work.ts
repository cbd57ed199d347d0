// Whether idle-time work that asks the browser for something should wait. While a big session
// parses, its worker's garbage collection (V8's scavenges, with helper threads) keeps both cores
// of a 2-core machine busy, and a synchronous IPC from the page (a font lookup: the browser's
// answer is a 0.0 ms task) then waits 40–70 ms for the browser's thread to run: the font
// warm-up's steps during a 100 MB load were 36–79 ms tasks (Chromium traces, issue 25). The
// Viewer holds this for such a load; the warm-up (components/app/font-warmup.ts) skips its
// steps while it is held and goes on afterwards.

let holds = 0;

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

/** True while any hold is in place. */
export const idleWorkHeld = (): boolean => holds > 0;
