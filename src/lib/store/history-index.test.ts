import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { historyId, openHistoryStore, storedSize } from './history-index.ts';

let n = 0;
const fresh = () => `loupe-history-test-${++n}`;

function entry(key: string, endedAt: number, calls = 3) {
  return {
    key,
    digest: { key, title: `t ${key}`, project: 'p', harness: 'claude-code', startedAt: endedAt - 10, endedAt, bytes: 100, turns: 2, prompts: 2, tools: { Bash: { calls: 1, failures: 0 } }, filesTouched: [], compactions: 0, subagents: 0, costUsd: 0.5, unpricedMessages: 0 },
    calls: Array.from({ length: calls }, (_, i) => ({ id: `${key}:${i}`, ms: endedAt, sessionId: key, sessionKey: key, project: 'p', harness: 'claude-code', model: 'claude-sonnet-4-5', serviceTier: null, input: 1, output: 2, cacheRead: 3, cacheWrite5m: 4, cacheWrite1h: 0, webSearches: 0, onPath: true, subagent: false }))
  };
}

async function open(opts: { maxBytes?: number } = {}) {
  const s = await openHistoryStore<ReturnType<typeof entry>['digest'], ReturnType<typeof entry>['calls'][number]>({ dbName: fresh(), ...opts });
  if (!s) throw new Error('no store');
  return s;
}

const realPut = IDBObjectStore.prototype.put;
afterEach(() => {
  IDBObjectStore.prototype.put = realPut;
});

