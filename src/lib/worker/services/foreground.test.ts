import { describe, expect, it } from 'vitest';
import { Foreground } from './foreground.ts';

describe('Foreground', () => {
  it('is busy while any work runs, and idle() waits for the last of it', async () => {
    const fg = new Foreground();
    expect(fg.busy).toBe(false);
    let finishA!: () => void;
    let finishB!: () => void;
    const order: string[] = [];
    const a = fg.run(() => new Promise<void>((r) => (finishA = () => (order.push('a'), r()))));
    const b = fg.run(() => new Promise<void>((r) => (finishB = () => (order.push('b'), r()))));
    expect(fg.busy).toBe(true);
    const idle = fg.idle().then(() => order.push('idle'));
    finishA();
    await a;
    expect(fg.busy).toBe(true);
    expect(order).toEqual(['a']);
    finishB();
    await Promise.all([b, idle]);
    expect(order).toEqual(['a', 'b', 'idle']);
    expect(fg.busy).toBe(false);
  });

  it('starts the work synchronously and stays usable after a failure', async () => {
    const fg = new Foreground();
    let started = false;
    const failed = fg.run(async () => {
      started = true;
      throw new Error('boom');
    });
    expect(started).toBe(true);
    await expect(failed).rejects.toThrow('boom');
    expect(fg.busy).toBe(false);
    await fg.idle();
  });
});
