// Font sizes the workspace draws and the start page does not, laid out once while the start page
// idles. On Linux, Chromium asks fontconfig for each new font size's rendering settings the first
// time it lays one out: 4–6 ms a size on this machine (an isolated page), and the workspace's
// first screen brought 17 at once, so its first layout was a 28–44 ms part of one 70–85 ms task
// after a big drop (Chromium traces of the 1 GB tree, issue 21). Here they are laid out a few per
// idle callback, in a hidden box, before anything is dropped. The list is the workspace's computed
// fonts as they are; tests/e2e/projects.spec.ts fails when a style change draws one not in it.

/** [font-size in px, font-weight, italic, monospace]. */
export type FontFace = [number, number, boolean, boolean];

export const WORKSPACE_FONTS: FontFace[] = [
  [9.87187, 400, false, false],
  [10, 400, false, false],
  [10.125, 400, false, false],
  [10.5469, 400, false, false],
  [10.8, 400, false, false],
  [10.8, 600, false, false],
  [10.9688, 600, false, false],
  [11.25, 400, false, false],
  [11.9531, 400, false, false],
  [12, 400, false, false],
  [12.6562, 400, false, false],
  [12.75, 400, false, false],
  [14.0625, 400, false, false],
  [14.0625, 400, true, false],
  [15, 600, false, false],
  [11.25, 400, false, true],
  [11.7, 400, false, true],
  [11.9531, 400, false, true]
];

/** The key a computed style gives for a face (what the e2e test compares). */
export const faceKey = ([px, weight, italic, mono]: FontFace) => `${mono ? 'mono' : 'ui'}|${Math.round(px * 100) / 100}|${weight}|${italic ? 'italic' : 'normal'}`;

/** Lays out each face once, `perTask` at a time, when the page is idle; returns a cancel. One a
 *  task: a pick right after the start page shows finds the warm-up still going, and its forced
 *  layout then lays out the page's loading screen too (three faces in one idle callback made a
 *  44 ms task 170 ms into a 100 MB load, in a Chromium trace). */
export function warmFonts(faces: FontFace[] = WORKSPACE_FONTS, perTask = 1): () => void {
  const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 50));
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = 'position:absolute;left:-9999px;top:0;visibility:hidden;pointer-events:none;contain:layout style';
  document.body.append(box);
  let at = 0;
  let stopped = false;
  const step = () => {
    if (stopped) return;
    for (const [px, weight, italic, mono] of faces.slice(at, at + perTask)) {
      const span = document.createElement('span');
      span.textContent = 'Loupe 0123 ~ · — →';
      span.style.cssText = `font-size:${px}px;font-weight:${weight};font-style:${italic ? 'italic' : 'normal'}${mono ? ';font-family:var(--mono)' : ''}`;
      box.append(span);
    }
    at += perTask;
    // Laid out now, in this task: the next face's cost goes to the next idle callback.
    void box.offsetHeight;
    if (at < faces.length) idle(step);
    else box.remove();
  };
  idle(step);
  return () => {
    stopped = true;
    box.remove();
  };
}
