import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashBlob } from './content-hash';
import {
  DB_VERSION, NOTICES, openCache, type CacheFile, type CacheStatus, type OpenCacheOptions, type SessionSummary
} from './session-cache';

let dbCounter = 0;
/** Each test gets its own database so state never leaks between tests. */
const freshName = () => `loupe-test-${++dbCounter}`;

function clock(start = 1_000): () => number {
  let t = start;
  return () => ++t;
}

const summary = (key: string, extra: Partial<SessionSummary> = {}): SessionSummary => ({
  key, title: `title ${key}`, startedAt: 100, endedAt: 200, bytes: 0, turns: 3, ...extra
});
const file = (path: string, text: string, kind = 'transcript'): CacheFile => ({ path, kind, blob: new Blob([text]) });

async function open(opts: OpenCacheOptions = {}) {
  return openCache({ dbName: freshName(), now: clock(), ...opts });
}

/** Reads the blobs store directly, to check what the cache really keeps. */
async function rawBlobs(dbName: string): Promise<{ hash: string; refs: number; bytes: number }[]> {
  const db = await openDB(dbName);
  const all = (await db.getAll('blobs')) as { hash: string; refs: number; bytes: number }[];
  db.close();
  return all.map(({ hash, refs, bytes }) => ({ hash, refs, bytes })).sort((a, b) => (a.hash < b.hash ? -1 : 1));
}

async function bytesOf(f: CacheFile): Promise<Uint8Array> {
  return new Uint8Array(await f.blob.arrayBuffer());
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('session cache round trip', () => {
  it('stores files and metadata, lists, reopens with identical bytes, and removes', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    expect(cache.status).toBe('ok');
    expect(cache.notice).toBeNull();
    const files = [file('p/s1.jsonl', '{"a":1}\n{"b":"é"}\n'), file('p/s1/subagents/agent-x.jsonl', '{"c":2}\n', 'subagent')];

    expect(await cache.put(summary('s1', { bytes: 30 }), files)).toBe(true);

    const [meta] = await cache.list();
    expect(meta).toMatchObject({ key: 's1', title: 'title s1', startedAt: 100, endedAt: 200, bytes: 30, turns: 3 });
    expect(meta.files).toEqual([
      { path: 'p/s1.jsonl', kind: 'transcript', hash: await hashBlob(files[0].blob), bytes: files[0].blob.size },
      { path: 'p/s1/subagents/agent-x.jsonl', kind: 'subagent', hash: await hashBlob(files[1].blob), bytes: 8 }
    ]);
    expect(meta.files[0].hash).toMatch(/^[0-9a-f]{64}$/);

    const opened = await cache.open('s1');
    expect(opened?.files.map((f) => [f.path, f.kind])).toEqual([['p/s1.jsonl', 'transcript'], ['p/s1/subagents/agent-x.jsonl', 'subagent']]);
    expect(await bytesOf(opened!.files[0])).toEqual(await bytesOf(files[0]));
    expect(await bytesOf(opened!.files[1])).toEqual(await bytesOf(files[1]));
    expect(await cache.usage()).toBe(files[0].blob.size + 8);

    await cache.remove('s1');
    expect(await cache.list()).toEqual([]);
    expect(await cache.open('s1')).toBeUndefined();
    expect(await cache.usage()).toBe(0);
    expect(await rawBlobs(dbName)).toEqual([]);
    cache.close();
  });

  it('lists the most recently opened first and open() refreshes lastOpenedAt', async () => {
    const cache = await open();
    await cache.put(summary('a'), [file('a.jsonl', 'A')]);
    await cache.put(summary('b'), [file('b.jsonl', 'B')]);
    expect((await cache.list()).map((m) => m.key)).toEqual(['b', 'a']);
    const before = (await cache.list())[1].lastOpenedAt;
    const reopened = await cache.open('a');
    expect(reopened!.meta.lastOpenedAt).toBeGreaterThan(before);
    expect((await cache.list()).map((m) => m.key)).toEqual(['a', 'b']);
  });

  it('re-putting a key replaces its files, keeps addedAt and releases the old blob', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    await cache.put(summary('s'), [file('s.jsonl', 'version one')]);
    const addedAt = (await cache.list())[0].addedAt;
    await cache.put(summary('s', { turns: 9 }), [file('s.jsonl', 'version two!')]);
    const [meta] = await cache.list();
    expect(meta).toMatchObject({ addedAt, turns: 9 });
    expect(meta.lastOpenedAt).toBeGreaterThan(addedAt);
    expect(await rawBlobs(dbName)).toEqual([{ hash: await hashBlob(new Blob(['version two!'])), refs: 1, bytes: 12 }]);
    expect(await new Blob([(await cache.open('s'))!.files[0].blob]).text()).toBe('version two!');
  });

  it('re-putting the same files does not add references (remove still frees them)', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    await cache.put(summary('s'), [file('s.jsonl', 'same bytes')]);
    await cache.put(summary('s'), [file('s.jsonl', 'same bytes')]);
    expect((await rawBlobs(dbName)).map((b) => b.refs)).toEqual([1]);
    await cache.remove('s');
    expect(await rawBlobs(dbName)).toEqual([]);
  });

  it('a session whose blob vanished opens as undefined and leaves the list, releasing its other blobs', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    const lost = file('lost.jsonl', 'gone');
    await cache.put(summary('s'), [file('kept.jsonl', 'still here'), lost]);
    const db = await openDB(dbName);
    await db.delete('blobs', await hashBlob(lost.blob));
    db.close();
    expect(await cache.open('s')).toBeUndefined();
    expect(await cache.list()).toEqual([]);
    expect(await rawBlobs(dbName)).toEqual([]);
  });

  it('open() of an unknown key resolves undefined', async () => {
    const cache = await open();
    expect(await cache.open('nope')).toBeUndefined();
  });
});

