// A history lane runs one job at a time (serially): the queue sends a lane its next job while one
// builds, and a job awaits its compression, so without this two sessions would be built in one
// lane's heap at once. A failed job does not stop the ones after it.
import { describe, expect, it } from 'vitest';
import { serially } from './lane.ts';

describe('serially', () => {
  it('starts a call only once the one before it has ended, in order, past a failure', async () => {
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const run = serially(async (n: number) => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${n}`);
      // Several turns of the event loop, as a compression's await gives them.
      for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
      log.push(`end ${n}`);
      running--;
      if (n === 2) throw new Error('two failed');
      return n * 10;
    });
    const out = await Promise.allSettled([run(1), run(2), run(3)]);
    expect(most).toBe(1);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([10, 'two failed', 30]);
  });
});
