// The exactness check of history usage against ccusage (issue 22), shared by
// `npm run verify:usage -- DIR` (scripts/verify-usage.ts) and its unit test: load a
// `~/.claude/projects`-like DIR through ingest (one project folder at a time, so a big tree
// never sits in memory whole), compute usageReport by day, session and block in UTC, run
// ccusage 20.0.24 (the pinned devDependency) on the same files, and compare row by row:
// tokens must be identical; cost within 0.5 % per row and in total, or the row names the
// price-table difference that explains it (a model one table prices and the other does not, or
// prices differently: found from both sides' per-model costs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadSessions } from '../../src/lib/ingest/load-files.ts';
import type { InputFile, LoadedSession } from '../../src/lib/ingest/types.ts';
import { billedCalls, callsOfBytes, onPathIds } from '../../src/lib/view/history/calls.ts';
import { usageReport } from '../../src/lib/view/history/reports.ts';
import type { BilledCall, UsageRow } from '../../src/lib/view/history/types.ts';
import { runCcusage as runCcusageMjs } from './ccusage.mjs';
import { filesUnder } from './files.ts';

export const COST_TOLERANCE = 0.005;

export type Report = 'daily' | 'session' | 'blocks';
const BY = { daily: 'day', session: 'session', blocks: 'block' } as const;

/** One row of either side: tokens, cost and per-model cost. */
export interface Side {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  unpriced: number;
  models: Record<string, number | null>;
}

export interface Compared {
  report: Report;
  key: string;
  loupe: Side | null;
  ccusage: Side | null;
  tokensEqual: boolean;
  /** tokens differ only by calls on lines ccusage does not read (named in the note) */
  tokensExplained?: boolean;
  /** relative cost difference (loupe − ccusage) / ccusage; 0 when both are 0 */
  costDelta: number;
  /** why the cost differs, when it does by more than the tolerance (null: unexplained) */
  note: string | null;
}

export interface Verification {
  dir: string;
  calls: number;
  sessions: number;
  rows: Compared[];
  totals: Compared[];
  tokenMismatches: number;
  unexplainedCost: number;
  ccusageMs: number;
  loupeMs: number;
}

const dirOf = (p: string) => p.slice(0, p.lastIndexOf('/'));

/** Billed calls of every session under a projects-like folder, through ingest, project by project. */
export async function loadCalls(dir: string): Promise<{ calls: BilledCall[]; sessions: number; unread: Set<string> }> {
  const root = resolve(dir);
  const base = resolve(root, '..');
  const calls: BilledCall[] = [];
  const unread = new Set<string>();
  let sessions = 0;
  const groups = readdirSync(root).sort().map((name) => join(root, name));
  const loose = groups.filter((p) => !statSync(p).isDirectory());
  for (const group of [...groups.filter((p) => statSync(p).isDirectory()).map((p) => filesUnder(p)), loose]) {
    const files: InputFile[] = group.filter((p) => p.endsWith('.jsonl') || p.endsWith('.json')).map((p) => {
      const bytes = readFileSync(p);
      const path = relative(base, p).split('\\').join('/');
      // ccusage reads only lines in the compact form `"type":"assistant"`: note the others.
      bytes.toString('utf8').split('\n').forEach((line, i) => {
        if (line.includes('"usage"') && !line.includes('"type":"assistant"')) unread.add(`${path}#${i + 1}`);
      });
      return { path, blob: new Blob([bytes]), bytes: new Uint8Array(bytes) };
    });
    if (!files.length) continue;
    const out = await loadSessions(files);
    const bytesOf = new Map(files.map((f) => [f.path, f.bytes]));
    for (const s of out.sessions) {
      sessions++;
      // The history index's rule: the files' calls, read from their text (one rule for every path).
      const fromText = callsOfBytes(s.files.map((f) => ({ path: f.path, bytes: bytesOf.get(f.path) })), whereOf(s), onPathIds(s));
      calls.push(...(fromText?.calls ?? billedCalls(s, whereOf(s))));
    }
  }
  return { calls, sessions, unread };
}

/** The session ccusage counts a file for (measured): a file straight in projects/ → its name with
 *  `.jsonl`; `<project>/<file>` → the file's stem; `…/<session>/subagents/<file>` → the session;
 *  any other nested file → the folder it is in. `file` is relative to the projects folder's parent. */
