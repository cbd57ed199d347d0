// Font sizes the workspace draws and the start page does not, resolved while the page idles, from
// the client's start (hooks.client.ts) on. On Linux, Chromium asks fontconfig for each new font
// size's rendering settings the first time it lays one out: 4–6 ms a size on this machine (an
// isolated page), and the workspace's first screen brought 17 at once, so its first layout was a
// 28–44 ms part of one 70–85 ms task after a big drop (Chromium traces of the 1 GB tree, issue
// 21). Here they are resolved one per idle callback, through the start page, a linked session's
// boot and a load. The list is the workspace's computed fonts as they are;
// tests/e2e/projects.spec.ts fails when a style change draws one not in it.

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
  [11.9531, 400, false, true],
  // The chat's row kinds and rendered Markdown, as the corpus sessions draw them (a subagent's
  // title and chip, notices, errors, questions; strong text, headings, inline and highlighted
  // code): after a 100 MB session's ready their first layout resolved these in a 40–50 ms frame
  // (Chromium traces, issue 25). tests/e2e/chat.spec.ts fails when a screen draws one not here.
  [9.9, 600, false, false],
  [10.9688, 400, false, false],
  [11.5312, 400, false, false],
  [11.9531, 600, false, false],
  [12.375, 400, false, false],
  [12.9375, 400, false, false],
  [14.0625, 600, false, false],
  [14.0625, 700, false, false],
  [14.3438, 700, false, false],
  [14.3438, 900, false, false],
  [16.1719, 700, false, false],
  [18.2812, 700, false, false],
  [11.1263, 400, false, true],
  [11.1263, 400, true, true],
  [12.75, 400, false, true],
  [12.9375, 400, false, true],
  [12.9375, 700, false, true],
  [13.1962, 700, false, true],
  [14.0625, 600, false, true]
];

/** The key a computed style gives for a face (what the e2e test compares). */
export const faceKey = ([px, weight, italic, mono]: FontFace) => `${mono ? 'mono' : 'ui'}|${Math.round(px * 100) / 100}|${weight}|${italic ? 'italic' : 'normal'}`;

/** Resolves each face once, one an idle callback. Through a canvas's measureText, not a hidden
 *  box's layout: a box's forced layout also lays out whatever the page has pending, so a step that
 *  came during a load took the load's layout work into its task (a face and the walk's first
 *  listing: 56–67 ms, --case projects --profile), and the warm-up had to stop at the first load,
 *  leaving the list's first layout to resolve the rest. A canvas resolves the same faces through
 *  the same font cache and lays out nothing, so it runs on through a load. */
export function warmFonts(faces: FontFace[] = WORKSPACE_FONTS): void {
  const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 50));
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  let families: { ui: string; mono: string } | null = null;
  let at = 0;
  const step = () => {
    // The families as the workspace's text resolves them: the body's, and --mono.
    families ??= { ui: getComputedStyle(document.body).fontFamily, mono: getComputedStyle(document.documentElement).getPropertyValue('--mono').trim() };
    const [px, weight, italic, mono] = faces[at++];
    ctx.font = `${italic ? 'italic ' : ''}${weight} ${px}px ${mono ? families.mono : families.ui}`;
    ctx.measureText('Loupe 0123 ~ · — →');
    if (at < faces.length) idle(step);
  };
  if (faces.length) idle(step);
}