describe('history index store', () => {
  it('reads back heads whose files signature matches, bodies on demand, and counts its bytes', async () => {
    const s = await open();
    const put = await s.put([{ entry: entry('a', 1000), sig: 'sa', lastMs: 1000 }, { entry: entry('b', 2000), sig: 'sb', lastMs: 2000 }]);
    expect(put.ok && put.evicted).toBe(0);
    const heads = await s.heads(new Map([['a', 'sa'], ['b', 'changed'], ['c', 'sc']]));
    expect([...heads.keys()]).toEqual(['a']);
    expect(heads.get('a')?.digest.title).toBe('t a');
    expect(heads.get('a')?.calls).toBe(3);
    expect(heads.get('a')?.id).toBe(historyId('a'));
    const bodies = await s.bodies(['a', 'b', 'zz']);
    expect(bodies.get('a')?.calls.map((c) => c.id)).toEqual(['a:0', 'a:1', 'a:2']);
    expect(bodies.has('zz')).toBe(false);
    const st = await s.stats();
    expect(st.sessions).toBe(2);
    expect(st.bytes).toBe(heads.get('a')!.bytes + (await s.heads(new Map([['b', 'sb']]))).get('b')!.bytes);
    expect(put.ok && put.bytes).toBe(st.bytes);
    expect(put.ok && put.sizes.get('a')).toBe(heads.get('a')!.bytes);
    expect(st.bytes).toBeGreaterThan(JSON.stringify(entry('a', 1000)).length);
    await s.remove(['a']);
    expect((await s.stats()).sessions).toBe(1);
    await s.clear();
    expect(await s.stats()).toEqual({ sessions: 0, bytes: 0 });
    expect((await s.heads(new Map([['b', 'sb']]))).size).toBe(0);
  });

  it('keeps a summary for the entries exactly as they are: a put or a remove drops it, one made before a change is refused, clear takes it', async () => {
    const s = await open();
    expect(await s.summary()).toBeNull();
    await s.put([{ entry: entry('a', 1000), sig: 'sa', lastMs: 1000 }]);
    const rev = await s.rev();
    expect(await s.putSummary(rev, { n: 1, cost: new Float64Array([1.5, 2]) })).toBe(true);
    expect(await s.summary()).toEqual({ n: 1, cost: new Float64Array([1.5, 2]) });
    await s.put([{ entry: entry('b', 2000), sig: 'sb', lastMs: 2000 }]);
    expect(await s.summary()).toBeNull();
    // Made of the entries before b went in: refused.
    expect(await s.putSummary(rev, { n: 1 })).toBe(false);
    expect(await s.rev()).not.toBe(rev);
    expect(await s.putSummary(await s.rev(), { n: 2 })).toBe(true);
    expect(await s.summary()).toEqual({ n: 2 });
    await s.remove(['a']);
    expect(await s.summary()).toBeNull();
    expect(await s.putSummary(await s.rev(), { n: 3 })).toBe(true);
    // Eviction is a change too: a put over the cap takes the oldest entry and the summary with it.
    const small = await open({ maxBytes: 1 });
    await small.put([{ entry: entry('x', 1000), sig: 'sx', lastMs: 1000 }]);
    expect(await small.putSummary(await small.rev(), { n: 4 })).toBe(true);
    await small.put([{ entry: entry('y', 2000), sig: 'sy', lastMs: 2000 }]);
    expect(await small.summary()).toBeNull();
    await s.clear();
    expect(await s.summary()).toBeNull();
  });

  it('keeps a search index\'s text apart: bodies come without it, texts() reads it; a version-1 body keeps its own', async () => {
    const name = fresh();
    // A store as version 1 wrote it: the search index whole, inside the body.
    const v1 = await openDB(name, 1, { upgrade: (d) => (d.createObjectStore('heads', { keyPath: 'id' }).createIndex('lastMs', 'lastMs'), d.createObjectStore('bodies', { keyPath: 'id' })) });
    const old = entry('old', 1000);
    await v1.put('heads', { id: historyId('old'), key: 'old', sig: 's', lastMs: 1000, bytes: 10, savedAt: 1, digest: old.digest, calls: 3 });
    await v1.put('bodies', { id: historyId('old'), calls: old.calls, search: { v: 1, text: new Uint8Array([9, 9]) } });
    v1.close();
    const s = await openHistoryStore<ReturnType<typeof entry>['digest'], ReturnType<typeof entry>['calls'][number]>({ dbName: name });
    if (!s) throw new Error('no store');
    const text = new Uint8Array(5000).fill(7);
    const put = await s.put([{ entry: { ...entry('new', 2000), search: { v: 1, filter: 'f', text } }, sig: 's', lastMs: 2000 }]);
    const bodies = await s.bodies(['old', 'new']);
    expect(bodies.get('new')?.search).toEqual({ v: 1, filter: 'f', text: null, textBytes: 5000 });
    expect(bodies.get('new')?.calls).toHaveLength(3);
    expect(bodies.get('old')?.search).toEqual({ v: 1, text: new Uint8Array([9, 9]) });
    const texts = await s.texts(['new', 'old', 'none']);
    expect([...texts.keys()]).toEqual(['new']);
    expect(texts.get('new')).toEqual(text);
    // The text counts in the entry's bytes, and goes with it.
    expect(put.ok && put.bytes).toBeGreaterThan(5000);
    await s.remove(['new']);
    expect((await s.texts(['new'])).size).toBe(0);
    s.close();
  });

  it('keys entries by the caller’s format: another format finds none of them, so they are read again', async () => {
    const dbName = fresh();
    const v4 = await openHistoryStore<ReturnType<typeof entry>['digest'], ReturnType<typeof entry>['calls'][number]>({ dbName, format: 'search-4' });
    await v4!.put([{ entry: entry('a', 1000), sig: 'sa', lastMs: 1000 }]);
    const again = await openHistoryStore({ dbName, format: 'search-4' });
    expect((await again!.heads(new Map([['a', 'sa']]))).size).toBe(1);
    const v5 = await openHistoryStore({ dbName, format: 'search-5' });
    expect((await v5!.heads(new Map([['a', 'sa']]))).size).toBe(0);
    // Read back without its files: this format's heads, the other's counted as stale.
    expect(await v5!.all()).toEqual({ heads: [], stale: 1 });
    const all = await again!.all();
    expect(all.heads.map((h) => h.key)).toEqual(['a']);
    expect(all.stale).toBe(0);
    expect((await v5!.bodies(['a'])).size).toBe(0);
    expect(historyId('a', 'search-5')).not.toBe(historyId('a', 'search-4'));
    // Read again under the new format: no longer stale.
    await v5!.put([{ entry: entry('a', 1000), sig: 'sa', lastMs: 1000 }]);
    expect((await v5!.all()).stale).toBe(0);
  });

  it('stays under its cap by evicting the oldest history first', async () => {
    const one = JSON.stringify(entry('k0', 5)).length;
    const s = await open({ maxBytes: one * 3.5 * 1.3 });
    for (const [k, t] of [['old', 100], ['newer', 300], ['mid', 200]] as const) await s.put([{ entry: entry(k, t), sig: 'x', lastMs: t }]);
    const out = await s.put([{ entry: entry('newest', 400), sig: 'x', lastMs: 400 }]);
    expect(out.ok && out.evicted).toBeGreaterThanOrEqual(1);
    const left = await s.heads(new Map(['old', 'mid', 'newer', 'newest'].map((k) => [k, 'x'])));
    expect(left.has('old')).toBe(false);
    expect(left.has('newest')).toBe(true);
    expect(left.has('newer')).toBe(true);
  });

  it('a full disk: evicts the oldest history and retries; still full reports quota and throws nothing', async () => {
    const s = await open();
    await s.put([{ entry: entry('old', 1100), sig: 'x', lastMs: 1100 }, { entry: entry('mid', 1200), sig: 'x', lastMs: 1200 }]);
    // The disk holds two entries' worth: a third fails until one is gone.
    let stored = 2;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'heads' && stored >= 2) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      if (this.name === 'heads') stored++;
      return realPut.apply(this, args);
    } as IDBObjectStore['put'];
    const origDelete = IDBObjectStore.prototype.delete;
    IDBObjectStore.prototype.delete = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['delete']>) {
      if (this.name === 'heads') stored--;
      return origDelete.apply(this, args);
    } as IDBObjectStore['delete'];
    try {
      const out = await s.put([{ entry: entry('new', 1300), sig: 'x', lastMs: 1300 }]);
      expect(out.ok && out.evicted).toBe(1);
      const left = await s.heads(new Map(['old', 'mid', 'new'].map((k) => [k, 'x'])));
      expect([...left.keys()].sort()).toEqual(['mid', 'new']);
      // Nothing left that may go (the write itself is too big): a quota failure, as a value.
      IDBObjectStore.prototype.put = function () {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      } as IDBObjectStore['put'];
      const failed = await s.put([{ entry: entry('more', 1500), sig: 'x', lastMs: 1500 }]);
      expect(failed.ok).toBe(false);
      expect(!failed.ok && failed.quota).toBe(true);
    } finally {
      IDBObjectStore.prototype.delete = origDelete;
    }
  });
});

describe('storedSize', () => {
  it('counts binary data by its bytes, not by its JSON text', () => {
    const blob = new Uint8Array(10_000).map((_, i) => (i * 37) % 256);
    expect(storedSize(blob)).toBe(10_000);
    expect(JSON.stringify(blob).length).toBeGreaterThan(40_000);
    // An index entry holding it: the bytes plus a little for the rest.
    const entry = { key: 'k', search: { packed: blob, grams: new Uint32Array(500) } };
    expect(storedSize(entry)).toBeGreaterThanOrEqual(12_000);
    expect(storedSize(entry)).toBeLessThan(12_100);
  });
  it('counts strings, numbers and nesting', () => {
    expect(storedSize('abc')).toBe(5);
    expect(storedSize(12345.678)).toBe(8);
    expect(storedSize({ a: [1, 2] })).toBe(2 + 1 + 3 + (2 + 9 + 9));
  });
});
