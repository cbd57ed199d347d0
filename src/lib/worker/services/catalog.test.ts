// The catalog's contract for the services built on it: a load announces itself, a listing
// replaced is announced, and a listed session can be parsed without entering the built LRU.
import { describe, expect, it } from 'vitest';
import { Catalog } from './catalog.ts';
import { Sessions } from './sessions.ts';
import { Loads } from './loads.ts';
import type { CatalogChange } from './types.ts';

const at = (i: number) => new Date(Date.UTC(2026, 6, 1 + i, 8)).toISOString();
const file = (i: number) => {
  const sid = `C${String(i).padStart(3, '0')}`;
  const row = { type: 'user', uuid: `${sid}-u`, parentUuid: null, sessionId: sid, timestamp: at(i), promptSource: 'typed', message: { role: 'user', content: `listed ${i}` } };
  return { path: `projects/-p/${sid}.jsonl`, blob: new Blob([JSON.stringify(row) + '\n']) };
};
const drop = Array.from({ length: 30 }, (_, i) => file(i));

function wired() {
  const catalog = new Catalog();
  const sessions = new Sessions(catalog, {});
  const loads = new Loads(catalog, sessions);
  const changes: CatalogChange[] = [];
  catalog.onChange((c) => changes.push(c));
  return { catalog, sessions, loads, changes };
}

describe('Catalog', () => {
  it('a big load announces itself, then its listing; a full load replaces the listing', async () => {
    const { catalog, loads, changes } = wired();
    const out = await loads.load(1, { files: drop });
    expect(out.ok && out.scanned).toBe(true);
    expect(changes).toEqual(['load', 'listing']);
    expect(catalog.generation).toBe(1);
    expect(catalog.sessions().map((s) => s.key)).toEqual(out.ok ? out.list.map((e) => e.key) : []);
    const small = await loads.load(2, { files: [file(99)] });
    expect(small.ok && small.scanned).toBe(false);
    expect(changes).toEqual(['load', 'listing', 'load', 'listing']);
    expect(catalog.sessions()).toEqual([]);
  });

  it('parses a listed session from its handles without building it into the LRU', async () => {
    const { catalog, sessions, loads } = wired();
    await loads.load(1, { files: drop });
    const before = sessions.builtKeys();
    const listed = catalog.sessions()[7];
    expect(catalog.listedFiles(listed).map((f) => f.path)).toEqual(listed.files);
    const loaded = await catalog.parse(listed);
    expect(loaded?.key).toBe(listed.key);
    expect(loaded?.result.session.turns).toHaveLength(1);
    expect(sessions.builtKeys()).toEqual(before);
    expect(sessions.isBuilt(listed.key)).toBe(false);
  });

  it('a build finished after a newer load began is dropped', async () => {
    const { catalog, sessions, loads } = wired();
    await loads.load(1, { files: drop });
    const key = catalog.sessions()[3].key;
    const pending = sessions.built(key);
    catalog.begin(2);
    expect(await pending).toBeNull();
    expect(sessions.isBuilt(key)).toBe(false);
  });
});
