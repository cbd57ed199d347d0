import { describe, expect, it } from 'vitest';
import { blockSpans, cumulative, dayStart, OTHER, sortRows, stacked } from './dashboard.ts';
import { emptyRow } from './reports.ts';
import type { UsageReport, UsageRow } from './types.ts';

const row = (key: string, costUsd: number, split?: Record<string, number>, extra: Partial<UsageRow> = {}): UsageRow => ({
  ...emptyRow(key),
  costUsd,
  messages: 1,
  split: split && Object.fromEntries(Object.entries(split).map(([k, v]) => [k, { costUsd: v, unpricedMessages: 0 }])),
  ...extra
});
const report = (rows: UsageRow[]): UsageReport => ({ rows, total: emptyRow('total'), priceSourceDate: '2026-01-01' });

describe('dashboard figures', () => {
  it('stacks the largest parts and folds the rest into "other"', () => {
    const s = stacked(report([row('d1', 6, { a: 1, b: 2, c: 3 }), row('d2', 10, { a: 9, d: 1 }, { unpricedMessages: 2 })]), 2);
    expect(s.parts).toEqual(['a', 'c', OTHER]);
    expect(s.values).toEqual([[1, 3, 2], [9, 0, 1]]);
    expect(s.unpriced).toEqual([0, 2]);
    expect(s.max).toBe(10);
    expect(stacked(report([row('d1', 3, { a: 1, b: 2, unpriced: 0 })])).parts).toEqual(['b', 'a']);
  });

  it('runs a cumulative total over time rows', () => {
    expect(cumulative([row('2026-03-01', 1), row('2026-03-02', 2.5)], dayStart)).toEqual({ xs: [Date.UTC(2026, 2, 1), Date.UTC(2026, 2, 2)], ys: [1, 3.5] });
  });

  it('spans blocks over five hours from their start', () => {
    const [b] = blockSpans([row('2026-03-01T10:00:00.000Z', 1)]);
    expect(b.end - b.start).toBe(5 * 3600 * 1000);
    expect(b.start).toBe(Date.UTC(2026, 2, 1, 10));
  });

  it('sorts rows by a column either way, ties by key', () => {
    const rows = [row('b', 2), row('a', 2), row('c', 5)];
    expect(sortRows(rows, 'costUsd', true).map((r) => r.key)).toEqual(['c', 'a', 'b']);
    expect(sortRows(rows, 'costUsd', false).map((r) => r.key)).toEqual(['a', 'b', 'c']);
    expect(sortRows(rows, 'key', true).map((r) => r.key)).toEqual(['c', 'b', 'a']);
  });
});
