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
    const index = engine.chatIndex(s.key);
    expect(index?.rows.length).toBeGreaterThan(0);
    const rows = engine.chatRows(s.key, 0, 3);
    expect(rows.map((r) => r.key)).toEqual(index?.rows.slice(0, 3).map((r) => r.key));
    expect(engine.findAtomRow(s.key, rows[1].atomUuid)).toBe(1);
    expect(engine.findAtomRow(s.key, 'no-such-atom')).toBe(-1);
    expect(engine.timeline([]).bars.length).toBe(s.segments);
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
    expect(engine.chatIndex(good.sessions[0].key)?.rows.length).toBeGreaterThan(0);
  });

  it('serves a session’s usage (subagents included) and the project’s, keyed to the timeline’s segments', async () => {
    const engine = new Engine();
    const out = await engine.load(1, { files: dropFolder('fixtures/usage/project') });
    if (!out.ok) throw new Error('expected a session');
    const key = out.sessions[0].key;
    const usage = engine.usage(key);
    expect(usage?.total).toMatchObject({ messages: 8, input: 1495, unpricedMessages: 1 });
    expect(structuredClone(usage)).toEqual(usage);
    const bars = engine.timeline([]).bars;
    const costed = bars.filter((b) => usage!.segments[b.segmentId]);
    expect(costed.length).toBeGreaterThan(0);
    expect(engine.projectUsage().total).toEqual(usage?.total);
    expect(engine.usage('no-such-session')).toBeNull();
  });
});