describe('dedupe by content hash', () => {
  it('stores a file shared by two sessions once and keeps it until both are removed', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    const shared = 'states/s.jsonl contents';
    await cache.put(summary('one'), [file('one.jsonl', 'first'), file('states/x.jsonl', shared, 'state-log')]);
    await cache.put(summary('two'), [file('two.jsonl', 'second!'), file('other/path.jsonl', shared, 'state-log')]);

    const sharedHash = await hashBlob(new Blob([shared]));
    const blobs = await rawBlobs(dbName);
    expect(blobs).toHaveLength(3);
    expect(blobs.find((b) => b.hash === sharedHash)?.refs).toBe(2);
    expect(await cache.usage()).toBe(5 + 7 + shared.length);

    await cache.remove('one');
    expect((await rawBlobs(dbName)).map((b) => [b.hash === sharedHash, b.refs])).toEqual(
      expect.arrayContaining([[true, 1]])
    );
    expect(await rawBlobs(dbName)).toHaveLength(2);
    const two = await cache.open('two');
    expect(await two!.files[1].blob.text()).toBe(shared);

    await cache.remove('two');
    expect(await rawBlobs(dbName)).toEqual([]);
  });

  it('counts a file repeated within one session once', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    await cache.put(summary('s'), [file('a.jsonl', 'same'), file('b.jsonl', 'same')]);
    expect(await rawBlobs(dbName)).toEqual([{ hash: await hashBlob(new Blob(['same'])), refs: 1, bytes: 4 }]);
    const opened = await cache.open('s');
    expect(await Promise.all(opened!.files.map((f) => f.blob.text()))).toEqual(['same', 'same']);
    await cache.remove('s');
    expect(await rawBlobs(dbName)).toEqual([]);
  });
});

