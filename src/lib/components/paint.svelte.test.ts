import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// `paced` is not run here: Vitest compiles rune modules for the server, where effects do not run
// (see timeline/TimelineView.svelte.test.ts); its steps are waited on in the browser through
// data-drawn (e2e/history-usage.spec.ts, e2e/timeline.spec.ts and the timeline bench page wait on it).
import { afterPaint, afterTask } from './paint.svelte.ts';

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
