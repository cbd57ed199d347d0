// The history's billed calls as a file for DuckDB, a warehouse or a spreadsheet: one row per call
// (deduplicated across the history as the reports count them), with the session, project and
// harness columns, in CSV (RFC 4180) or Parquet (hyparquet-writer, a maintained writer: snappy
// pages, statistics; no hand-written format). cost_usd is empty / null for an unpriced call,
// never 0. Values are written as the transcripts give them (no spreadsheet-formula escaping:
// project folders legitimately start with "-").
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import { preparedOf, type PreparedCalls } from './reports.ts';
import type { BilledCall } from './types.ts';

export type ExportFormat = 'csv' | 'parquet';

interface Column {
  name: string;
  type: 'STRING' | 'INT32' | 'DOUBLE' | 'BOOLEAN' | 'TIMESTAMP';
  value: (c: BilledCall, cost: number) => string | number | boolean | null;
}

/** The columns, in file order (docs/usage-counting.md describes them). */
export const CALL_COLUMNS: readonly Column[] = [
  { name: 'call_id', type: 'STRING', value: (c) => c.id },
  { name: 'time', type: 'TIMESTAMP', value: (c) => c.ms },
  { name: 'session_id', type: 'STRING', value: (c) => c.sessionId },
  { name: 'session_key', type: 'STRING', value: (c) => c.sessionKey },
  { name: 'project', type: 'STRING', value: (c) => c.project },
  { name: 'harness', type: 'STRING', value: (c) => c.harness },
  { name: 'model', type: 'STRING', value: (c) => c.model },
  { name: 'service_tier', type: 'STRING', value: (c) => c.serviceTier },
  { name: 'input_tokens', type: 'INT32', value: (c) => c.input },
  { name: 'output_tokens', type: 'INT32', value: (c) => c.output },
  { name: 'cache_read_tokens', type: 'INT32', value: (c) => c.cacheRead },
  { name: 'cache_write_5m_tokens', type: 'INT32', value: (c) => c.cacheWrite5m },
  { name: 'cache_write_1h_tokens', type: 'INT32', value: (c) => c.cacheWrite1h },
  { name: 'web_searches', type: 'INT32', value: (c) => c.webSearches },
  { name: 'cost_usd', type: 'DOUBLE', value: (_c, cost) => (cost === cost ? cost : null) },
  { name: 'on_path', type: 'BOOLEAN', value: (c) => c.onPath },
  { name: 'subagent', type: 'BOOLEAN', value: (c) => c.subagent },
  { name: 'file', type: 'STRING', value: (c) => c.file ?? null },
  { name: 'line', type: 'INT32', value: (c) => c.line ?? null }
];

function csvField(v: string | number | boolean | null, type: Column['type']): string {
  if (v === null) return '';
  if (type === 'TIMESTAMP') return new Date(v as number).toISOString();
  if (typeof v !== 'string') return String(v);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** CSV of the calls: a header row, then one row per call, CRLF line ends (RFC 4180). */
export function callsCsv(calls: Iterable<BilledCall> | PreparedCalls): string {
  const p = preparedOf(calls);
  const out: string[] = [CALL_COLUMNS.map((c) => c.name).join(',')];
  for (let i = 0; i < p.calls.length; i++) {
    const c = p.calls[i];
    const cost = p.cost[i];
    out.push(CALL_COLUMNS.map((col) => csvField(col.value(c, cost), col.type)).join(','));
  }
  return out.join('\r\n') + '\r\n';
}

/** Parquet of the calls, the same columns as the CSV (typed: timestamps, integers, booleans). */
export function callsParquet(calls: Iterable<BilledCall> | PreparedCalls): ArrayBuffer {
  const p = preparedOf(calls);
  const columnData: ColumnSource[] = CALL_COLUMNS.map((col) => ({
    name: col.name,
    type: col.type,
    data: p.calls.map((c, i) => col.value(c, p.cost[i]))
  }));
  return parquetWriteBuffer({ columnData, createdBy: 'Loupe history export' });
}

/** The download: file name, MIME type and bytes. */
export function exportCalls(calls: Iterable<BilledCall> | PreparedCalls, format: ExportFormat, stamp = new Date()): { name: string; type: string; data: string | ArrayBuffer } {
  const day = stamp.toISOString().slice(0, 10);
  if (format === 'parquet') return { name: `loupe-calls-${day}.parquet`, type: 'application/vnd.apache.parquet', data: callsParquet(calls) };
  return { name: `loupe-calls-${day}.csv`, type: 'text/csv;charset=utf-8', data: callsCsv(calls) };
}
