// Staging a big drop's files: each file is touched (its size read) before the message that
// carries it, every file goes over once, in order, in batches; the page gets a new task whenever
// a slice's time is spent, so no task holds more than a slice and one file; a replaced load stops
// posting; the answers are all awaited before it resolves.
import { describe, expect, it } from 'vitest';
import { STAGE_BATCH, STAGE_SLICE_MS, stageInSlices } from './stage.ts';

describe('stageInSlices', () => {
  it('touches each file before posting it, in order, yields once a slice is spent, and waits for every answer', async () => {
    const items = Array.from({ length: 3 * STAGE_BATCH + 3 }, (_, i) => i);
    let clock = 0;
    const log: string[] = [];
    const touched = new Set<number>();
    let answered = 0;
    const done = await stageInSlices(items, {
      // Each file's size costs 3 ms of the task; a post costs nothing.
      touch: (i) => {
        touched.add(i);
        log.push('touch');
        clock += 3;
      },
      post: async (batch) => {
        expect(batch.every((i) => touched.has(i))).toBe(true);
        log.push(`post ${batch[0]}-${batch[batch.length - 1]}`);
        await Promise.resolve();
        answered++;
      },
      current: () => true,
      now: () => clock,
      yieldTask: async () => {
        log.push('yield');
      }
    });
    expect(done).toBe(true);
    expect(answered).toBe(4);
    expect(log.filter((l) => l.startsWith('post')).map((l) => l.slice(5))).toEqual([`0-${STAGE_BATCH - 1}`, `${STAGE_BATCH}-${2 * STAGE_BATCH - 1}`, `${2 * STAGE_BATCH}-${3 * STAGE_BATCH - 1}`, `${3 * STAGE_BATCH}-${3 * STAGE_BATCH + 2}`]);
    // Between two yields, the touches of one slice: never more than its time allows (the last one may cross it).
    const perTask = log.join(',').split('yield').map((r) => r.split(',').filter((x) => x === 'touch').length);
    expect(Math.max(...perTask)).toBe(Math.ceil(STAGE_SLICE_MS / 3));
  });

  it('stops when the load is replaced', async () => {
    let clock = 0;
    let posts = 0;
    let touches = 0;
    let live = true;
    const done = await stageInSlices(Array.from({ length: 10 * STAGE_BATCH }, (_, i) => i), {
      touch: () => {
        touches++;
        clock += STAGE_SLICE_MS;
      },
      post: async () => void posts++,
      current: () => live,
      now: () => clock,
      yieldTask: async () => {
        live = touches < STAGE_BATCH + 2;
      }
    });
    expect(done).toBe(false);
    expect(touches).toBe(STAGE_BATCH + 2);
    expect(posts).toBe(1);
  });
});