export function ccusageSession(file: string): string {
  // An inline sidechain's calls are read from the main file (`<main>#sidechain-<n>.jsonl`).
  const segs = file.replace(/#sidechain-\d+\.jsonl$/, '.jsonl').split('/').slice(1);
  const name = segs[segs.length - 1];
  if (segs.length === 1) return name;
  if (segs.length === 2) return name.endsWith('.jsonl') ? name.slice(0, -6) : name;
  const parent = segs[segs.length - 2];
  return parent === 'subagents' && segs.length >= 4 ? segs[segs.length - 3] : parent;
}

function whereOf(s: LoadedSession) {
  const leaf = s.files.find((f) => f.kind === 'transcript') ?? s.files[0];
  return { sessionKey: s.key, project: leaf ? dirOf(leaf.path) : '', harness: s.meta.harness ?? 'claude-code' };
}

/** ccusage's JSON for one report, and its wall time (scripts/lib/ccusage.mjs). */
export function runCcusage(dir: string, report: Report): { json: Record<string, unknown>; ms: number } {
  return runCcusageMjs(dir, report);
}

type Obj = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : 0);

function ccusageRows(report: Report, json: Obj): Map<string, Side> {
  const out = new Map<string, Side>();
  const list = (json[report] ?? []) as Obj[];
  for (const r of list) {
    if (report === 'blocks') {
      if (r.isGap) continue;
      const t = r.tokenCounts as Obj;
      out.set(String(r.id), { input: num(t.inputTokens), output: num(t.outputTokens), cacheRead: num(t.cacheReadInputTokens), cacheWrite: num(t.cacheCreationInputTokens), cost: num(r.costUSD), unpriced: 0, models: {} });
      continue;
    }
    const models: Record<string, number> = {};
    for (const m of (r.modelBreakdowns ?? []) as Obj[]) models[String(m.modelName)] = num(m.cost);
    out.set(String(r.period), { input: num(r.inputTokens), output: num(r.outputTokens), cacheRead: num(r.cacheReadTokens), cacheWrite: num(r.cacheCreationTokens), cost: num(r.totalCost), unpriced: 0, models });
  }
  return out;
}

const sideOf = (r: UsageRow, models: Record<string, number | null>): Side => ({ input: r.input, output: r.output, cacheRead: r.cacheRead, cacheWrite: r.cacheWrite, cost: r.costUsd, unpriced: r.unpricedMessages, models });

/** Loupe's per-model cost of the calls a row counts (null: unpriced there). */
function modelCosts(calls: BilledCall[], report: Report, key: string): Record<string, number | null> {
  const q = report === 'daily' ? { by: 'model' as const, since: key, until: key, timezone: 'UTC' } : null;
  const picked = q ? calls : calls.filter((c) => (report === 'session' ? c.sessionId === key : true));
  if (report === 'blocks') return {};
  const r = usageReport(picked, q ?? { by: 'model' });
  return Object.fromEntries(r.rows.map((m) => [m.key, m.unpricedMessages ? null : m.costUsd]));
}

const tokensEqual = (a: Side | null, b: Side | null) => !!a && !!b && a.input === b.input && a.output === b.output && a.cacheRead === b.cacheRead && a.cacheWrite === b.cacheWrite;
const money = (x: number) => `$${x.toFixed(4)}`;

/** Names what makes the cost of a row differ, from both sides' per-model costs. */
function explain(l: Side, c: Side, unpricedModels: Set<string>): string | null {
  const notes: string[] = [];
  for (const m of new Set([...Object.keys(l.models), ...Object.keys(c.models)])) {
    const lc = l.models[m];
    const cc = c.models[m] ?? undefined;
    if (lc === null && (cc ?? 0) > 0) notes.push(`${m}: unpriced in Loupe's table (genai-prices), ccusage ${money(cc!)}`);
    else if (lc !== null && lc !== undefined && lc > 0 && (cc ?? 0) === 0 && unpricedModels.has(m)) notes.push(`${m}: unpriced in ccusage's table, Loupe ${money(lc)}`);
    else if (lc !== null && lc !== undefined && cc !== undefined && Math.abs(lc - cc) > COST_TOLERANCE * Math.max(cc, 1e-9)) notes.push(`${m}: priced differently (Loupe ${money(lc)}, ccusage ${money(cc)})`);
  }
  if (!notes.length && l.unpriced > 0) notes.push(`${l.unpriced} call(s) unpriced in Loupe's table`);
  return notes.length ? notes.join('; ') : null;
}

