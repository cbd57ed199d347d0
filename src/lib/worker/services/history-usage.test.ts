import { describe, expect, it } from 'vitest';
import type { BilledCall } from '../../view/history/types.ts';
import { historyUsage } from './history-usage.ts';

const call = (id: string, ms: number, output: number): BilledCall => ({ id, ms, sessionId: 's', sessionKey: 'k', project: 'p', harness: 'claude-code', model: 'claude-sonnet-4-5-20250929', serviceTier: null, input: 1, output, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, webSearches: 0, onPath: true, subagent: false });

describe('historyUsage over the history service', () => {
  it('reads and prepares the calls once per revision, again when the index changes', async () => {
    let reads = 0;
    let calls = [call('a', 1000, 5), call('b', 2000, 7), call('a', 1500, 9)];
    const history = { revision: 1, allCalls: async () => (reads++, calls) };
    expect((await historyUsage(history, { by: 'day' }))!.total).toMatchObject({ messages: 2, output: 16 });
    await historyUsage(history, { by: 'model' });
    expect(reads).toBe(1);
    calls = [...calls, call('c', 3000, 1)];
    history.revision = 2;
    expect((await historyUsage(history, { by: 'day' }))!.total.messages).toBe(3);
    expect(reads).toBe(2);
  });

  it('tries again after a failed read', async () => {
    let fail = true;
    const history = { revision: 1, allCalls: async () => { if (fail) throw new Error('store gone'); return [call('a', 1, 1)]; } };
    await expect(historyUsage(history, { by: 'day' })).rejects.toThrow('store gone');
    fail = false;
    expect((await historyUsage(history, { by: 'day' }))!.total.messages).toBe(1);
  });
});
