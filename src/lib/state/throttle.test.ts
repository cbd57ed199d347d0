import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Throttle } from './throttle.ts';

describe('Throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at most once per interval; requests while one waits join it', async () => {
    const t = new Throttle(1000);
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) t.request(() => runs.push(i));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([4]);
    t.request(() => runs.push(5));
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toEqual([4]);
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toEqual([4, 5]);
  });

  it('a request made while a run is in flight runs after it: the last change lands', async () => {
    const t = new Throttle(100);
    let finish = () => {};
    const runs: string[] = [];
    t.request(() => new Promise<void>((r) => ((finish = r), runs.push('first'))));
    await vi.advanceTimersByTimeAsync(0);
    t.request(() => runs.push('second'));
    await vi.advanceTimersByTimeAsync(500);
    expect(runs).toEqual(['first']);
    finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toEqual(['first', 'second']);
  });

  it('waits at least minWaitMs, survives a failing run, and cancel drops what waits', async () => {
    const t = new Throttle(1000, 300);
    const runs: string[] = [];
    t.request(() => {
      runs.push('fails');
      throw new Error('worker gone');
    });
    await vi.advanceTimersByTimeAsync(299);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual(['fails']);
    t.request(() => runs.push('dropped'));
    t.cancel();
    await vi.advanceTimersByTimeAsync(2000);
    expect(runs).toEqual(['fails']);
    t.request(() => runs.push('after'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toEqual(['fails', 'after']);
  });
});
