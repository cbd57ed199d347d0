import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { folderOf, openScanIndex, PART_ENTRIES } from './scan-index';

const rec = (path: string, identity = `id:${path}`) => ({ identity, path, title: path });
let n = 0;
const fresh = () => `scan-index-test-${n++}`;

describe('scan index', () => {
  it('groups files by their first two folders', () => {
    expect(folderOf('projects/-home-me-api/S1.jsonl')).toBe('projects/-home-me-api');
    expect(folderOf('projects/-home-me-api/S1/subagents/agent-a.jsonl')).toBe('projects/-home-me-api');
    expect(folderOf('proj/S1.jsonl')).toBe('proj');
    expect(folderOf('S1.jsonl')).toBe('');
  });

  it('returns what was saved for the folders asked about, and a save replaces a folder', async () => {
    const index = await openScanIndex<ReturnType<typeof rec>>({ dbName: fresh() });
    if (!index) throw new Error('no index');
    await index.save([rec('p/a/1.jsonl'), rec('p/a/2.jsonl'), rec('p/b/1.jsonl')]);
    expect((await index.lookup(['p/a'])).map((r) => r.path).sort()).toEqual(['p/a/1.jsonl', 'p/a/2.jsonl']);
    await index.save([rec('p/a/3.jsonl')]);
    expect((await index.lookup(['p/a', 'p/b'])).map((r) => r.path).sort()).toEqual(['p/a/3.jsonl', 'p/b/1.jsonl']);
    expect(await index.lookup(['p/none'])).toEqual([]);
    index.close();
  });

  it('stays under its cap by dropping the oldest folders', async () => {
    let t = 0;
    const index = await openScanIndex<ReturnType<typeof rec>>({ dbName: fresh(), maxEntries: 3, now: () => ++t });
    if (!index) throw new Error('no index');
    await index.save([rec('p/old/1.jsonl'), rec('p/old/2.jsonl')]);
    await index.save([rec('p/new/1.jsonl'), rec('p/new/2.jsonl')]);
    expect(await index.lookup(['p/old'])).toEqual([]);
    expect(await index.lookup(['p/new'])).toHaveLength(2);
    index.close();
  });

  it('stores a big folder in parts of at most PART_ENTRIES records, read back whole and in order', async () => {
    const dbName = fresh();
    const index = await openScanIndex<ReturnType<typeof rec>>({ dbName });
    if (!index) throw new Error('no index');
    const many = Array.from({ length: 2 * PART_ENTRIES + 5 }, (_, i) => rec(`p/big/${String(i).padStart(4, '0')}.jsonl`));
    await index.save(many);
    expect((await index.lookup(['p/big'])).map((r) => r.path)).toEqual(many.map((r) => r.path));
    // A shorter save of the folder leaves none of the longer one's parts behind.
    await index.save(many.slice(0, 3));
    expect((await index.lookup(['p/big'])).map((r) => r.path)).toEqual(many.slice(0, 3).map((r) => r.path));
    index.close();
    const raw = await openDB(dbName);
    const parts = await raw.getAll('parts');
    raw.close();
    expect(parts.map((p) => p.entries.length)).toEqual([3]);
  });

  it('writes each part in a transaction of its own', async () => {
    const dbName = fresh();
    const index = await openScanIndex<ReturnType<typeof rec>>({ dbName });
    if (!index) throw new Error('no index');
    const seen: number[] = [];
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'parts') seen.push((value as { entries: unknown[] }).entries.length);
      return put.call(this, value, key);
    };
    try {
      await index.save(Array.from({ length: 3 * PART_ENTRIES }, (_, i) => rec(`p/big/${i}.jsonl`)));
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(seen).toEqual([PART_ENTRIES, PART_ENTRIES, PART_ENTRIES]);
    index.close();
  });

  it('opens a database of the whole-folder layout as empty, and saves into it', async () => {
    const dbName = fresh();
    const v1 = await openDB(dbName, 1, {
      upgrade(d) {
        d.createObjectStore('folders', { keyPath: 'folder' }).createIndex('savedAt', 'savedAt');
      }
    });
    await v1.put('folders', { folder: 'p/a', savedAt: 1, entries: [rec('p/a/1.jsonl')] });
    v1.close();
    const index = await openScanIndex<ReturnType<typeof rec>>({ dbName });
    if (!index) throw new Error('no index');
    expect(await index.lookup(['p/a'])).toEqual([]);
    await index.save([rec('p/a/2.jsonl')]);
    expect((await index.lookup(['p/a'])).map((r) => r.path)).toEqual(['p/a/2.jsonl']);
    index.close();
  });
});
