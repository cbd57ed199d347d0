import { describe, expect, it } from 'vitest';
import { blockSpans, cumulative, dayStart, drawPlan, OTHER, sortRows, stacked } from './dashboard.ts';
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

  it('plans the first draw in steps: day bars a slice at a time, the running total, blocks a slice at a time, the top lists, each table a slice of rows at a time', () => {
    const plan = drawPlan(250, 700, 3, { days: 100, blocks: 300, rows: 25 }, 50);
    const all = Array.from({ length: plan.steps + 2 }, (_, i) => plan.at(i));
    const none = [0, 0, 0];
    expect(all.slice(0, 4).map((d) => d.days)).toEqual([0, 100, 200, 250]);
    expect(all.slice(0, 4).every((d) => !d.line && d.blocks === 0 && !d.tops && d.tableRows.every((r) => r === 0))).toBe(true);
    expect(all[4]).toEqual({ days: 250, line: true, blocks: 0, tops: false, tableRows: none });
    expect(all.slice(5, 8).map((d) => d.blocks)).toEqual([300, 600, 700]);
    expect(all[8]).toMatchObject({ blocks: 700, tops: true, tableRows: none });
    expect(all.slice(9).map((d) => d.tableRows)).toEqual([[25, 0, 0], [50, 0, 0], [50, 25, 0], [50, 50, 0], [50, 50, 25], [50, 50, 50], [50, 50, 50], [50, 50, 50]]);
    // Everything is drawn at the last step, and each step adds something.
    expect(plan.at(plan.steps - 1)).toEqual({ days: 250, line: true, blocks: 700, tops: true, tableRows: [50, 50, 50] });
    const size = (d: ReturnType<typeof plan.at>) => d.days + d.blocks + d.tableRows.reduce((a, b) => a + b, 0) + +d.line + +d.tops;
    for (let i = 1; i < plan.steps; i++) expect(size(plan.at(i))).toBeGreaterThan(size(plan.at(i - 1)));
    // A small history: the frame, then one step for the bars, the total, the blocks, the top lists; one per table (10 rows each).
    const small = drawPlan(2, 4, 6);
    expect(small.steps).toBe(11);
    expect(small.at(0)).toMatchObject({ days: 0, line: false, blocks: 0, tops: false });
    expect(small.at(1)).toMatchObject({ days: 2, line: false, blocks: 0, tops: false });
    expect(small.at(3)).toMatchObject({ days: 2, line: true, blocks: 4, tops: false });
    expect(small.at(10).tableRows).toEqual([10, 10, 10, 10, 10, 10]);
  });
});
