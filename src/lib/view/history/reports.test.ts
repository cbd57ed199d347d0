// usageReport: deduplication across sessions, the block rule, filters, time zones and prices,
// on hand-made calls and on the history fixture (fixtures/history/README.md has its sums).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import { dropFolder } from '../../ingest/test-helpers.ts';
import { callCost } from '../usage/prices.ts';
import { billedCalls } from './calls.ts';
import { dedupeCalls, usageReport } from './reports.ts';
import type { BilledCall } from './types.ts';

const SONNET = 'claude-sonnet-4-5-20250929';
let seq = 0;
function call(o: Partial<BilledCall> & { at?: string }): BilledCall {
  const { at, ...rest } = o;
  return {
    id: `c${++seq}`,
    ms: at ? Date.parse(at) : null,
    sessionId: 's1',
    sessionKey: 'k1',
    project: 'p1',
    harness: 'claude-code',
    model: SONNET,
    serviceTier: null,
    input: 100,
    output: 10,
    cacheRead: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    webSearches: 0,
    onPath: true,
    subagent: false,
    file: 'p1/s1.jsonl',
    line: seq,
    ...rest
  };
}

describe('dedupeCalls', () => {
  it('keeps one copy per id: the most tokens, else the first in path order', () => {
    const a = call({ id: 'x', output: 10, file: 'p/b.jsonl', line: 1 });
    const b = call({ id: 'x', output: 50, file: 'p/c.jsonl', line: 9, sessionKey: 'k2' });
    const c = call({ id: 'y', output: 5, file: 'p/z.jsonl', line: 1, sessionId: 'z' });
    const d = call({ id: 'y', output: 5, file: 'p/a.jsonl', line: 3, sessionId: 'a' });
    const kept = dedupeCalls([a, b, c, d]);
    expect(kept).toHaveLength(2);
    expect(kept.find((k) => k.id === 'x')).toBe(b);
    expect(kept.find((k) => k.id === 'y')).toBe(d);
  });
});

describe('usageReport by block (ccusage blocks)', () => {
  it('opens a block at the floored UTC hour and a new one after 5 hours from its start or a 5-hour gap', () => {
    const calls = [
      call({ at: '2026-01-01T10:20:00.000Z' }),
      call({ at: '2026-01-01T15:00:00.000Z' }), // exactly 5 h after the start: same block
      call({ at: '2026-01-01T15:00:00.001Z' }), // past it: new block at 15:00
      call({ at: '2026-01-01T19:59:00.000Z' }), // within 5 h of 15:00
      call({ at: '2026-01-02T01:00:00.000Z' }), // a gap
      call({})
    ];
    const r = usageReport(calls, { by: 'block' });
    expect(r.rows.map((x) => [x.key, x.messages])).toEqual([
      ['2026-01-01T10:00:00.000Z', 2],
      ['2026-01-01T15:00:00.000Z', 2],
      ['2026-01-02T01:00:00.000Z', 1]
    ]);
    expect(r.total.messages).toBe(6);
  });
});

