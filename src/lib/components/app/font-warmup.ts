// Font faces the workspace draws, resolved while the page idles, from the client's start
// (hooks.client.ts) on. On Linux, Chromium asks the browser process (fontconfig) for each new
// family, style and size the first time it lays one out, a synchronous IPC: 4–6 ms a size on this
// machine in an isolated page, 7–14 ms while a load keeps the browser busy. The workspace's first
// screen brought 17 at once, so its first layout was a 28–44 ms part of one 70–85 ms task after a
// big drop (the 1 GB tree). Here they are resolved in steps of one
// lookup each (warmSteps), in idle callbacks: filling each idle period while no load runs (the
// start page, a session shown), one a callback during a linked boot or a folder's walk, none
// while a big session parses, and all that is left once it is parsed, before it is drawn
// (state/idle-work.ts). The list is the workspace's computed fonts as they are;
// tests/e2e/projects.spec.ts and chat.spec.ts fail when a style change draws one not in it.

import { idleWorkHeld, idleWorkHurried, idleWorkStarted, noLoadRunning, whenIdle } from '$lib/state/idle-work';

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
  // (Chromium traces). tests/e2e/chat.spec.ts fails when a screen draws one not here.
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

/** What each face measures: Latin text, then the workspace's own marks (each of which the
 *  first font of a list may lack, so each may walk on). No character outside the installed fonts:
 *  its system fallback (fontconfig's sort of every font, in the browser process) took 60–88 ms a
 *  face while a 100 MB load kept the browser busy (--case session --profile), and Chromium does
 *  not keep a fallback that found no font, so it bought nothing for later. */
export const LATIN = 'Loupe 0123 ~';
export const MARKS = ['·', '—', '→', '✓', '▾', '↳'];

/** Measured while the page is still empty, in the first face of each weight and style of the UI
 *  list: a CJK character, missing from most UI fonts. Text the list lacks makes Chromium walk
 *  the rest of the list and its default fonts (Times New Roman, sans-serif, Sans: synchronous
 *  lookups the first time, for each weight and style) and then ask for a system fallback; in a
 *  100 MB session's first chat frame that was 10–30 ms of a 50–63 ms task, and 13 ms of a 1 GB
 *  tree's first listing. The walk is kept; a fallback that found no font is
 *  not, and during a load its lookup took 60–88 ms, so this one is made only before a load. */
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

/** The names of a CSS font-family list, each as written (quotes kept; a quoted name may hold a comma). */
export function familyNames(list: string): string[] {
  const names: string[] = [];
  let name = '';
  let quote = '';
  for (const c of list) {
    if (quote) quote = c === quote ? '' : quote;
    else if (c === '"' || c === "'") quote = c;
    else if (c === ',') {
      names.push(name.trim());
      name = '';
      continue;
    }
    name += c;
  }
  names.push(name.trim());
  return names.filter((n) => n.length > 0);
}

/** One step of the warm-up: a canvas font and the text measured in it. */
export type Step = [font: string, text: string];

/** The steps that resolve `faces` (in that order), each meant to need at most one lookup the
 *  browser has not made yet. The lookups are synchronous IPCs to the browser process, and while a
 *  drop keeps it busy each takes 5–22 ms: a face resolved whole walked --chat-mono's names that
 *  are not installed here (ui-monospace, SFMono-Regular, Menlo, Consolas), opened Liberation Mono,
 *  then DejaVu Sans Mono and Times New Roman for the marks, in one 47–90 ms idle callback during a
 *  1 GB tree's drop. So a group's first face is preceded by the list's tails,
 *  shortest first (each adds one name to what is resolved; a name found missing is kept for every
 *  size of that weight and style), and its marks are measured one a step. A UI group's first face
 *  also measures WALK_SPECIMEN, which warmFonts makes only on an empty page. */
