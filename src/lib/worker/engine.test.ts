// The engine is the worker's whole behaviour; it runs here in Node without a worker.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { dropFolder } from '../ingest/test-helpers.ts';

const FILE = 'fixtures/corpus/claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl';
const input = (path: string) => ({ path: path.split('/').pop() ?? path, blob: new Blob([readFileSync(path)]) });

describe('Engine', () => {
  it('loads a transcript and serves its chat index, rows and timeline', async () => {
    const engine = new Engine();
    const out = await engine.load(1, { files: [input(FILE)] });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    const [s] = out.sessions;
    expect(s.turns).toBeGreaterThan(0);
    expect(s.accounting.atoms + s.accounting.offPath + s.accounting.metadata + s.accounting.issues).toBe(s.accounting.lines);
    const index = await engine.chatIndex(s.key);
    expect(index?.rows.length).toBeGreaterThan(0);
    const rows = await engine.chatRows(s.key, 0, 3);
    expect(rows.map((r) => r.key)).toEqual(index?.rows.slice(0, 3).map((r) => r.key));
    expect(await engine.findAtomRow(s.key, rows[1].atomUuid)).toBe(1);
    expect(await engine.findAtomRow(s.key, 'no-such-atom')).toBe(-1);
    expect((await engine.timeline([])).bars.length).toBe(s.segments);
  });

  it('drops a load superseded by a newer one', async () => {
    const engine = new Engine();
    const first = engine.load(1, { files: [input(FILE)] });
    const line = '{"type":"user","uuid":"u","parentUuid":null,"timestamp":"2026-01-01T00:00:00Z","promptSource":"typed","message":{"role":"user","content":"hi"}}\n';
    const second = engine.load(2, { files: [{ path: 'p.jsonl', blob: new Blob([line]) }] });
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ ok: false, superseded: true });
    expect(b.ok).toBe(true);
    if (b.ok) expect(b.sessions[0].turns).toBe(1);
  });

  it('keeps the open sessions when a load finds no transcript', async () => {
    const engine = new Engine();
    const good = await engine.load(1, { files: [input(FILE)] });
    if (!good.ok) throw new Error('expected a session');
    const bad = await engine.load(2, { files: [{ path: 'x.bin', blob: new Blob([new Uint8Array([0, 159, 146, 150, 0])]) }] });
    expect(bad.ok && bad.sessions.length).toBe(0);
    expect(bad.ok && bad.unknown[0].reason).toBeTruthy();
    expect((await engine.chatIndex(good.sessions[0].key))?.rows.length).toBeGreaterThan(0);
  });
});

describe('Engine on a big drop (scan mode)', () => {
  const at = (i: number, min: number) => new Date(Date.UTC(2026, 6, 1 + i, 8, min)).toISOString();
  const session = (i: number) => {
    const sid = `S${String(i).padStart(3, '0')}`;
    const rows = [
      { type: 'user', uuid: `${sid}-u`, parentUuid: null, sessionId: sid, cwd: '/home/me/work/api', timestamp: at(i, 0), promptSource: 'typed', message: { role: 'user', content: `prompt number ${i}` } },
      { type: 'assistant', uuid: `${sid}-a`, parentUuid: `${sid}-u`, sessionId: sid, timestamp: at(i, 2), message: { role: 'assistant', id: `m${i}`, model: 'claude-opus-4-7', content: [{ type: 'text', text: 'done' }], stop_reason: 'end_turn' } }
    ];
    return { path: `projects/-home-me-work-api/${sid}.jsonl`, blob: new Blob([rows.map((r) => JSON.stringify(r)).join('\n') + '\n']) };
  };
  const drop = Array.from({ length: 30 }, (_, i) => session(i));

  it('lists every session from the scan, builds only the newest, and the rest on open', async () => {
    const engine = new Engine();
    const snapshots: number[] = [];
    const out = await engine.load(1, { files: drop }, undefined, (s) => snapshots.push(s.entries.length));
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.scanned).toBe(true);
    expect(out.list).toHaveLength(30);
    expect(out.list[0].title).toBe('prompt number 29');
    expect(out.list[0].turnsExact).toBe(true);
    expect(out.list[1].turnsExact).toBe(false);
    expect(out.sessions.map((s) => s.key)).toEqual([out.list[0].key]);
    expect(engine.builtKeys()).toEqual([out.list[0].key]);
    const other = await engine.open(out.list[5].key);
    expect(other?.key).toBe(out.list[5].key);
    expect(other?.turns).toBe(1);
    expect((await engine.chatIndex(out.list[5].key))?.rows.length).toBeGreaterThan(0);
    expect(await engine.open('no-such-key')).toBeNull();
  });

  it('keeps built sessions within the byte budget, rebuilding evicted ones on demand', async () => {
    const engine = new Engine({ builtBudget: 1 });
    const out = await engine.load(1, { files: drop });
    if (!out.ok) throw new Error('expected a listing');
    const [a, b] = [out.list[3].key, out.list[4].key];
    await engine.open(a);
    await engine.open(b);
    expect(engine.builtKeys()).toEqual([b]);
    expect((await engine.chatRows(a, 0, 1)).length).toBe(1);
    expect(engine.builtKeys()).toEqual([a]);
  });

  it('prefetch builds in order and a newer prefetch cancels the older one', async () => {
    const engine = new Engine();
    const out = await engine.load(1, { files: drop });
    if (!out.ok) throw new Error('expected a listing');
    const keys = out.list.slice(1, 6).map((e) => e.key);
    const first = engine.prefetch(keys);
    const second = engine.prefetch([keys[4]]);
    const [a, b] = await Promise.all([first, second]);
    expect(a.length).toBeLessThan(keys.length);
    expect(b).toEqual([keys[4]]);
  });
});