describe('usageReport', () => {
  const price = (c: BilledCall) => callCost(c.model, c.ms!, { input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite5m + c.cacheWrite1h, cacheWrite5m: c.cacheWrite5m, cacheWrite1h: c.cacheWrite1h, webSearches: 0 })!;

  it('sums by day in the time zone, counts an untimed call in the total only, prices from the table', () => {
    const late = call({ at: '2026-03-02T20:00:00Z', input: 300_000, output: 2000 }); // long-context tier
    const calls = [call({ at: '2026-03-02T10:00:00Z' }), late, call({ at: '2026-03-03T10:00:00Z', cacheWrite1h: 500 }), call({ input: 7 })];
    const utc = usageReport(calls, { by: 'day', timezone: 'UTC' });
    expect(utc.rows.map((r) => [r.key, r.messages])).toEqual([['2026-03-02', 2], ['2026-03-03', 1]]);
    expect(utc.total.messages).toBe(4);
    expect(utc.total.input).toBe(100 + 300_000 + 100 + 7);
    expect(utc.rows[0].costUsd).toBeCloseTo(price(calls[0]) + price(late), 12);
    // The tier: the 300k-input call costs more per token than the small one.
    expect(price(late)).toBeGreaterThan((300_000 * 3 + 2000 * 15) / 1e6);
    const tokyo = usageReport(calls, { by: 'day', timezone: 'Asia/Tokyo' });
    expect(tokyo.rows.map((r) => [r.key, r.messages])).toEqual([['2026-03-02', 1], ['2026-03-03', 2]]);
    expect(utc.priceSourceDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('never prices an unknown model at $0: it counts as unpriced', () => {
    const r = usageReport([call({ at: '2026-03-02T10:00:00Z', model: 'acme-coder-1' }), call({ at: '2026-03-02T11:00:00Z', model: '<synthetic>', input: 0, output: 0 })], { by: 'model' });
    const acme = r.rows.find((x) => x.key === 'acme-coder-1')!;
    expect(acme).toMatchObject({ messages: 1, unpricedMessages: 1, costUsd: 0, input: 100 });
    expect(r.rows.find((x) => x.key === '<synthetic>')).toMatchObject({ messages: 1, unpricedMessages: 0 });
    expect(r.total.unpricedMessages).toBe(1);
  });

  it('filters by date range (in the zone), project, harness and model, and splits rows', () => {
    const calls = [
      call({ at: '2026-03-01T23:30:00Z', project: 'a' }),
      call({ at: '2026-03-02T10:00:00Z', project: 'b', model: 'claude-haiku-4-5-20251001' }),
      call({ at: '2026-03-04T10:00:00Z', project: 'a', harness: 'pi', model: 'gpt-5' })
    ];
    expect(usageReport(calls, { by: 'day', since: '2026-03-02', until: '2026-03-03' }).total.messages).toBe(1);
    expect(usageReport(calls, { by: 'day', since: '2026-03-02', timezone: 'Asia/Tokyo' }).total.messages).toBe(3);
    expect(usageReport(calls, { by: 'day', project: 'a' }).total.messages).toBe(2);
    expect(usageReport(calls, { by: 'day', harness: 'pi' }).total.messages).toBe(1);
    expect(usageReport(calls, { by: 'day', model: SONNET }).total.messages).toBe(1);
    const split = usageReport(calls, { by: 'month', split: 'project' });
    expect(split.rows).toHaveLength(1);
    expect(Object.keys(split.rows[0].split!).sort()).toEqual(['a', 'b']);
    expect(split.rows[0].split!.b.costUsd).toBeCloseTo(price(calls[1]), 12);
  });

  it('keys sessions by the session id and remembers the listed session to open', () => {
    const r = usageReport([call({ at: '2026-03-02T10:00:00Z', sessionId: 'abc', sessionKey: 'abc-123' }), call({ at: '2026-03-02T10:00:00Z', sessionId: 'def', output: 900 })], { by: 'session' });
    expect(r.rows.map((x) => x.key)).toEqual(['def', 'abc']); // by cost
    expect(r.rows[1]).toMatchObject({ sessionKey: 'abc-123', project: 'p1' });
  });
});

describe('usageReport on the history fixture', () => {
  it('counts every call once over the listed sessions: the sums ccusage prints for the tree', async () => {
    const { sessions } = await loadSessions(dropFolder(resolve(import.meta.dirname, '../../../../fixtures/history/claude/projects')));
    const calls = sessions.flatMap((s) => billedCalls(s, { sessionKey: s.key, project: s.files[0].path.split('/').slice(0, -1).join('/'), harness: 'claude-code' }));
    const day = usageReport(calls, { by: 'day', timezone: 'UTC' });
    expect(day.rows.map((r) => [r.key, r.input, r.output])).toEqual([
      ['2026-03-02', 455, 4150],
      ['2026-03-03', 1325, 725]
    ]);
    expect(day.total).toMatchObject({ input: 1780, output: 4875, cacheRead: 76300, cacheWrite: 8100, unpricedMessages: 1 });
    const sessionsReport = usageReport(calls, { by: 'session' });
    expect(Object.fromEntries(sessionsReport.rows.map((r) => [r.key.slice(-4), r.output]))).toEqual({ re01: 2550, rs01: 1600, rs02: 250, sa01: 475 });
    const blocks = usageReport(calls, { by: 'block' });
    expect(blocks.rows.map((r) => [r.key, r.messages])).toEqual([
      ['2026-03-02T09:00:00.000Z', 4],
      ['2026-03-02T22:00:00.000Z', 2],
      ['2026-03-03T08:00:00.000Z', 1],
      ['2026-03-03T13:00:00.000Z', 8]
    ]);
  });
});

describe('usageReport by person', () => {
  it('sums calls by the folder above projects/ (a synced team tree), the rest under no person', () => {
    const calls = [
      call({ at: '2026-01-01T10:00:00.000Z', project: 'team/alice/projects/-home-alice-app', output: 10 }),
      call({ at: '2026-01-01T11:00:00.000Z', project: 'team/alice/.claude/projects/-home-alice-api', output: 20 }),
      call({ at: '2026-01-01T12:00:00.000Z', project: 'team/bob/.claude/projects/-home-bob-app', output: 40 }),
      call({ at: '2026-01-01T13:00:00.000Z', project: 'projects/-home-u-x', output: 80 })
    ];
    const r = usageReport(calls, { by: 'person' });
    expect(Object.fromEntries(r.rows.map((row) => [row.key, row.output]))).toEqual({ alice: 30, bob: 40, '': 80 });
  });
});
