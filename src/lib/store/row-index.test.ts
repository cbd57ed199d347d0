import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { CHUNK_ROWS, indexId, openRowIndex, ROW_INDEX_DB_VERSION } from './row-index';
import { MODEL_VERSION } from '../model/index.ts';
import { sessionContentHash } from './content-hash';

let n = 0;
const fresh = () => `loupe-rows-test-${++n}`;

type Row = { key: string; text: string };
const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, i) => ({ key: `r${i}`, text: `row ${i}` }));
const index = (count: number, sessionKey = 's1') => ({ sessionKey, summary: { key: sessionKey, turns: 2 }, rows: rowsOf(count), timeline: { bars: [1, 2] } });

async function open(dbName: string) {
  const store = await openRowIndex<{ key: string; turns: number }, Row, { bars: number[] }>({ dbName });
  if (!store) throw new Error('no store');
  return store;
}

describe('row index store', () => {
  it('reads back what it wrote, in chunks, rows in order', async () => {
    const store = await open(fresh());
    const count = CHUNK_ROWS * 2 + 7;
    const stats = await store.write('h1', index(count));
    expect(stats?.chunks).toBe(3);
    expect(await store.has('h1')).toBe(true);
    const back = await store.read('h1');
    expect(back?.rows).toEqual(rowsOf(count));
    expect(back?.summary).toEqual({ key: 's1', turns: 2 });
    expect(back?.timeline).toEqual({ bars: [1, 2] });
    expect(back?.sessionKey).toBe('s1');
    expect(await store.read('other')).toBeNull();
    store.close();
  });

  it('keys by MODEL_VERSION: an index written by another model is not read, and prune drops it', async () => {
    const name = fresh();
    const store = await open(name);
    await store.write('h1', index(3));
    const db = await openDB(name, ROW_INDEX_DB_VERSION);
    // The same content as an older model wrote it: its head and chunks under that model's id.
    const old = 'h1|loupe-model-0|1';
    const head = await db.get('heads', indexId('h1'));
    await db.put('heads', { ...head, id: old });
    for (const c of await db.getAll('chunks')) await db.put('chunks', { ...c, id: old });
    await db.delete('heads', indexId('h1'));
    await db.delete('chunks', IDBKeyRange.bound([indexId('h1'), 0], [indexId('h1'), 1e9]));
    db.close();
    expect(indexId('h1')).toContain(MODEL_VERSION);
    expect(await store.read('h1')).toBeNull();
    expect(await store.has('h1')).toBe(false);
    expect(await store.prune(new Set(['h1']))).toBe(1);
    const after = await openDB(name, ROW_INDEX_DB_VERSION);
    expect(await after.count('heads')).toBe(0);
    expect(await after.count('chunks')).toBe(0);
    after.close();
    store.close();
  });

  it('a missing chunk or a corrupt head reads as no index (the caller parses in full)', async () => {
    const name = fresh();
    const store = await open(name);
    await store.write('h1', index(CHUNK_ROWS + 1));
    await store.write('h2', index(4, 's2'));
    const db = await openDB(name, ROW_INDEX_DB_VERSION);
    await db.delete('chunks', [indexId('h1'), 1]);
    await db.put('heads', { id: indexId('h2'), contentHash: 'h2', rowCount: 'four' });
    db.close();
    expect(await store.read('h1')).toBeNull();
    expect(await store.read('h2')).toBeNull();
    store.close();
  });

  it('rewriting an index replaces it whole', async () => {
    const store = await open(fresh());
    await store.write('h1', index(CHUNK_ROWS * 3));
    await store.write('h1', index(2));
    expect((await store.read('h1'))?.rows).toEqual(rowsOf(2));
    store.close();
  });

  it('prune keeps the indexes of cached sessions and drops the rest, orphan chunks included', async () => {
    const name = fresh();
    const store = await open(name);
    await store.write('keep', index(3, 'a'));
    await store.write('gone', index(3, 'b'));
    const db = await openDB(name, ROW_INDEX_DB_VERSION);
    await db.put('chunks', { id: indexId('cut-short'), n: 0, rows: [] });
    db.close();
    expect(await store.prune(new Set(['keep']))).toBe(1);
    expect(await store.read('keep')).not.toBeNull();
    expect(await store.read('gone')).toBeNull();
    const after = await openDB(name, ROW_INDEX_DB_VERSION);
    expect((await after.getAllKeys('chunks')).map((k) => (k as [string, number])[0])).toEqual([indexId('keep')]);
    after.close();
    store.close();
  });
});

describe('sessionContentHash', () => {
  it('depends on every file path and hash, not on their order', async () => {
    const a = { path: 'a.jsonl', hash: '11' };
    const b = { path: 'sub/b.jsonl', hash: '22' };
    const h = await sessionContentHash([a, b]);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(await sessionContentHash([b, a])).toBe(h);
    expect(await sessionContentHash([a, { ...b, hash: '23' }])).not.toBe(h);
    expect(await sessionContentHash([a])).not.toBe(h);
    expect(await sessionContentHash([a, { ...b, path: 'sub/c.jsonl' }])).not.toBe(h);
  });
});
