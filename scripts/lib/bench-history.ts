// The history usage part of `npm run bench` (issue 22): usageReport over ~300k billed calls, the
// size of a large history (1,500 sessions of 200 calls), made in memory: 6 projects, 4 models,
// a year of working hours, 3 % of the calls copied into another session (resumed copies).
// Times every `by` in a non-UTC zone (DST, Intl work) and with a filter; target ≤ 100 ms each.
// Run alone: `npx tsx scripts/lib/bench-history.ts`.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { usageReport } from '../../src/lib/view/history/reports.ts';
import type { BilledCall, UsageBy, UsageQuery } from '../../src/lib/view/history/types.ts';

export const HISTORY_TARGET_MS = 100;
const MODELS = ['claude-opus-4-5-20251101', 'claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001', 'claude-opus-4-7'];

/** A deterministic history of `sessions` × `perSession` calls (plus copies). */
export function syntheticCalls(sessions = 1500, perSession = 200, seed = 7): BilledCall[] {
  let s = seed >>> 0;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const t0 = Date.parse('2026-01-01T08:00:00Z');
  const out: BilledCall[] = [];
  for (let i = 0; i < sessions; i++) {
    const sid = `s${i.toString(36).padStart(6, '0')}`;
    const project = `projects/-work-p${i % 6}`;
    let ms = t0 + Math.floor((i / sessions) * 340) * 86400000 + Math.floor(rand() * 10) * 3600000;
    for (let j = 0; j < perSession; j++) {
      ms += Math.floor(rand() * 120000);
      out.push({
        id: `msg_${i}_${j}:req_${i}_${j}`,
        ms,
        sessionId: sid,
        sessionKey: `${sid}-k`,
        project,
        harness: 'claude-code',
        model: MODELS[(i + (j % 7 === 0 ? 1 : 0)) % MODELS.length],
        serviceTier: 'standard',
        input: 1 + Math.floor(rand() * 50),
        output: 20 + Math.floor(rand() * 4000),
        cacheRead: 10000 + Math.floor(rand() * 170000),
        cacheWrite5m: Math.floor(rand() * 5000),
        cacheWrite1h: j % 10 === 0 ? 1000 : 0,
        webSearches: 0,
        onPath: rand() > 0.05,
        subagent: j % 9 === 0,
        file: `${project}/${sid}.jsonl`,
        line: j + 1
      });
    }
  }
  // Resumed copies: the same identity read again from another session's file.
  const copies = Math.floor(out.length * 0.03);
  for (let k = 0; k < copies; k++) {
    const c = out[Math.floor(rand() * out.length)];
    out.push({ ...c, sessionKey: `${c.sessionKey}-resumed`, file: `${c.file}.copy`, line: c.line! + 1 });
  }
  return out;
}

export interface HistoryBench {
  calls: number;
  rows: { query: string; medianMs: number; maxMs: number; rows: number }[];
  worstMs: number;
  pass: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function historyBench(runs = 5): HistoryBench {
  const calls = syntheticCalls();
  const queries: UsageQuery[] = [
    ...(['day', 'week', 'month', 'session', 'block', 'project', 'model', 'harness'] as UsageBy[]).map((by) => ({ by, timezone: 'America/New_York' })),
    { by: 'day', timezone: 'UTC', split: 'model' },
    { by: 'session', timezone: 'Europe/Paris', since: '2026-03-01', until: '2026-06-30', project: 'projects/-work-p2' }
  ];
  usageReport(calls, { by: 'day' }); // warm-up (JIT; prices cached per call as the app's would be)
  const rows = queries.map((q) => {
    const ms: number[] = [];
    let n = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      n = usageReport(calls, q).rows.length;
      ms.push(performance.now() - t);
    }
    const label = Object.entries(q).map(([k, v]) => `${k}=${v}`).join(' ');
    return { query: label, medianMs: median(ms), maxMs: Math.max(...ms), rows: n };
  });
  const worstMs = Math.max(...rows.map((r) => r.medianMs));
  return { calls: calls.length, rows, worstMs, pass: worstMs <= HISTORY_TARGET_MS };
}

export function printHistoryBench(b: HistoryBench, write: (s: string) => void): void {
  write(`\nhistory usage: usageReport over ${b.calls} billed calls (3 % copies)\n`);
  const w = Math.max(...b.rows.map((r) => r.query.length)) + 2;
  for (const r of b.rows) write(`  ${r.query.padEnd(w)} median ${r.medianMs.toFixed(1).padStart(6)} ms  max ${r.maxMs.toFixed(1).padStart(6)} ms  ${r.rows} rows\n`);
  write(`${b.pass ? 'PASS' : 'MISS'}  slowest report median ${b.worstMs.toFixed(1)} ms (target ≤ ${HISTORY_TARGET_MS} ms)\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const b = historyBench();
  printHistoryBench(b, (s) => process.stdout.write(s));
}
