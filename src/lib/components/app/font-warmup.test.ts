// The font warm-up resolves each face through a canvas, one lookup an idle callback, and lays out
// nothing of the page (a forced layout during a load took the load's layout into its task).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { holdIdleWork, hurryIdleWork } from '$lib/state/idle-work';
import { LATIN, MARKS, WALK_SPECIMEN, WARM_MARK, WORKSPACE_FONTS, faceKey, familyNames, warmFonts, warmOrder, warmSteps, type FontFace } from './font-warmup.ts';

let idle: (() => void)[];
let fonts: string[];
let measured: number;
let measuredText: string[];
let vars: Record<string, string>;
let pageState: { state?: string };
const appended = vi.fn();

beforeEach(() => {
  idle = [];
  fonts = [];
  measured = 0;
  measuredText = [];
  pageState = { state: 'loading' };
  vars = { '--mono': ' ui-monospace, monospace', '--chat-mono': ' ui-monospace, \'Liberation Mono\', monospace' };
  appended.mockClear();
  const ctx = {
    set font(f: string) {
      fonts.push(f);
    },
    measureText: (text: string) => {
      measured++;
      measuredText.push(text);
    }
  };
  Object.assign(globalThis, {
    requestIdleCallback: (f: () => void) => idle.push(f),
    document: { createElement: (tag: string) => (tag === 'canvas' ? { getContext: () => ctx } : {}), body: { append: appended }, documentElement: { dataset: pageState } },
    getComputedStyle: () => ({ fontFamily: 'system-ui, sans-serif', getPropertyValue: (v: string) => vars[v] ?? '' })
  });
});
afterEach(() => {
  // Each test's warm-up runs to its end: an unfinished one would stay undone work for a later
  // test's hurryIdleWork to wait on.
  pageState.state = 'ready';
  while (idle.length) runIdle({ timeRemaining: () => 50 });
  performance.clearMarks(WARM_MARK);
  for (const k of ['requestIdleCallback', 'document', 'getComputedStyle']) delete (globalThis as Record<string, unknown>)[k];
});

/** Runs the idle callbacks queued so far; how many there were. */
const runIdle = (deadline?: { timeRemaining: () => number }) => {
  const due = idle.splice(0);
  for (const f of due) (f as (d?: unknown) => void)(deadline);
  return due.length;
};

describe('warmSteps', () => {
  const families = { ui: 'system-ui, sans-serif', mono: 'ui-monospace, monospace', 'chat-mono': "ui-monospace, 'Liberation Mono', monospace" };

  it("resolves a group's first face one name at a time, shortest tail first, then its text and each mark alone", () => {
    expect(warmSteps([[12.75, 700, false, 'chat-mono']], families)).toEqual([
      ['700 12.75px monospace', 'L'],
      ["700 12.75px 'Liberation Mono', monospace", 'L'],
      ["700 12.75px ui-monospace, 'Liberation Mono', monospace", LATIN],
      ...MARKS.map((m) => ["700 12.75px ui-monospace, 'Liberation Mono', monospace", m])
    ]);
  });

  it('measures a further size of a group in two steps, and the walk only in the UI groups', () => {
    const steps = warmSteps(
      [
        [10.8, 600, false, 'ui'],
        [14.0625, 400, true, 'ui'],
        [11.25, 400, false, 'mono'],
        [12, 600, false, 'ui']
      ],
      families
    );
    const italic = 'italic 400 14.0625px system-ui, sans-serif';
    expect(steps.filter(([, text]) => text === WALK_SPECIMEN)).toEqual([['600 10.8px system-ui, sans-serif', WALK_SPECIMEN], [italic, WALK_SPECIMEN]]);
    expect(steps.filter(([font]) => font.startsWith('italic'))).toEqual([
      ['italic 400 14.0625px sans-serif', 'L'],
      [italic, LATIN],
      ...MARKS.map((m) => [italic, m]),
      [italic, WALK_SPECIMEN]
    ]);
    expect(steps.slice(-2)).toEqual([
      ['600 12px system-ui, sans-serif', LATIN],
      ['600 12px system-ui, sans-serif', MARKS.join(' ')]
    ]);
  });

  it('splits a family list into its names, a quoted name whole', () => {
    expect(familyNames(` "Fira, Code" , 'Liberation Mono',monospace `)).toEqual(['"Fira, Code"', "'Liberation Mono'", 'monospace']);
    expect(familyNames('')).toEqual([]);
  });
});