describe('Engine.stage', () => {
  it('a load of staged files sees every batch of its own generation only', async () => {
    const engine = new Engine();
    const line = (id: string) => new Blob([`{"type":"user","uuid":"${id}","parentUuid":null,"sessionId":"${id}","timestamp":"2026-01-01T00:00:00Z","promptSource":"typed","message":{"role":"user","content":"hi ${id}"}}\n`]);
    engine.stage(1, [{ path: 'old.jsonl', blob: line('old') }]);
    engine.stage(2, [{ path: 'a.jsonl', blob: line('a') }]);
    expect(engine.stage(2, [{ path: 'b.jsonl', blob: line('b') }])).toBe(2);
    const out = await engine.load(2, { files: [], staged: true });
    expect(out.ok && out.list.map((e) => e.title).sort()).toEqual(['hi a', 'hi b']);
  });
});

describe('Engine scan index round trip', () => {
  const at = (i: number) => new Date(Date.UTC(2026, 6, 1 + i, 8)).toISOString();
  const file = (i: number, lastModified = 1000 + i) => {
    const sid = `R${String(i).padStart(3, '0')}`;
    const row = { type: 'user', uuid: `${sid}-u`, parentUuid: null, sessionId: sid, timestamp: at(i), promptSource: 'typed', message: { role: 'user', content: `again ${i}` } };
    return { path: `projects/-p/${sid}.jsonl`, blob: new File([JSON.stringify(row) + '\n'], `${sid}.jsonl`, { lastModified }) };
  };

  it('a later load reuses the stored scans of unchanged files and rereads changed ones', async () => {
    const first = new Engine();
    const files = Array.from({ length: 30 }, (_, i) => file(i));
    const a = await first.load(1, { files });
    expect(first.scanStats()).toMatchObject({ files: 30, reused: 0 });
    const { total, records } = first.scanRecords(0, 100);
    expect(total).toBe(30);
    expect(records[0].identity).toContain('loupe-model');

    const second = new Engine();
    const again = files.map((f, i) => (i === 7 ? file(7, 99_999) : f));
    second.stage(5, again, records);
    const b = await second.load(5, { files: [], staged: true });
    expect(second.scanStats()).toMatchObject({ files: 30, reused: 29 });
    expect(b.ok && b.list.map((e) => e.title)).toEqual(a.ok && a.list.map((e) => e.title));
  });

  it('serves a session’s usage (subagents included) and the project’s, keyed to the timeline’s segments', async () => {
    const engine = new Engine();
    const out = await engine.load(1, { files: dropFolder('fixtures/usage/project') });
    if (!out.ok) throw new Error('expected a session');
    const key = out.sessions[0].key;
    const usage = await engine.usage(key);
    expect(usage?.total).toMatchObject({ messages: 8, input: 1495, unpricedMessages: 1 });
    expect(structuredClone(usage)).toEqual(usage);
    const bars = (await engine.timeline([])).bars;
    const costed = bars.filter((b) => usage!.segments[b.segmentId]);
    expect(costed.length).toBeGreaterThan(0);
    expect((await engine.projectUsage()).total).toEqual(usage?.total);
    expect(await engine.usage('no-such-session')).toBeNull();
  });
});
