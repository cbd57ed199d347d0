// History usage reports: the billed calls of the whole history (calls.ts, stored per session by
// the history index) deduplicated across sessions by identity, filtered, priced and summed by
// day / ISO week / month in a time zone, by session, 5-hour billing block, project, model,
// harness or person (the folder above `projects/` in a tree of several people's). The counting
// rule is ccusage's (calls.ts header, docs/usage-counting.md); prices come from the session
// usage's table (usage/prices.ts: dated prices, long-context tiers).
// Pure and synchronous: the worker runs it; ≤ 100 ms over ~300k calls (npm run bench).
import { PRICES, pricedCost, type PriceTable } from '../usage/prices.ts';
import type { Tokens } from '../usage/messages.ts';
import { pathBefore } from './calls.ts';
import type { BilledCall, UsageQuery, UsageReport, UsageRow } from './types.ts';
import { zone } from './zone.ts';
import { personOf } from '../../ingest/person.ts';

/** A billing block lasts 5 hours from the hour of its first call (ccusage `blocks`). */
export const BLOCK_MS = 5 * 3600 * 1000;
const HOUR = 3600 * 1000;

const totalOf = (c: BilledCall): number => c.input + c.output + c.cacheRead + c.cacheWrite5m + c.cacheWrite1h;
const place = (c: BilledCall) => ({ file: c.file ?? '', line: c.line ?? 0 });

/** True when `a` is the copy to keep over `b` (same identity): more tokens, else first in path order. */
function better(a: BilledCall, b: BilledCall): boolean {
  const ta = totalOf(a);
  const tb = totalOf(b);
  if (ta !== tb) return ta > tb;
  const pa = place(a);
  const pb = place(b);
  if (pa.file !== pb.file || pa.line !== pb.line) return pathBefore(pa, pb);
  return a.sessionKey < b.sessionKey;
}

/** One call per identity across the whole history (the copy calls.ts's rule keeps). */
export function dedupeCalls(calls: Iterable<BilledCall>): BilledCall[] {
  const best = new Map<string, BilledCall>();
  for (const c of calls) {
    const kept = best.get(c.id);
    if (kept === undefined || better(c, kept)) best.set(c.id, c);
  }
  return [...best.values()];
}

function tokensOf(c: BilledCall): Tokens {
  return { input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite5m + c.cacheWrite1h, cacheWrite5m: c.cacheWrite5m, cacheWrite1h: c.cacheWrite1h, webSearches: c.webSearches };
}

/** The call's cost in US dollars, null when its model has no price. An untimed call is priced
 *  at the table's latest prices. */
export const costOf = (c: BilledCall, table: PriceTable = PRICES): number | null => pricedCost(c.model, c.ms ?? Infinity, tokensOf(c), table);

export const emptyRow = (key: string): UsageRow => ({ key, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, messages: 0, unpricedMessages: 0 });

export interface ReportOptions {
  table?: PriceTable;
}

/**
 * The calls of a history in the form reports run over: deduplicated, in time order (untimed
 * last), priced, with columns in typed arrays and strings as codes. Made once per calls array
 * (usageReport caches it) so that each report is one pass of arithmetic.
 */
export interface PreparedCalls extends UsageColumns {
  calls: BilledCall[];
  /** length of the array it was made from (a grown array is prepared again) */
  sourceLength?: number;
}

/** What a report reads of prepared calls: the columns without the calls themselves (the stored
 *  history's summary keeps these, view/history/summary.ts). */
export interface UsageColumns {
  table: PriceTable;
  /** epoch ms, NaN when untimed */
  ms: Float64Array;
  /** US dollars, NaN when unpriced */
  cost: Float64Array;
  input: Float64Array;
  output: Float64Array;
  cacheRead: Float64Array;
  /** 5-minute + 1-hour writes */
  cacheWrite: Float64Array;
  session: Int32Array;
  project: Int32Array;
  model: Int32Array;
  harness: Int32Array;
  /** per call: its project's person (ingest/person.ts; '' when the tree has no such layout) */
  person: Int32Array;
  sessions: string[];
  projects: string[];
  models: string[];
  harnesses: string[];
  persons: string[];
  /** per session code: the listed session (and project) of its first call, to open it */
  sessionKeys: string[];
  sessionProjects: string[];
}

