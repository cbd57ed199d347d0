import { describe, expect, it } from 'vitest';
import type { ChatIndex, RowIndexEntry } from '../worker/protocol.ts';
import { fetchChatIndex, type IndexApi } from './chat-index.ts';

const entry = (i: number): RowIndexEntry => ({ key: `r${i}`, kind: 'assistant', atomUuid: `a${i}`, turnIndex: i >> 2, estHeight: 40, preview: `row ${i}`, defaultOpen: false, ms: null });

/** An engine holding `n` rows; `rebuildAfter` calls in, its rows are rebuilt (a new stamp). */
function engine(n: number, rebuildAfter = Infinity) {
  const calls: [number | undefined, number | undefined][] = [];
  const api: IndexApi = {
    async chatIndex(key, from, to) {
      calls.push([from, to]);
      if (key !== 's') return null;
      const stamp = calls.length > rebuildAfter ? 2 : 1;
      const rows = Array.from({ length: n }, (_, i) => entry(i));
      return { sessionKey: key, rows: rows.slice(from ?? 0, to ?? Infinity), total: n, stamp } satisfies ChatIndex;
    }
  };
  return { api, calls };
}

describe('fetchChatIndex', () => {
  it('takes a small index in one request', async () => {
    const { api, calls } = engine(7);
    const index = await fetchChatIndex(api, 's', 10);
    expect(index?.rows.map((r) => r.key)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(calls).toEqual([[0, 10]]);
  });

  it('takes a big index in pages and joins them in order', async () => {
    const { api, calls } = engine(25);
    const index = await fetchChatIndex(api, 's', 10);
    expect(index?.rows.map((r) => r.key)).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
    expect(index?.total).toBe(25);
    expect(calls).toEqual([
      [0, 10],
      [10, 20],
      [20, 30]
    ]);
  });

  it('asks for the whole index again when the rows were rebuilt between pages', async () => {
    const { api, calls } = engine(25, 2);
    const index = await fetchChatIndex(api, 's', 10);
    expect(index?.rows).toHaveLength(25);
    expect(index?.stamp).toBe(2);
    expect(calls.at(-1)).toEqual([undefined, undefined]);
  });

  it('is null for a session the engine does not have', async () => {
    expect(await fetchChatIndex(engine(3).api, 'gone', 10)).toBeNull();
  });
});