describe('warmFonts', () => {
  it('makes one step an idle callback, in the families the workspace draws with, laying out nothing', () => {
    const faces: FontFace[] = [
      [10.8, 600, false, 'ui'],
      [12.75, 700, false, 'chat-mono']
    ];
    const steps = warmSteps(faces, { ui: 'system-ui, sans-serif', mono: 'ui-monospace, monospace', 'chat-mono': "ui-monospace, 'Liberation Mono', monospace" });
    pageState.state = 'empty';
    warmFonts(faces);
    expect(fonts).toEqual([]);
    let callbacks = 0;
    while (idle.length) {
      callbacks += runIdle();
      expect(fonts.length).toBe(callbacks);
    }
    expect(fonts).toEqual(steps.map(([font]) => font));
    expect(measuredText).toEqual(steps.map(([, text]) => text));
    expect(appended).not.toHaveBeenCalled();
  });

  it('skips the walk once a load has started, without spending an idle callback on it', () => {
    const faces: FontFace[] = [[10.8, 600, false, 'ui']];
    warmFonts(faces);
    let callbacks = 0;
    while (idle.length) callbacks += runIdle();
    expect(measuredText).not.toContain(WALK_SPECIMEN);
    expect(measuredText).toEqual([...warmSteps(faces, { ui: 'system-ui, sans-serif', mono: 'x', 'chat-mono': 'x' }).map(([, t]) => t)].filter((t) => t !== WALK_SPECIMEN));
    expect(callbacks).toBe(measured);
  });

  it('with no load running fills each idle period, a step at a time while it has room; during a load, one step a callback', () => {
    const faces: FontFace[] = [[12.75, 700, false, 'chat-mono']];
    const total = warmSteps(faces, { ui: 'x', mono: 'x', 'chat-mono': "ui-monospace, 'Liberation Mono', monospace" }).length;
    pageState.state = 'empty';
    warmFonts(faces);
    // The time left after each step: a further step starts only while more than 4 ms are left.
    const left = [9, 5, 3, 50];
    runIdle({ timeRemaining: () => left.shift() ?? 0 });
    expect(measured).toBe(3);
    pageState.state = 'loading';
    runIdle({ timeRemaining: () => 50 });
    expect(measured).toBe(4);
    // A session shown: no load running, the idle period is filled again.
    pageState.state = 'ready';
    const left2 = [9, 3];
    runIdle({ timeRemaining: () => left2.shift() ?? 0 });
    expect(measured).toBe(6);
    while (idle.length) runIdle({ timeRemaining: () => 50 });
    expect(measured).toBe(total);
    expect(performance.getEntriesByName(WARM_MARK)).toHaveLength(1);
  });

  it('spends at most its budget of one idle period, and fills none on a page that a link is loading', () => {
    const faces: FontFace[] = [[12.75, 700, false, 'chat-mono']];
    pageState.state = 'empty';
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 10));
    warmFonts(faces);
    // A 50 ms idle period; each step "takes" 10 ms: steps start at 0, 10 and 20 ms, not at 30 (the budget is 25).
    runIdle({ timeRemaining: () => 50 });
    expect(measured).toBe(3);
    now.mockRestore();
    while (idle.length) runIdle({ timeRemaining: () => 50 });
    measured = 0;
    measuredText = [];
    warmFonts([[10.8, 600, false, 'ui']], { fill: false });
    runIdle({ timeRemaining: () => 50 });
    expect(measured).toBe(1);
    // Nor the walk: a link is loading.
    while (idle.length) runIdle({ timeRemaining: () => 50 });
    expect(measuredText).not.toContain(WALK_SPECIMEN);
  });

  it('makes no step while a big load holds idle work, and goes on once it is released', () => {
    const release = holdIdleWork();
    warmFonts([[10.8, 600, false, 'ui']]);
    for (let i = 0; i < 5; i++) expect(runIdle()).toBe(1);
    expect(measured).toBe(0);
    release();
    runIdle();
    expect(measured).toBe(1);
  });

  it('hurried once the held load is parsed, fills its idle periods during the load and ends the hurry when done', async () => {
    const release = holdIdleWork();
    warmFonts([[10.8, 600, false, 'ui'], [13, 400, false, 'ui']]);
    const total = warmSteps(warmOrder([[10.8, 600, false, 'ui'], [13, 400, false, 'ui']]), { ui: 'system-ui, sans-serif', mono: '', 'chat-mono': '' }).filter(([, t]) => t !== WALK_SPECIMEN).length;
    runIdle({ timeRemaining: () => 40 });
    expect(measured).toBe(0);
    release();
    let hurried = false;
    const hurry = hurryIdleWork(10_000).then(() => (hurried = true));
    runIdle({ timeRemaining: () => 40 });
    // The whole rest in one idle period, though the page still says loading.
    expect(pageState.state).toBe('loading');
    expect(measured).toBe(total);
    await hurry;
    expect(hurried).toBe(true);
  });

  it('draws the chat monospace faces in --mono where the page has no --chat-mono', () => {
    delete vars['--chat-mono'];
    warmFonts([[11.25, 400, false, 'chat-mono']]);
    while (idle.length) runIdle();
    expect(new Set(fonts)).toEqual(new Set(['400 11.25px monospace', '400 11.25px ui-monospace, monospace']));
  });
});

describe('warmOrder', () => {
  it('puts the first face of each family list, weight and style ahead of further sizes, keeping list order', () => {
    const faces: FontFace[] = [
      [10, 400, false, 'ui'],
      [11, 400, false, 'ui'],
      [11, 400, false, 'chat-mono'],
      [12, 400, false, 'ui'],
      [12, 700, false, 'ui'],
      [13, 400, false, 'chat-mono'],
      [14, 400, true, 'ui']
    ];
    expect(warmOrder(faces).map(faceKey)).toEqual(
      ['ui|10|400|normal', 'chat-mono|11|400|normal', 'ui|12|700|normal', 'ui|14|400|italic', 'ui|11|400|normal', 'ui|12|400|normal', 'chat-mono|13|400|normal']
    );
  });
  it('keeps every workspace face, the UI font first (the walk is measured in the first face)', () => {
    const ordered = warmOrder(WORKSPACE_FONTS);
    expect(new Set(ordered.map(faceKey))).toEqual(new Set(WORKSPACE_FONTS.map(faceKey)));
    expect(ordered).toHaveLength(WORKSPACE_FONTS.length);
    expect(ordered[0][3]).toBe('ui');
  });
});