function coder(): { codes: string[]; code(s: string): number } {
  const map = new Map<string, number>();
  const codes: string[] = [];
  return {
    codes,
    code(s) {
      let c = map.get(s);
      if (c === undefined) {
        map.set(s, (c = codes.length));
        codes.push(s);
      }
      return c;
    }
  };
}

export function prepareCalls(input: Iterable<BilledCall>, table: PriceTable = PRICES): PreparedCalls {
  const calls = dedupeCalls(input).sort((a, b) => (a.ms === b.ms ? 0 : a.ms === null ? 1 : b.ms === null ? -1 : a.ms - b.ms));
  const n = calls.length;
  const p: PreparedCalls = {
    calls,
    table,
    ms: new Float64Array(n),
    cost: new Float64Array(n),
    input: new Float64Array(n),
    output: new Float64Array(n),
    cacheRead: new Float64Array(n),
    cacheWrite: new Float64Array(n),
    session: new Int32Array(n),
    project: new Int32Array(n),
    model: new Int32Array(n),
    harness: new Int32Array(n),
    person: new Int32Array(n),
    sessions: [],
    projects: [],
    models: [],
    harnesses: [],
    persons: [],
    sessionKeys: [],
    sessionProjects: []
  };
  const sessions = coder(), projects = coder(), models = coder(), harnesses = coder(), persons = coder();
  for (let i = 0; i < n; i++) {
    const c = calls[i];
    p.ms[i] = c.ms ?? NaN;
    const cost = costOf(c, table);
    p.cost[i] = cost ?? NaN;
    p.input[i] = c.input;
    p.output[i] = c.output;
    p.cacheRead[i] = c.cacheRead;
    p.cacheWrite[i] = c.cacheWrite5m + c.cacheWrite1h;
    const before = sessions.codes.length;
    p.session[i] = sessions.code(c.sessionId);
    if (sessions.codes.length > before) {
      p.sessionKeys.push(c.sessionKey);
      p.sessionProjects.push(c.project);
    }
    p.project[i] = projects.code(c.project);
    p.model[i] = models.code(c.model);
    p.harness[i] = harnesses.code(c.harness);
    p.person[i] = persons.code(personOf(c.project) ?? '');
  }
  p.sessions = sessions.codes;
  p.projects = projects.codes;
  p.models = models.codes;
  p.harnesses = harnesses.codes;
  p.persons = persons.codes;
  return p;
}

const prepared = new WeakMap<object, PreparedCalls>();

/** The prepared form of `calls`, cached per array (the history keeps one array per state). */
export function preparedOf(calls: Iterable<BilledCall> | PreparedCalls, table: PriceTable = PRICES): PreparedCalls {
  if (isPrepared(calls)) return calls;
  const hit = prepared.get(calls);
  if (hit && hit.table === table && Array.isArray(calls) && hit.sourceLength === calls.length) return hit;
  const p = prepareCalls(calls, table);
  if (Array.isArray(calls)) p.sourceLength = calls.length;
  prepared.set(calls, p);
  return p;
}

const isPrepared = (x: unknown): x is PreparedCalls => isColumns(x) && 'calls' in x;
const isColumns = (x: unknown): x is UsageColumns => !!x && typeof x === 'object' && 'cost' in x && (x as UsageColumns).cost instanceof Float64Array;

const TIMED = new Set(['day', 'week', 'month', 'block']);
const QUARTER = 15 * 60 * 1000;

/** Index of `s` in `codes`, -1 when absent, null when no filter. */
const filterCode = (codes: string[], s: string | undefined): number | null => (s === undefined ? null : codes.indexOf(s));

/**
 * The usage report of `calls` (any number of sessions' billed calls; copies across sessions
 * count once) for `query`. Rows: time keys ascending (untimed calls count in the total only),
 * other keys by cost, highest first. With `query.split`, each row also carries its cost by
 * model or project (the dashboard's stacked bars). An array of calls is prepared once and
 * cached (prepareCalls): pass the same array again for a fast report.
 */
