// The exports read back: the Parquet file and the CSV through DuckDB (as a team aggregating
// histories would read them) give the same totals, per day and per session, as usageReport.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import { dropFolder } from '../../ingest/test-helpers.ts';
import { billedCalls } from './calls.ts';
import { CALL_COLUMNS, callsCsv, callsParquet, exportCalls } from './export.ts';
import { usageReport } from './reports.ts';
import type { BilledCall } from './types.ts';

const dir = mkdtempSync(join(tmpdir(), 'loupe-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fixtureCalls(): Promise<BilledCall[]> {
  const { sessions } = await loadSessions(dropFolder(resolve(import.meta.dirname, '../../../../fixtures/history/claude/projects')));
  return sessions.flatMap((s) => billedCalls(s, { sessionKey: s.key, project: s.files[0].path.split('/').slice(0, -1).join('/'), harness: 'claude-code' }));
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    const reader = await con.runAndReadAll(sql);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    con.closeSync();
  }
}

const TOTALS = `count(*)::INT AS messages, sum(input_tokens)::INT AS input, sum(output_tokens)::INT AS output, sum(cache_read_tokens)::INT AS cache_read,
  sum(cache_write_5m_tokens + cache_write_1h_tokens)::INT AS cache_write, sum(cost_usd)::DOUBLE AS cost, count(*) FILTER (WHERE cost_usd IS NULL)::INT AS unpriced`;

describe('history export', () => {
  it('Parquet reads back in DuckDB to the same totals as usageReport, by day and by session', async () => {
    const calls = await fixtureCalls();
    // Copies (a resumed session read twice) count once in the file too.
    const twice = [...calls, ...calls.map((c) => ({ ...c, sessionKey: 'other' }))];
    const file = join(dir, 'calls.parquet');
    writeFileSync(file, new Uint8Array(callsParquet(twice)));
    const report = usageReport(calls, { by: 'day', timezone: 'UTC' });
    const [all] = await query(`SELECT ${TOTALS} FROM '${file}'`);
    expect(all).toMatchObject({ messages: report.total.messages, input: report.total.input, output: report.total.output, cache_read: report.total.cacheRead, cache_write: report.total.cacheWrite, unpriced: report.total.unpricedMessages });
    expect(all.cost as number).toBeCloseTo(report.total.costUsd, 10);
    const days = await query(`SELECT strftime(time, '%Y-%m-%d') AS key, ${TOTALS} FROM '${file}' GROUP BY key ORDER BY key`);
    expect(days.map((d) => [d.key, d.input, d.output, d.messages])).toEqual(report.rows.map((r) => [r.key, r.input, r.output, r.messages]));
    const sessions = usageReport(calls, { by: 'session' });
    const bySession = await query(`SELECT session_id AS key, ${TOTALS} FROM '${file}' GROUP BY key`);
    expect(Object.fromEntries(bySession.map((s) => [s.key, s.output]))).toEqual(Object.fromEntries(sessions.rows.map((r) => [r.key, r.output])));
    const [types] = await query(`SELECT typeof(time) AS t, typeof(input_tokens) AS i, typeof(on_path) AS b, typeof(cost_usd) AS c FROM '${file}' LIMIT 1`);
    expect(types).toEqual({ t: 'TIMESTAMP', i: 'INTEGER', b: 'BOOLEAN', c: 'DOUBLE' });
  });

  it('CSV has one row per call with the session, project and harness columns, and reads back in DuckDB', async () => {
    const calls = await fixtureCalls();
    const csv = callsCsv(calls);
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(CALL_COLUMNS.map((c) => c.name).join(','));
    expect(lines[0]).toContain('session_id,session_key,project,harness');
    const report = usageReport(calls, { by: 'day' });
    expect(lines).toHaveLength(report.total.messages + 1);
    const file = join(dir, 'calls.csv');
    writeFileSync(file, csv);
    const [all] = await query(`SELECT ${TOTALS} FROM read_csv('${file}', header = true)`);
    expect(all).toMatchObject({ messages: report.total.messages, input: report.total.input, output: report.total.output, unpriced: 1 });
    expect(all.cost as number).toBeCloseTo(report.total.costUsd, 10);
    const off = await query(`SELECT count(*)::INT AS n FROM read_csv('${file}', header = true) WHERE NOT on_path`);
    expect(off[0].n).toBe(calls.filter((c) => !c.onPath).length);
  });

  it('quotes fields with commas, quotes or line breaks', () => {
    const c: BilledCall = { id: 'a,"b"\nc', ms: 0, sessionId: 's', sessionKey: 'k', project: 'p', harness: 'claude-code', model: 'm', serviceTier: null, input: 1, output: 2, cacheRead: 0, cacheWrite5m: 0, cacheWrite1h: 0, webSearches: 0, onPath: true, subagent: false };
    const row = callsCsv([c]).split('\r\n')[1];
    expect(row.startsWith('"a,""b""\nc",1970-01-01T00:00:00.000Z,s,k,p,claude-code,m,,1,2,')).toBe(true);
    expect(exportCalls([c], 'parquet', new Date('2026-03-04T00:00:00Z')).name).toBe('loupe-calls-2026-03-04.parquet');
  });
});
