// Cached reopen: the engine persists a shown session's summary, rows and timeline, serves them on
// a later loadPersisted before any parse, then rebuilds the model (search, usage, issues await it).
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { openRowIndex } from '../store/row-index.ts';

const FILE = 'fixtures/corpus/claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl';
const files = () => [{ path: 'sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl', blob: new Blob([readFileSync(FILE)]) }];

let n = 0;
const engineOn = (dbName: string) => new Engine({ rowIndex: () => openRowIndex({ dbName }) });

/** A first load, shown and persisted: what a reopen must reproduce. */
async function firstLoad(dbName: string) {
  const engine = engineOn(dbName);
  const out = await engine.load(1, { files: files() });
  if (!out.ok) throw new Error(out.message);
  const key = out.sessions[0].key;
  const index = await engine.chatIndex(key);
  const rows = await engine.chatRows(key, 0, index?.rows.length ?? 0);
  const timeline = await engine.timeline([]);
  const written = await engine.persistIndex(key, 'content-1');
  return { key, summary: out.sessions[0], index, rows, timeline, written };
}

describe('Engine cached reopen', () => {
  it('serves the persisted chat and timeline, then the rebuilt model', async () => {
    const db = `reopen-${++n}`;
    const first = await firstLoad(db);
    expect(first.written?.chunks).toBeGreaterThan(0);
    expect(first.rows.length).toBeGreaterThan(10);

    const engine = engineOn(db);
    const out = await engine.loadPersisted(1, { key: first.key, contentHash: 'content-1', files: files() });
    expect(out).toMatchObject({ ok: true, restored: true, scanned: false });
    if (!out.ok) return;
    expect(out.sessions).toEqual([first.summary]);
    // Served from the index: nothing is built yet.
    expect(engine.builtKeys()).toEqual([]);
    expect(await engine.chatIndex(first.key)).toEqual(first.index);
    expect(await engine.chatRows(first.key, 0, first.rows.length)).toEqual(first.rows);
    expect(await engine.timeline([])).toEqual(first.timeline);

    // What needs the model waits for the rebuild: search, usage, issues, atom landings.
    const hits = await engine.search(1, { query: 'timeline component' }, []);
    if (!hits.ok) throw new Error('search failed');
    expect(hits.total).toBeGreaterThan(0);
    expect(hits.hits[0].sessionKey).toBe(first.key);
    expect((await engine.usage(first.key))?.turns.length).toBe(first.summary.turns);
    expect(engine.builtKeys()).toEqual([first.key]);
    expect(await engine.findAtomRow(first.key, first.rows[3].atomUuid)).toBe(3);
    // The rebuilt session answers like a first load.
    expect(await engine.chatRows(first.key, 0, first.rows.length)).toEqual(first.rows);
  });

  it('shows the persisted chat even when the files no longer parse; the model is then missing, not wrong', async () => {
    const db = `reopen-${++n}`;
    const first = await firstLoad(db);
    const engine = engineOn(db);
    const broken = [{ path: 'x.jsonl', blob: new Blob([new Uint8Array([0, 159, 146, 150, 0])]) }];
    const out = await engine.loadPersisted(1, { key: first.key, contentHash: 'content-1', files: broken });
    expect(out).toMatchObject({ ok: true, restored: true });
    expect(await engine.chatRows(first.key, 0, 5)).toEqual(first.rows.slice(0, 5));
    expect(await engine.usage(first.key)).toBeNull();
  });

  it('falls back to a full parse when there is no index for these files', async () => {
    const db = `reopen-${++n}`;
    const first = await firstLoad(db);
    const engine = engineOn(db);
    const out = await engine.loadPersisted(1, { key: first.key, contentHash: 'content-2', files: files() });
    expect(out.ok && out.restored).toBeFalsy();
    expect(out.ok && out.sessions[0].turns).toBe(first.summary.turns);
    expect(engine.builtKeys()).toEqual([first.key]);
    expect(await engine.chatRows(first.key, 0, first.rows.length)).toEqual(first.rows);
    // No storage at all: a plain load.
    const bare = new Engine();
    const plain = await bare.loadPersisted(1, { key: first.key, contentHash: 'content-1', files: files() });
    expect(plain.ok && plain.restored).toBeFalsy();
    expect(await bare.persistIndex(first.key, 'content-1')).toBeNull();
  });

  it('writes an index once, and a new load replaces a restored session', async () => {
    const db = `reopen-${++n}`;
    const first = await firstLoad(db);
    const engine = engineOn(db);
    await engine.loadPersisted(1, { key: first.key, contentHash: 'content-1', files: files() });
    expect(await engine.persistIndex(first.key, 'content-1')).toBeNull();
    const line = '{"type":"user","uuid":"u","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z","promptSource":"typed","message":{"role":"user","content":"hi"}}\n';
    const next = await engine.load(2, { files: [{ path: 'p.jsonl', blob: new Blob([line]) }] });
    expect(next.ok).toBe(true);
    expect(await engine.chatRows(first.key, 0, 5)).toEqual([]);
    expect(await engine.usage(first.key)).toBeNull();
  });
});