describe('bounded storage', () => {
  it('evicts the least recently opened sessions beyond the budget', async () => {
    const cache = await open({ budgetBytes: 25 });
    await cache.put(summary('a'), [file('a.jsonl', 'aaaaaaaaaa')]);
    await cache.put(summary('b'), [file('b.jsonl', 'bbbbbbbbbb')]);
    await cache.open('a'); // a is now more recent than b
    expect(await cache.put(summary('c'), [file('c.jsonl', 'cccccccccc')])).toBe(true);
    expect((await cache.list()).map((m) => m.key)).toEqual(['c', 'a']);
    expect(await cache.usage()).toBe(20);
    expect(await cache.open('b')).toBeUndefined();
    expect(cache.status).toBe('ok');
  });

  it('refuses a session larger than the whole budget, then recovers on the next put', async () => {
    const statuses: [CacheStatus, string | null][] = [];
    const cache = await open({ budgetBytes: 2 * 1024 * 1024, onStatus: (s, n) => statuses.push([s, n]) });
    await cache.put(summary('small'), [file('s.jsonl', 'small')]);
    const big = new Blob([new Uint8Array(3 * 1024 * 1024)]);
    expect(await cache.put(summary('big'), [{ path: 'big.jsonl', kind: 'transcript', blob: big }])).toBe(false);
    expect(cache.status).toBe('quota');
    expect(cache.notice).toBe('Not cached: this session (3 MB) is larger than the cache allows (2 MB).');
    expect((await cache.list()).map((m) => m.key)).toEqual(['small']); // nothing evicted for a lost cause

    expect(await cache.put(summary('next'), [file('n.jsonl', 'next')])).toBe(true);
    expect(cache.status).toBe('ok');
    expect(statuses.map(([s]) => s)).toEqual(['ok', 'quota', 'ok']);
  });

  it('lowers the budget to a share of the free quota navigator.storage.estimate() reports', async () => {
    vi.stubGlobal('navigator', { storage: { estimate: async () => ({ quota: 1000, usage: 900 }) } });
    const cache = await open({ budgetBytes: 10_000 });
    expect(await cache.put(summary('fits'), [file('f.jsonl', 'x'.repeat(80))])).toBe(true);
    // Free space is 100 bytes (+ our own 80), 80% of that is 144: a 150-byte session does not fit.
    expect(await cache.put(summary('nope'), [file('n.jsonl', 'y'.repeat(150))])).toBe(false);
    expect(cache.status).toBe('quota');
  });
});

describe('QuotaExceededError', () => {
  /** Makes the next `times` writes of a new blob record fail the way a full disk does. */
  function failBlobWrites(times: number) {
    const original = IDBObjectStore.prototype.put;
    let left = times;
    return vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const isNewBlob = this.name === 'blobs' && (value as { refs?: number }).refs === 1;
      if (isNewBlob && left > 0) {
        left--;
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return original.call(this, value, key);
    });
  }

  it('evicts older sessions and retries once', async () => {
    const cache = await open();
    await cache.put(summary('old'), [file('o.jsonl', 'old session')]);
    await cache.put(summary('newer'), [file('n.jsonl', 'newer session')]);
    const spy = failBlobWrites(1);
    expect(await cache.put(summary('latest'), [file('l.jsonl', 'latest!')])).toBe(true);
    expect(spy).toHaveBeenCalled();
    expect(cache.status).toBe('ok');
    // "latest" adds 7 bytes, so evicting the oldest session (11 bytes) is enough.
    expect((await cache.list()).map((m) => m.key)).toEqual(['latest', 'newer']);
    expect(await (await cache.open('latest'))!.files[0].blob.text()).toBe('latest!');
  });

  it('gives up after the retry with status quota, and the cache still reads', async () => {
    const cache = await open();
    await cache.put(summary('kept'), [file('k.jsonl', 'kept')]);
    failBlobWrites(Infinity);
    expect(await cache.put(summary('x'), [file('x.jsonl', 'xx')])).toBe(false);
    expect(cache.status).toBe('quota');
    expect(cache.notice).toBe(NOTICES.quota);
    // The retry evicted "kept" to make room; the failed session left no half-written record.
    expect(await cache.list()).toEqual([]);
    expect(await cache.usage()).toBe(0);
    vi.restoreAllMocks();
    expect(await cache.put(summary('y'), [file('y.jsonl', 'yy')])).toBe(true);
    expect(cache.status).toBe('ok');
  });

  it('with nothing to evict, fails at once with status quota', async () => {
    const cache = await open();
    failBlobWrites(Infinity);
    expect(await cache.put(summary('x'), [file('x.jsonl', 'xx')])).toBe(false);
    expect(cache.status).toBe('quota');
  });
});

