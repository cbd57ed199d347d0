// The engine's follow methods: a followed file fed in growing pieces gives, at each step, the rows
// a fresh build of the same bytes gives, and says how many leading rows the page may keep.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';

const FILE = 'fixtures/corpus/claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl';

describe('Engine following a folder', () => {
  it('keeps the rows of unchanged turns and rebuilds the rest as a full build would', async () => {
    const bytes = new Uint8Array(readFileSync(FILE));
    const lines: number[] = [];
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines.push(i + 1);
    const engine = new Engine();
    engine.followStart(1);
    const path = 'proj/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl';
    let at = 0;
    let kept = 0;
    // Feed a third of the lines, then the rest a few lines at a time, reading the chat in between.
    const steps = [lines[Math.floor(lines.length / 3)], ...lines.filter((_, i) => i > lines.length / 3 && i % 5 === 0), bytes.length];
    for (const to of steps) {
      const out = engine.followAppend(1, [{ path, bytes: bytes.subarray(at, to) }]);
      at = to;
      expect(out?.sessions).toHaveLength(1);
      const key = out?.sessions[0].key ?? '';
      const change = out?.changed.find((c) => c.key === key);
      kept += change?.keepRows ?? 0;
      const index = await engine.chatIndex(key);
      const rows = await engine.chatRows(key, 0, index?.rows.length ?? 0);
      // The same rows as a fresh build of the session as it stands.
      const fresh = new Engine();
      fresh.followStart(1);
      const again = fresh.followAppend(1, [{ path, bytes: bytes.subarray(0, to) }]);
      const fk = again?.sessions[0].key ?? '';
      expect(rows).toEqual(await fresh.chatRows(fk, 0, (await fresh.chatIndex(fk))?.rows.length ?? 0));
    }
    // Rows were kept across updates, not rebuilt whole each time.
    expect(kept).toBeGreaterThan(0);
  });

  it('reports what the open turn is doing and settles it while quiet', async () => {
    const engine = new Engine();
    engine.followStart(1);
    const line = (o: object) => new TextEncoder().encode(JSON.stringify(o) + '\n');
    const out = engine.followAppend(1, [
      { path: 'p/S.jsonl', bytes: line({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 'S', timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'go' } }) },
      { path: 'p/S.jsonl', bytes: line({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 'S', timestamp: '2026-01-01T00:00:01Z', message: { id: 'm', role: 'assistant', model: 'x', stop_reason: 'tool_use', content: [{ type: 'tool_use', id: 'T1', name: 'Bash', input: { command: 'make' } }] } }) }
    ]);
    const key = out?.sessions[0].key ?? '';
    const state = engine.liveState(key, null);
    expect(state?.activity).toMatchObject({ kind: 'tool', label: 'Bash · make' });
    const running = (await engine.chatRows(key, 0, 10)).find((r) => r.kind === 'tool');
    expect(running?.kind === 'tool' && running.call.status).toBe('running');
    expect(engine.liveState(key, true)?.rebuilt).toBe(true);
    const settled = (await engine.chatRows(key, 0, 10)).find((r) => r.kind === 'tool');
    expect(settled?.kind === 'tool' && settled.call.status).toBe('no-result');
    expect(engine.liveState(key, true)?.rebuilt).toBe(false);
  });
});

describe('chatIndex from a row', () => {
  it('gives the index entries from a row on, equal to the tail of the whole index', async () => {
    const engine = new Engine();
    engine.followStart(1);
    const out = engine.followAppend(1, [{ path: 'p/x.jsonl', bytes: new Uint8Array(readFileSync(FILE)) }]);
    const key = out?.sessions[0].key ?? '';
    const all = (await engine.chatIndex(key))?.rows ?? [];
    expect(all.length).toBeGreaterThan(4);
    expect((await engine.chatIndex(key, 3))?.rows).toEqual(all.slice(3));
  });
});

describe('chatIndex pages', () => {
  it('gives rows [from, to) with the whole count, and a new stamp once the followed rows are rebuilt', async () => {
    const bytes = new Uint8Array(readFileSync(FILE));
    const half = bytes.indexOf(10, bytes.length >> 1) + 1;
    const engine = new Engine();
    engine.followStart(1);
    const path = 'p/x.jsonl';
    const key = engine.followAppend(1, [{ path, bytes: bytes.subarray(0, half) }])?.sessions[0].key ?? '';
    const all = (await engine.chatIndex(key))!;
    expect(all.total).toBe(all.rows.length);
    const page = (await engine.chatIndex(key, 2, 5))!;
    expect(page.rows).toEqual(all.rows.slice(2, 5));
    expect(page.total).toBe(all.total);
    expect(page.stamp).toBe(all.stamp);
    engine.followAppend(1, [{ path, bytes: bytes.subarray(half) }]);
    const grown = (await engine.chatIndex(key, 0, 1))!;
    expect(grown.stamp).not.toBe(all.stamp);
    expect(grown.total).toBeGreaterThan(all.total);
  });
});