/** A row whose tokens differ only by calls on lines ccusage does not read is explained, named. */
function explainUnread(row: Compared, readable: Side | null, unreadCalls: number): void {
  if (row.tokensEqual || unreadCalls <= 0 || !row.ccusage) return;
  const c = row.ccusage;
  const same = readable ? tokensEqual(readable, c) : c.input + c.output + c.cacheRead + c.cacheWrite === 0;
  if (!same) return;
  row.tokensExplained = true;
  row.note = `ccusage does not read ${unreadCalls} line(s) written with spaces ("type": "assistant"); the other calls are identical`;
}

function compareRow(report: Report, key: string, l: Side | null, c: Side | null, unpricedModels: Set<string>): Compared {
  const lc = l?.cost ?? 0;
  const cc = c?.cost ?? 0;
  const costDelta = cc === 0 ? (lc === 0 ? 0 : 1) : (lc - cc) / cc;
  const eq = tokensEqual(l, c);
  let note: string | null = null;
  if (!eq) note = !l ? 'row only in ccusage' : !c ? 'row only in Loupe' : 'token counts differ';
  else if (Math.abs(costDelta) > COST_TOLERANCE) note = explain(l!, c!, unpricedModels);
  return { report, key, loupe: l, ccusage: c, tokensEqual: eq, costDelta, note };
}

/** Loupe's rows for a report, ccusage's, compared; plus the total row. */
function compareReport(report: Report, given: BilledCall[], json: Obj, unread: Set<string>): { rows: Compared[]; total: Compared } {
  // Sessions are compared under ccusage's key for the file each call is kept from (the same as
  // Loupe's session id in a ~/.claude/projects layout; a row says when it is not).
  const calls = report === 'session' ? given.map((c) => ({ ...c, sessionId: c.file ? ccusageSession(c.file) : c.sessionId })) : given;
  const renamed = new Set(report === 'session' ? calls.filter((c, i) => c.sessionId !== given[i].sessionId).map((c) => c.sessionId) : []);
  const readable = calls.filter((c) => !unread.has(`${c.file}#${c.line}`));
  const ours = usageReport(calls, { by: BY[report], timezone: 'UTC' });
  const oursRead = new Map(usageReport(readable, { by: BY[report], timezone: 'UTC' }).rows.map((r) => [r.key, r]));
  const theirs = ccusageRows(report, json);
  const unpricedModels = new Set(((json.totals as Obj | undefined)?.unpricedModels ?? []) as string[]);
  // ccusage leaves out a day or session whose calls used no tokens; blocks keep them.
  const mine = new Map(ours.rows.filter((r) => report === 'blocks' || r.input + r.output + r.cacheRead + r.cacheWrite > 0).map((r) => [r.key, r]));
  const keys = [...new Set([...mine.keys(), ...theirs.keys()])].sort();
  const rows = keys.map((k) => {
    const r = mine.get(k);
    const row = compareRow(report, k, r ? sideOf(r, modelCosts(calls, report, k)) : null, theirs.get(k) ?? null, unpricedModels);
    const read = oursRead.get(k);
    explainUnread(row, read ? sideOf(read, {}) : null, r && read ? r.messages - read.messages : r?.messages ?? 0);
    if (renamed.has(k)) row.note = [`ccusage's key for a file outside the <project>/<session>.jsonl layout (Loupe: the file's session id)`, row.note].filter(Boolean).join('; ');
    return row;
  });
  const t = json.totals as Obj | undefined;
  const theirTotal: Side = t
    ? { input: num(t.inputTokens), output: num(t.outputTokens), cacheRead: num(t.cacheReadTokens), cacheWrite: num(t.cacheCreationTokens), cost: num(t.totalCost), unpriced: 0, models: {} }
    : [...theirs.values()].reduce((a, b) => ({ ...a, input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite, cost: a.cost + b.cost }), { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, unpriced: 0, models: {} } as Side);
  const all = usageReport(calls, { by: 'model' });
  const ourModels = Object.fromEntries(all.rows.map((m) => [m.key, m.unpricedMessages ? null : m.costUsd]));
  const theirModels: Record<string, number> = {};
  for (const r of theirs.values()) for (const [m, c] of Object.entries(r.models)) theirModels[m] = (theirModels[m] ?? 0) + (c ?? 0);
  const total = compareRow(report, 'total', sideOf(ours.total, ourModels), { ...theirTotal, models: theirModels }, unpricedModels);
  const readTotal = usageReport(readable, { by: 'harness' }).total;
  explainUnread(total, sideOf(readTotal, {}), ours.total.messages - readTotal.messages);
  return { rows, total };
}

