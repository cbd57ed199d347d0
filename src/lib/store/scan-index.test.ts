import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { folderOf, openScanIndex } from './scan-index';

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
});
