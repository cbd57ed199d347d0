import { describe, expect, it } from 'vitest';
import { PRICES } from '../usage/prices.ts';
import { prepareCalls, usageReport } from './reports.ts';
import { readSummary, summaryOf, SUMMARY_VERSION } from './summary.ts';
import type { BilledCall } from './types.ts';

const call = (i: number, over: Partial<BilledCall> = {}): BilledCall => ({
  id: `m${i}:r${i}`, ms: Date.UTC(2026, 0, 1 + (i % 9), i % 24), sessionId: `s${i % 4}`, sessionKey: `k${i % 4}`, project: `projects/p${i % 3}`, harness: 'claude-code',
  model: i % 2 ? 'claude-sonnet-4-5' : 'claude-opus-4-1', serviceTier: null, input: 10 + i, output: 100 + i, cacheRead: 1000 * i, cacheWrite5m: 7 * i, cacheWrite1h: i % 5, webSearches: 0, onPath: true, subagent: false, ...over
});
const calls = [...Array.from({ length: 60 }, (_, i) => call(i)), call(3), call(99, { ms: null }), call(98, { model: 'not-a-model' })];
const row = { key: 'k0', title: 't', project: 'projects/p0', harness: 'claude-code' as const, startedAt: 1, endedAt: 2, turns: 3, costUsd: 4, unpricedMessages: 0, root: 'projects' };

describe('the stored history summary', () => {
  it('keeps the columns and not the calls, and its reports are the calls\' own for any query', () => {
    const s = summaryOf([row], 2, prepareCalls(calls));
    expect(s.v).toBe(SUMMARY_VERSION);
    expect(Object.keys(s.usage)).not.toContain('calls');
    const back = readSummary(structuredClone(s));
    expect(back?.rows).toEqual([row]);
    expect(back?.stale).toBe(2);
    for (const q of [{ by: 'day' as const, timezone: 'Asia/Tokyo', split: 'model' as const }, { by: 'block' as const }, { by: 'session' as const }, { by: 'model' as const, project: 'projects/p1' }, { by: 'project' as const, since: '2026-01-03', until: '2026-01-05' }]) {
      expect(usageReport(back!.usage, q)).toEqual(usageReport(calls, q));
    }
  });

  it('is not read when another price table or shape made it', () => {
    const s = summaryOf([row], 0, prepareCalls(calls));
    expect(readSummary({ ...s, priceDate: '1999-01-01' })).toBeNull();
    expect(readSummary({ ...s, v: SUMMARY_VERSION + 1 })).toBeNull();
    expect(readSummary({ ...s, usage: { ...s.usage, cost: [1, 2] } })).toBeNull();
    expect(readSummary(null)).toBeNull();
    expect(readSummary(s, { ...PRICES, sourceDate: 'other' })).toBeNull();
  });
});
