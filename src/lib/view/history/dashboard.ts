// The history dashboard's figures out of usage reports: the stacked cost per day (the few largest
// models or projects, the rest as "other"), the running total, billing blocks as spans on a time
// axis and sortable table rows (a cost reads through usage/format.ts costLabel: "≥ $X (N
// messages unpriced)" whenever a call had no price, never $0). Pure data; the components draw it.
import type { UsageReport, UsageRow } from './types.ts';
import { BLOCK_MS } from './reports.ts';

export interface Stacked {
  /** Row keys (days), in order. */
  keys: string[];
  /** Stack parts, largest total first; "other" last when parts were folded. */
  parts: string[];
  /** values[i][j]: cost of part j on row i. */
  values: number[][];
  /** Per row: calls without a price. */
  unpriced: number[];
  max: number;
}

export const OTHER = 'other';

/** Cost per row stacked by the report's split (query.split), the `top` largest parts kept. */
export function stacked(report: UsageReport, top = 6): Stacked {
  const totals = new Map<string, number>();
  for (const r of report.rows) for (const [part, v] of Object.entries(r.split ?? {})) totals.set(part, (totals.get(part) ?? 0) + v.costUsd);
  // Parts that cost nothing (unpriced models, zero-usage notices) would only crowd the legend.
  const ranked = [...totals].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
  const kept = ranked.slice(0, top);
  const folded = ranked.length > kept.length;
  const parts = folded ? [...kept, OTHER] : kept;
  const index = new Map(kept.map((p, i) => [p, i]));
  let max = 0;
  const values = report.rows.map((r) => {
    const v = new Array<number>(parts.length).fill(0);
    for (const [part, x] of Object.entries(r.split ?? {})) if (x.costUsd > 0) v[index.get(part) ?? parts.length - 1] += x.costUsd;
    max = Math.max(max, r.costUsd);
    return v;
  });
  return { keys: report.rows.map((r) => r.key), parts, values, unpriced: report.rows.map((r) => r.unpricedMessages), max };
}

/** Running total of cost over time rows (days or blocks), with the epoch ms of each row's start. */
export function cumulative(rows: readonly UsageRow[], startOf: (key: string) => number): { xs: number[]; ys: number[] } {
  const xs: number[] = [];
  const ys: number[] = [];
  let run = 0;
  for (const r of rows) {
    run += r.costUsd;
    xs.push(startOf(r.key));
    ys.push(run);
  }
  return { xs, ys };
}

/** Epoch ms of a day key's midnight UTC (a position on the axis; the key is already zoned). */
export const dayStart = (key: string): number => Date.parse(`${key}T00:00:00Z`);

export interface Span {
  key: string;
  start: number;
  end: number;
  row: UsageRow;
}

/** Billing blocks as spans [start, start + 5 h) on a time axis. */
export const blockSpans = (rows: readonly UsageRow[]): Span[] => rows.map((row) => ({ key: row.key, start: Date.parse(row.key), end: Date.parse(row.key) + BLOCK_MS, row }));

export type SortColumn = 'key' | 'costUsd' | 'messages' | 'input' | 'output' | 'cacheRead' | 'cacheWrite';

/** Rows sorted by a column (ties by key), as a new array. */
export function sortRows(rows: readonly UsageRow[], column: SortColumn, descending: boolean): UsageRow[] {
  const dir = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[column];
    const y = b[column];
    const c = x < y ? -1 : x > y ? 1 : 0;
    return c * dir || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  });
}

/** What the dashboard has drawn after a number of steps: day bars and blocks (counts), the
 *  running total and top lists (drawn or not) and, per table in page order, its rows (0: not yet). */
export interface DrawnParts {
  days: number;
  line: boolean;
  blocks: number;
  tops: boolean;
  tableRows: number[];
}

/** Its first draw, in steps the page takes as many per frame as fit a budget (no main-thread task
 *  over 50 ms, on a history of ~500 days, ~1,000 blocks and six tables of 10 rows first: each
 *  table's "Show more" draws the rest when asked): the frame, the day bars a slice at a
 *  time, then the running total, the blocks a slice at a time, the top lists, each table in
 *  slices of rows up to its `rows`. */
export interface DrawPlan {
  steps: number;
  at(step: number): DrawnParts;
}

export function drawPlan(days: number, blocks: number, tables: number, slice = { days: 60, blocks: 200, rows: 10 }, rows = 10): DrawPlan {
  // Step 0 draws the frame only (the total, the chart's axes): the reports' arrival and the
  // figures made of them (stacked, cumulative, spans) are a task of their own.
  const daySteps = 1 + Math.max(1, Math.ceil(days / slice.days));
  const blockSteps = Math.max(1, Math.ceil(blocks / slice.blocks));
  const rowSteps = Math.max(1, Math.ceil(rows / slice.rows));
  const lineAt = daySteps;
  const blocksAt = lineAt + 1;
  const topsAt = blocksAt + blockSteps;
  const tablesAt = topsAt + 1;
  return {
    steps: tablesAt + tables * rowSteps,
    at(step) {
      return {
        days: Math.min(days, step * slice.days),
        line: step >= lineAt,
        blocks: Math.max(0, Math.min(blocks, (step - blocksAt + 1) * slice.blocks)),
        tops: step >= topsAt,
        tableRows: Array.from({ length: tables }, (_, i) => Math.max(0, Math.min(rows, (step - tablesAt - i * rowSteps + 1) * slice.rows)))
      };
    }
  };
}
