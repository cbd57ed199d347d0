import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// `paced` is not run here: Vitest compiles rune modules for the server, where effects do not run
// (see timeline/TimelineView.svelte.test.ts); its steps are waited on in the browser through
// data-drawn (e2e/history-usage.spec.ts, e2e/timeline.spec.ts and the timeline bench page wait on it).
import { afterPaint, afterTask, stepsWithin } from './paint.svelte.ts';

// A hand-driven frame clock: `frame()` runs the callbacks requested so far, as a paint would.
let frames: Map<number, FrameRequestCallback>;
let nextId = 0;
const frame = () => {
  const due = [...frames.values()];
  frames.clear();
  for (const f of due) f(0);
};
const tasks = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  frames = new Map();
  globalThis.requestAnimationFrame = (f) => (frames.set(++nextId, f), nextId);
  globalThis.cancelAnimationFrame = (id) => void frames.delete(id);
});
afterEach(() => {
  delete (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame;
  delete (globalThis as { cancelAnimationFrame?: unknown }).cancelAnimationFrame;
});

describe('afterPaint', () => {
  it('runs in a task after the next frame, not before it, and a cancel stops it', async () => {
    const ran: string[] = [];
    afterPaint(() => ran.push('a'));
    const cancel = afterPaint(() => ran.push('b'));
    await tasks();
    expect(ran).toEqual([]); // no frame painted yet
    cancel();
    frame();
    expect(ran).toEqual([]); // queued as a task of its own, not inside the frame
    await tasks();
    expect(ran).toEqual(['a']);
  });
});

describe('afterTask', () => {
  it('runs in the next task without waiting for a frame, and a cancel stops it', async () => {
    const ran: string[] = [];
    afterTask(() => ran.push('a'));
    const cancel = afterTask(() => ran.push('b'));
    cancel();
    expect(ran).toEqual([]);
    await tasks();
    expect(ran).toEqual(['a']);
    expect(frames.size).toBe(0);
  });
});

describe('stepsWithin', () => {
  it('takes steps while twice the last one still fits the budget, at least one, and stops when none remain', () => {
    let clock = 0;
    const now = () => clock;
    const costing = (ms: number[]) => {
      let i = 0;
      return () => ((clock += ms[i++] ?? 0), i < ms.length);
    };
    // 3 ms steps in 25 ms: after 6 (18 ms), 18 + 2 × 3 < 25 goes on; after 7 (21 ms) it does not.
    expect(stepsWithin(25, costing([3, 3, 3, 3, 3, 3, 3, 3, 3, 3]), now)).toBe(7);
    // One slow step: it runs (at least one), and nothing after it.
    clock = 0;
    expect(stepsWithin(25, costing([40, 1, 1]), now)).toBe(1);
    // A step that grows: 2, 4, 8: after 2+4 = 6, twice 4 fits (14 < 25); after 14, twice 8 does not.
    clock = 0;
    expect(stepsWithin(25, costing([2, 4, 8, 1]), now)).toBe(3);
    // None remain after the second.
    clock = 0;
    expect(stepsWithin(25, costing([1, 1]), now)).toBe(2);
  });
});