export function usageReport(calls: Iterable<BilledCall> | UsageColumns, query: UsageQuery, opts: ReportOptions = {}): UsageReport {
  const p = isColumns(calls) ? calls : preparedOf(calls, opts.table ?? PRICES);
  const z = zone(query.timezone ?? 'UTC');
  const by = query.by;
  const n = p.ms.length;
  const fProject = filterCode(p.projects, query.project);
  const fHarness = filterCode(p.harnesses, query.harness);
  const fModel = filterCode(p.models, query.model);
  const dated = !!(query.since || query.until);
  const since = query.since ?? '';
  const until = query.until ?? '\uffff';
  const splitCodes = query.split === 'model' ? p.model : query.split === 'project' ? p.project : null;
  const splitNames = query.split === 'model' ? p.models : p.projects;

  const total = emptyRow('total');
  const rows = new Map<string, UsageRow>();
  const byCode: (UsageRow | undefined)[] = [];
  const codeOf = by === 'session' ? p.session : by === 'project' ? p.project : by === 'model' ? p.model : by === 'harness' ? p.harness : by === 'person' ? p.person : null;
  const names = by === 'session' ? p.sessions : by === 'project' ? p.projects : by === 'model' ? p.models : by === 'person' ? p.persons : p.harnesses;
  const timeKey = by === 'day' ? z.day : by === 'week' ? z.week : by === 'month' ? z.month : null;

  // Calls are in time order: the day (and the period key) change only between quarter hours.
  let quarter = NaN;
  let day = '';
  let key = '';
  let qKey = NaN;
  let blockStart = -Infinity;
  let last = -Infinity;
  let row: UsageRow | undefined;
  for (let i = 0; i < n; i++) {
    if (fProject !== null && p.project[i] !== fProject) continue;
    if (fHarness !== null && p.harness[i] !== fHarness) continue;
    if (fModel !== null && p.model[i] !== fModel) continue;
    const ms = p.ms[i];
    if (dated) {
      if (ms !== ms) continue;
      const q = Math.floor(ms / QUARTER);
      if (q !== quarter) {
        quarter = q;
        day = z.day(ms);
      }
      if (day < since || day > until) continue;
    }
    const cost = p.cost[i];
    addCall(total, p, i, cost);
    if (codeOf) {
      const code = codeOf[i];
      row = byCode[code];
      if (!row) {
        row = byCode[code] = emptyRow(names[code]);
        if (by === 'session') {
          row.sessionKey = p.sessionKeys[code];
          row.project = p.sessionProjects[code];
        }
      }
    } else {
      if (ms !== ms) continue;
      if (timeKey) {
        const q = Math.floor(ms / QUARTER);
        if (q !== qKey) {
          qKey = q;
          const k = timeKey(ms);
          if (k !== key) {
            key = k;
            row = undefined;
          }
        }
      } else if (ms - blockStart > BLOCK_MS || ms - last > BLOCK_MS) {
        // ccusage blocks: a block opens at the floored UTC hour of its first call and takes
        // calls up to 5 h after that, unless 5 h pass without one.
        blockStart = Math.floor(ms / HOUR) * HOUR;
        key = new Date(blockStart).toISOString();
        row = undefined;
      }
      last = ms;
      if (!row) {
        row = rows.get(key);
        if (!row) rows.set(key, (row = emptyRow(key)));
      }
    }
    addCall(row, p, i, cost);
    if (splitCodes) {
      const part = splitNames[splitCodes[i]];
      const s = ((row.split ??= {})[part] ??= { costUsd: 0, unpricedMessages: 0 });
      if (cost !== cost) s.unpricedMessages++;
      else s.costUsd += cost;
    }
  }
  const out = codeOf ? byCode.filter((r): r is UsageRow => !!r) : [...rows.values()];
  if (TIMED.has(by)) out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else out.sort((a, b) => b.costUsd - a.costUsd || (a.key < b.key ? -1 : 1));
  return { rows: out, total, priceSourceDate: p.table.sourceDate };
}

function addCall(row: UsageRow, p: UsageColumns, i: number, cost: number): void {
  row.input += p.input[i];
  row.output += p.output[i];
  row.cacheRead += p.cacheRead[i];
  row.cacheWrite += p.cacheWrite[i];
  row.messages++;
  if (cost !== cost) row.unpricedMessages++;
  else row.costUsd += cost;
}
