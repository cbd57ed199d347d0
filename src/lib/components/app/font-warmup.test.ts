// The font warm-up resolves each face through a canvas, in idle callbacks (as many faces as an
// idle period has room for, one where the callback has no deadline), and lays out
// nothing of the page (a forced layout during a load took the load's layout into its task).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SPECIMEN, WALK_SPECIMEN, warmFonts, type FontFace } from './font-warmup.ts';

let idle: ((deadline?: IdleDeadline) => void)[];
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
    requestIdleCallback: (f: (deadline?: IdleDeadline) => void) => idle.push(f),
    document: { createElement: (tag: string) => (tag === 'canvas' ? { getContext: () => ctx } : {}), body: { append: appended }, documentElement: { dataset: pageState } },
    getComputedStyle: () => ({ fontFamily: 'system-ui, sans-serif', getPropertyValue: (v: string) => vars[v] ?? '' })
  });
});
afterEach(() => {
  for (const k of ['requestIdleCallback', 'document', 'getComputedStyle']) delete (globalThis as Record<string, unknown>)[k];
});

/** Regular faces of the UI font at these sizes. */
const uiFaces = (...px: number[]): FontFace[] => px.map((p) => [p, 400, false, 'ui']);

/** Runs the idle callbacks queued so far; how many there were. */
const runIdle = () => {
  const due = idle.splice(0);
  for (const f of due) f();
  return due.length;
};

describe('warmFonts', () => {
  it('resolves every face, one a callback without a deadline, in the families the workspace draws with', () => {
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

  it('measures faces while the idle period has room, and goes on in the next callback', () => {
    warmFonts(uiFaces(10, 11, 12, 13));
    // 49 ms left: room for another face; 31: room; 12: the callback stops after its third face.
    const left = [49, 31, 12];
    idle.shift()!({ timeRemaining: () => left.shift() ?? 0, didTimeout: false } as IdleDeadline);
    expect(fonts).toHaveLength(3);
    expect(idle).toHaveLength(1);
    idle.shift()!({ timeRemaining: () => 49, didTimeout: false } as IdleDeadline);
    expect(fonts.map((f) => f.split(' ')[1])).toEqual(['10px', '11px', '12px', '13px']);
    expect(idle).toHaveLength(0);
  });

  it('on an empty page, the first face also meets a character the UI font may lack; during a load it does not', () => {
    const faces = uiFaces(10.8, 11.25);
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
