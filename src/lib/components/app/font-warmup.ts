// Font faces the workspace draws, resolved while the page idles, from the client's start
// (hooks.client.ts) on. On Linux, Chromium asks the browser process (fontconfig) for each new
// family, style and size the first time it lays one out, a synchronous IPC: 4–6 ms a size on this
// machine in an isolated page, 7–14 ms while a load keeps the browser busy. The workspace's first
// screen brought 17 at once, so its first layout was a 28–44 ms part of one 70–85 ms task after a
// big drop (Chromium traces of the 1 GB tree, issue 21). Here they are resolved one per idle
// callback, through the start page, a linked session's boot and a load. The list is the
// workspace's computed fonts as they are; tests/e2e/projects.spec.ts and chat.spec.ts fail when a
// style change draws one not in it.

/** Which family list a face is drawn in: the page's (body), `--mono` (code outside the chat), or
 *  `--chat-mono` (the chat's code and tool output). The two monospace lists resolve to different
 *  fonts where one of the chat's names is installed ('Liberation Mono' on Debian, where `--mono`
 *  ends at DejaVu Sans Mono), and each font's sizes are asked for on their own. */
export type Stack = 'ui' | 'mono' | 'chat-mono';

/** [font-size in px, font-weight, italic, family list]. */
export type FontFace = [number, number, boolean, Stack];

export const WORKSPACE_FONTS: FontFace[] = [
  [9.87187, 400, false, 'ui'],
  [10, 400, false, 'ui'],
  [10.125, 400, false, 'ui'],
  [10.5469, 400, false, 'ui'],
  [10.8, 400, false, 'ui'],
  [10.8, 600, false, 'ui'],
  [10.9688, 600, false, 'ui'],
  [11.25, 400, false, 'ui'],
  [11.9531, 400, false, 'ui'],
  [12, 400, false, 'ui'],
  [12.6562, 400, false, 'ui'],
  [12.75, 400, false, 'ui'],
  [14.0625, 400, false, 'ui'],
  [14.0625, 400, true, 'ui'],
  [15, 400, false, 'ui'],
  [15, 600, false, 'ui'],
  [15.75, 700, false, 'ui'],
  [11.25, 400, false, 'chat-mono'],
  [11.7, 400, false, 'mono'],
  [11.9531, 400, false, 'chat-mono'],
  // The chat's row kinds and rendered Markdown, as the corpus sessions draw them (a subagent's
  // title and chip, notices, errors, questions; strong text, headings, inline and highlighted
  // code): after a 100 MB session's ready their first layout resolved these in a 40–50 ms frame
  // (Chromium traces, issue 25). tests/e2e/chat.spec.ts fails when a screen draws one not here.
  [9.9, 600, false, 'ui'],
  [10.9688, 400, false, 'ui'],
  [11.5312, 400, false, 'ui'],
  [11.9531, 600, false, 'ui'],
  [12.375, 400, false, 'ui'],
  [12.9375, 400, false, 'ui'],
  [14.0625, 600, false, 'ui'],
  [14.0625, 700, false, 'ui'],
  [14.3438, 700, false, 'ui'],
  [14.3438, 900, false, 'ui'],
  [16.1719, 700, false, 'ui'],
  [18.2812, 700, false, 'ui'],
  [11.1263, 400, false, 'chat-mono'],
  [11.1263, 400, true, 'chat-mono'],
  [12.75, 400, false, 'mono'],
  [12.9375, 400, false, 'chat-mono'],
  [12.9375, 700, false, 'chat-mono'],
  [13.1962, 700, false, 'chat-mono'],
  [14.0625, 600, false, 'chat-mono']
];

/** The key a computed style gives for a face (what the e2e test compares). */
export const faceKey = ([px, weight, italic, stack]: FontFace) => `${stack}|${Math.round(px * 100) / 100}|${weight}|${italic ? 'italic' : 'normal'}`;

/** What each face measures: Latin text and the workspace's own marks. No character outside the
 *  installed fonts: its system fallback (fontconfig's sort of every font, in the browser process)
 *  took 60–88 ms a face while a 100 MB load kept the browser busy (--case session --profile), and
 *  Chromium does not keep a fallback that found no font, so it bought nothing for later. */
export const SPECIMEN = 'Loupe 0123 ~ · — → ✓ ▾ ↳';

/** Measured once, in the first face, while the page is still empty: a CJK character, missing from
 *  most UI fonts. Text the UI font lacks makes Chromium walk the rest of the list and its default
 *  fonts (Times New Roman, sans-serif, Sans: synchronous lookups the first time) and then ask for
 *  a system fallback; in a 100 MB session's first chat frame that was 10–30 ms of a 50–63 ms task
 *  (traces, issue 25). The walk is kept; a fallback that found no font is not, and during a load
 *  its lookup took 60–88 ms, so this one is made only before a load starts. */
export const WALK_SPECIMEN = '数';

/** The faces in the order they are resolved: the first of each family list, weight and style
 *  ahead of the rest, each group in list order. That first one is the costly lookup (the family's
 *  match through the list, its font file opened), a further size only asks for that size's
 *  settings; a load made soon after the start page meets the steps still running, and in a fresh
 *  browser a first lookup during the load was a 55 ms step (--case session). */
export function warmOrder(faces: FontFace[]): FontFace[] {
  const seen = new Set<string>();
  const first: FontFace[] = [];
  const rest: FontFace[] = [];
  for (const f of faces) {
    const key = `${f[3]}|${f[1]}|${f[2]}`;
    (seen.has(key) ? rest : first).push(f);
    seen.add(key);
  }
  return [...first, ...rest];
}

/** Resolves each face once, one an idle callback. Through a canvas's measureText, not a hidden
 *  box's layout: a box's forced layout also lays out whatever the page has pending, so a step that
 *  came during a load took the load's layout work into its task (a face and the walk's first
 *  listing: 56–67 ms, --case projects --profile), and the warm-up had to stop at the first load,
 *  leaving the list's first layout to resolve the rest. A canvas resolves the same faces through
 *  the same font cache and lays out nothing, so it runs on through a load. */
export function warmFonts(faces: FontFace[] = warmOrder(WORKSPACE_FONTS)): void {
  const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 50));
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  let families: Record<Stack, string> | null = null;
  let at = 0;
  const step = () => {
    // The families as the workspace's text resolves them: the body's, --mono and --chat-mono.
    if (!families) {
      const root = getComputedStyle(document.documentElement);
      const mono = root.getPropertyValue('--mono').trim();
      families = { ui: getComputedStyle(document.body).fontFamily, mono, 'chat-mono': root.getPropertyValue('--chat-mono').trim() || mono };
    }
    const [px, weight, italic, stack] = faces[at++];
    ctx.font = `${italic ? 'italic ' : ''}${weight} ${px}px ${families[stack]}`;
    ctx.measureText(at === 1 && stack === 'ui' && document.documentElement.dataset.state === 'empty' ? SPECIMEN + WALK_SPECIMEN : SPECIMEN);
    if (at < faces.length) idle(step);
  };
  if (faces.length) idle(step);
}