describe('IndexedDB unavailable', () => {
  async function expectHarmless(cache: Awaited<ReturnType<typeof openCache>>) {
    expect(await cache.put(summary('s'), [file('s.jsonl', 'x')])).toBe(false);
    expect(await cache.list()).toEqual([]);
    expect(await cache.open('s')).toBeUndefined();
    await expect(cache.remove('s')).resolves.toBeUndefined();
    expect(await cache.usage()).toBe(0);
  }

  it('no indexedDB global: status unavailable, every call resolves harmlessly', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const cache = await open();
    expect(cache.status).toBe('unavailable');
    expect(cache.notice).toBe(NOTICES.unavailable);
    await expectHarmless(cache);
  });

  it('indexedDB.open throwing (sandboxed frame) is unavailable too', async () => {
    vi.stubGlobal('indexedDB', { open: () => { throw new DOMException('denied', 'SecurityError'); } });
    const cache = await open();
    expect(cache.status).toBe('unavailable');
    await expectHarmless(cache);
  });

  it('an open request that errors (private window) is unavailable', async () => {
    vi.stubGlobal('indexedDB', {
      open: () => {
        const req = new EventTarget() as EventTarget & { error: DOMException | null };
        req.error = new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError');
        queueMicrotask(() => req.dispatchEvent(new Event('error')));
        return req;
      }
    });
    const cache = await open();
    expect(cache.status).toBe('unavailable');
    await expectHarmless(cache);
  });

  it('without Web Crypto (plain-http page) caching is off with its own notice', async () => {
    vi.stubGlobal('crypto', undefined);
    const cache = await open();
    expect(cache.status).toBe('unavailable');
    expect(cache.notice).toBe(NOTICES.insecure);
    await expectHarmless(cache);
  });

  it('an older connection that will not close blocks the upgrade: unavailable, not a hang', async () => {
    const dbName = freshName();
    const old = await openDB(dbName, 1, { upgrade: (db) => { db.createObjectStore('sessions', { keyPath: 'key' }); } });
    const cache = await openCache({ dbName });
    expect(cache.status).toBe('unavailable');
    expect(cache.notice).toBe(NOTICES.blocked);
    old.close();
  });

  it('steps aside when a newer version opens in another tab', async () => {
    const dbName = freshName();
    const statuses: CacheStatus[] = [];
    const cache = await openCache({ dbName, onStatus: (s) => statuses.push(s) });
    const newer = await openDB(dbName, DB_VERSION + 1);
    expect(cache.status).toBe('unavailable');
    expect(cache.notice).toBe(NOTICES.superseded);
    expect(statuses).toEqual(['ok', 'unavailable']);
    expect(await cache.list()).toEqual([]);
    newer.close();
  });
});

describe('schema upgrade', () => {
  it('opens a version-1 database (no lastOpenedAt index) and keeps its sessions', async () => {
    const dbName = freshName();
    const v1 = await openDB(dbName, 1, {
      upgrade: (db) => {
        db.createObjectStore('sessions', { keyPath: 'key' });
        db.createObjectStore('blobs', { keyPath: 'hash' });
      }
    });
    const blob = new Blob(['{"type":"user"}\n']);
    const hash = await hashBlob(blob);
    await v1.put('blobs', { hash, blob, bytes: blob.size, refs: 1 });
    await v1.put('sessions', {
      key: 'legacy', title: 'from v1', startedAt: 1, endedAt: 2, bytes: blob.size, turns: 1,
      files: [{ path: 'legacy.jsonl', kind: 'transcript', hash, bytes: blob.size }], addedAt: 5, lastOpenedAt: 5
    });
    v1.close();

    const cache = await openCache({ dbName, now: clock(10) });
    expect(cache.status).toBe('ok');
    expect((await cache.list()).map((m) => m.title)).toEqual(['from v1']);
    expect(await (await cache.open('legacy'))!.files[0].blob.text()).toBe('{"type":"user"}\n');
    cache.close();

    const db = await openDB(dbName);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.transaction('sessions').store.indexNames]).toEqual(['lastOpenedAt']);
    db.close();
  });

  it('skips malformed session records instead of failing the list', async () => {
    const dbName = freshName();
    const cache = await openCache({ dbName, now: clock() });
    await cache.put(summary('good'), [file('g.jsonl', 'g')]);
    const db = await openDB(dbName);
    await db.put('sessions', { key: 'bad', lastOpenedAt: 99999 });
    db.close();
    expect((await cache.list()).map((m) => m.key)).toEqual(['good']);
    expect(await cache.open('bad')).toBeUndefined();
  });
});
