// The stored history's summary, pure: what the history view needs to open after a reload, made
// once from every stored entry and kept as one record beside them (store/history-index.ts
// putSummary). The list's rows (from the digests) and the usage reports' columns (reports.ts
// UsageColumns: typed arrays, which IndexedDB stores as bytes) read back in one get: the view
// draws without reading 1,500 heads and every session's calls and search filter (seconds on the
// 1 GB tree: IndexedDB reads small values at ~50 ms per MB in Chromium). It stands for the
// entries exactly: the store drops it when they change, and a summary of other prices (a newer
// Loupe's table) or another shape is not used, so its figures are always the reports' own.
import { PRICES, type PriceTable } from '../usage/prices.ts';
import type { HistoryRow } from './browse.ts';
import type { UsageColumns } from './reports.ts';

/** Bump when what a summary holds changes shape. */
export const SUMMARY_VERSION = 1;

/** As stored: the columns without their price table (named by its date). */
export interface HistorySummary {
  v: number;
  rows: HistoryRow[];
  /** Stored sessions only another Loupe model or format wrote (rebuilt on the next drop). */
  stale: number;
  priceDate: string;
  usage: Omit<UsageColumns, 'table'>;
}

/** The record to store: the columns by name (prepared calls also carry the calls themselves,
 *  which the summary must not: they are what it saves reading). */
export function summaryOf(rows: HistoryRow[], stale: number, u: UsageColumns): HistorySummary {
  const { ms, cost, input, output, cacheRead, cacheWrite, session, project, model, harness, person, sessions, projects, models, harnesses, persons, sessionKeys, sessionProjects } = u;
  const usage = { ms, cost, input, output, cacheRead, cacheWrite, session, project, model, harness, person, sessions, projects, models, harnesses, persons, sessionKeys, sessionProjects };
  return { v: SUMMARY_VERSION, rows, stale, priceDate: u.table.sourceDate, usage };
}

/** A stored summary as the view and the reports read it; null when it cannot stand for the
 *  entries (another shape, or priced by another table: the reports are made from the calls). */
export function readSummary(x: unknown, table: PriceTable = PRICES): { rows: HistoryRow[]; stale: number; usage: UsageColumns } | null {
  const s = x as HistorySummary | null;
  if (!s || typeof s !== 'object' || s.v !== SUMMARY_VERSION || s.priceDate !== table.sourceDate) return null;
  if (!Array.isArray(s.rows) || !(s.usage?.cost instanceof Float64Array)) return null;
  return { rows: s.rows, stale: s.stale, usage: { ...s.usage, table } };
}
