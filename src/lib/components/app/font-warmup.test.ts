// The font warm-up resolves each face through a canvas, one an idle callback, and lays out
// nothing of the page (a forced layout during a load took the load's layout into its task).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPECIMEN, WALK_SPECIMEN, WORKSPACE_FONTS, faceKey, warmFonts, warmOrder, type FontFace } from './font-warmup.ts';

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
  for (const k of ['requestIdleCallback', 'document', 'getComputedStyle']) delete (globalThis as Record<string, unknown>)[k];
});

/** Runs the idle callbacks queued so far; how many there were. */
const runIdle = () => {
  const due = idle.splice(0);
  for (const f of due) f();
  return due.length;
};

describe('warmFonts', () => {
  it('resolves every face, one an idle callback, in the families the workspace draws with', () => {
    const faces: FontFace[] = [
      [10.8, 600, false, 'ui'],
      [14.0625, 400, true, 'ui'],
      [11.25, 400, false, 'mono'],
      [12.75, 700, false, 'chat-mono']
    ];
    warmFonts(faces);
    expect(fonts).toEqual([]);
    let callbacks = 0;
    while (idle.length) {
      callbacks += runIdle();
      expect(fonts.length).toBe(callbacks);
    }
    expect(fonts).toEqual([
      '600 10.8px system-ui, sans-serif',
      'italic 400 14.0625px system-ui, sans-serif',
      '400 11.25px ui-monospace, monospace',
      "700 12.75px ui-monospace, 'Liberation Mono', monospace"
    ]);
    expect(measured).toBe(4);
    expect(measuredText).toEqual(Array(4).fill(SPECIMEN));
    expect(appended).not.toHaveBeenCalled();
  });

  it('on an empty page, the first face also meets a character the UI font may lack; during a load it does not', () => {
    const faces: FontFace[] = [
      [10.8, 600, false, 'ui'],
      [11.25, 400, false, 'ui']
    ];
    pageState.state = 'empty';
    warmFonts(faces);
    while (idle.length) runIdle();
    expect(measuredText).toEqual([SPECIMEN + WALK_SPECIMEN, SPECIMEN]);
    measuredText = [];
    pageState.state = 'loading';
    warmFonts(faces);
    while (idle.length) runIdle();
    expect(measuredText).toEqual([SPECIMEN, SPECIMEN]);
  });

  it('draws the chat monospace faces in --mono where the page has no --chat-mono', () => {
    delete vars['--chat-mono'];
    warmFonts([[11.25, 400, false, 'chat-mono']]);
    runIdle();
    expect(fonts).toEqual(['400 11.25px ui-monospace, monospace']);
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