export async function verifyUsage(dir: string, reports: Report[] = ['daily', 'session', 'blocks']): Promise<Verification> {
  const t = performance.now();
  const { calls, sessions, unread } = await loadCalls(dir);
  const loupeMs = performance.now() - t;
  const rows: Compared[] = [];
  const totals: Compared[] = [];
  let ccusageMs = 0;
  for (const report of reports) {
    const { json, ms } = runCcusage(dir, report);
    ccusageMs += ms;
    const r = compareReport(report, calls, json, unread);
    rows.push(...r.rows);
    totals.push(r.total);
  }
  const all = [...rows, ...totals];
  return {
    dir,
    calls: calls.length,
    sessions,
    rows,
    totals,
    tokenMismatches: all.filter((r) => !r.tokensEqual && !r.tokensExplained).length,
    unexplainedCost: all.filter((r) => r.tokensEqual && Math.abs(r.costDelta) > COST_TOLERANCE && r.note === null).length,
    ccusageMs,
    loupeMs
  };
}

const tok = (s: Side | null) => (s ? `${s.input}/${s.output}/${s.cacheRead}/${s.cacheWrite}` : '—');

/** The side-by-side table (Markdown, so it pastes into a report). */
export function formatVerification(v: Verification, opts: { maxRows?: number } = {}): string {
  const max = opts.maxRows ?? Infinity;
  const lines = [`ccusage 20.0.24 vs Loupe on ${v.dir}: ${v.sessions} sessions, ${v.calls} billed calls (before deduplication across sessions); Loupe ${Math.round(v.loupeMs)} ms, ccusage ${Math.round(v.ccusageMs)} ms`, ''];
  lines.push('| report | key | tokens in/out/cache read/cache write (Loupe) | (ccusage) | cost Loupe | cost ccusage | Δ cost | note |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
  const byReport = new Map<Report, Compared[]>();
  for (const r of v.rows) byReport.set(r.report, [...(byReport.get(r.report) ?? []), r]);
  const row = (r: Compared) =>
    `| ${r.report} | ${r.key} | ${tok(r.loupe)} | ${r.tokensEqual ? '=' : tok(r.ccusage)} | ${r.loupe ? (r.loupe.unpriced ? `≥ ${money(r.loupe.cost)} (${r.loupe.unpriced} unpriced)` : money(r.loupe.cost)) : '—'} | ${r.ccusage ? money(r.ccusage.cost) : '—'} | ${(Math.abs(r.costDelta) < 5e-5 ? 0 : r.costDelta * 100).toFixed(2)} % | ${r.note ?? (r.tokensEqual ? '' : 'TOKENS DIFFER')} |`;
  for (const [report, rs] of byReport) {
    // Rows that differ first, then the rest up to max.
    const flagged = rs.filter((r) => !r.tokensEqual || r.note);
    const shown = [...flagged, ...rs.filter((r) => r.tokensEqual && !r.note).slice(0, Math.max(0, max - flagged.length))];
    for (const r of shown.sort((a, b) => (a.key < b.key ? -1 : 1))) lines.push(row(r));
    if (shown.length < rs.length) lines.push(`| ${report} | … ${rs.length - shown.length} more rows, all identical | | | | | | |`);
    const total = v.totals.find((t) => t.report === report);
    if (total) lines.push(row(total));
  }
  lines.push('', `${v.tokenMismatches ? `FAIL: ${v.tokenMismatches} row(s) with different token counts` : [...v.rows, ...v.totals].some((r) => r.tokensExplained) ? 'tokens identical in every row but those named (lines ccusage does not read)' : 'tokens identical in every row'}; ${v.unexplainedCost ? `${v.unexplainedCost} cost difference(s) over ${COST_TOLERANCE * 100} % unexplained` : `costs within ${COST_TOLERANCE * 100} % or explained`}`);
  return lines.join('\n');
}