export function warmSteps(faces: FontFace[], families: Record<Stack, string>): Step[] {
  const steps: Step[] = [];
  const seen = new Set<string>();
  for (const [px, weight, italic, stack] of faces) {
    const font = (list: string) => `${italic ? 'italic ' : ''}${weight} ${px}px ${list}`;
    const list = families[stack];
    const group = `${stack}|${weight}|${italic}`;
    if (seen.has(group)) {
      steps.push([font(list), LATIN], [font(list), MARKS.join(' ')]);
      continue;
    }
    seen.add(group);
    const names = familyNames(list);
    for (let i = names.length - 1; i > 0; i--) steps.push([font(names.slice(i).join(', ')), 'L']);
    steps.push([font(list), LATIN], ...MARKS.map((m): Step => [font(list), m]));
    if (stack === 'ui') steps.push([font(list), WALK_SPECIMEN]);
  }
  return steps;
}

/** The performance mark made when every step is done (bench:browser --case session reports it). */
export const WARM_MARK = 'loupe:fonts-warm';
/** What an idle period must still have for a further step with no load running… */
const IDLE_MARGIN_MS = 4;
/** …and the most one callback spends then: an idle period with no frame due runs to 50 ms, and
 *  a task that comes meanwhile (a drop, a click) would wait for the rest of it. Not less: with
 *  8 ms the steps ended 0.78–1.05 s after navigation rather than 0.67–0.91 (idle periods here
 *  are mostly a frame's), and a load picked at once meets more of them undone. */
const FILL_BUDGET_MS = 25;

/** Makes the steps in idle callbacks: with no load running, as many as FILL_BUDGET_MS and the
 *  idle period have room for; during a load, one a callback (a linked boot passes `fill: false`:
 *  its load runs before the page says `loading`). One a callback always, they took ~10 s after a
 *  linked boot (a callback asked for in one idle period runs in the next).
 *  Through a canvas's measureText, not a hidden box's layout: a forced layout also lays out
 *  whatever the page has pending, so a step during a load took the load's layout work into its
 *  task. A canvas resolves the same faces through the same font cache and lays out nothing. */
export function warmFonts(faces: FontFace[] = warmOrder(WORKSPACE_FONTS), { fill = true }: { fill?: boolean } = {}): void {
  const ctx = document.createElement('canvas').getContext('2d');
  if (!ctx) return;
  let steps: Step[] | null = null;
  let at = 0;
  // The start page with no load yet (not a link loading before the page says so).
  const startPage = () => fill && document.documentElement.dataset.state === 'empty';
  // No load running (the start page or a shown session), or a parsed load about to be drawn
  // waits for the rest (idle-work.ts). A link's page is `empty` while it loads (`fill` false).
  const filling = () => (fill ? noLoadRunning() : document.documentElement.dataset.state === 'ready') || idleWorkHurried();
  // The walk's specimen only on the start page (WALK_SPECIMEN), and no idle callback spent on one skipped.
  const skipWalks = (all: Step[]) => {
    if (!startPage()) while (at < all.length && all[at][1] === WALK_SPECIMEN) at++;
  };
  const step = (deadline?: IdleDeadline) => {
    // The families as the workspace's text resolves them: the body's, --mono and --chat-mono.
    if (!steps) {
      const root = getComputedStyle(document.documentElement);
      const mono = root.getPropertyValue('--mono').trim();
      const families = { ui: getComputedStyle(document.body).fontFamily, mono, 'chat-mono': root.getPropertyValue('--chat-mono').trim() || mono };
      steps = warmSteps(faces, families);
    }
    // Not while a big load parses (idle-work.ts): a lookup then waits for a core. Hurried, a
    // hold does not count.
    if (idleWorkHeld()) {
      whenIdle(step);
      return;
    }
    // With no load running, as many steps as the budget and the idle period have room for (a
    // step past either is one lookup); while one runs, one a callback.
    const started = performance.now();
    const room = () => filling() && performance.now() - started < FILL_BUDGET_MS && (deadline?.timeRemaining() ?? 0) > IDLE_MARGIN_MS;
    do {
      skipWalks(steps);
      if (at === steps.length) break;
      const [font, text] = steps[at++];
      ctx.font = font;
      ctx.measureText(text);
    } while (room());
    skipWalks(steps);
    if (at < steps.length) whenIdle(step);
    else {
      performance.mark(WARM_MARK);
      done();
    }
  };
  if (!faces.length) return;
  const done = idleWorkStarted();
  whenIdle(step);
}
