// History usage reports: the billed calls of the whole history (calls.ts, stored per session by
// the history index) deduplicated across sessions by identity, filtered, priced and summed by
// day / ISO week / month in a time zone, by session, 5-hour billing block, project, model or
// harness. The counting rule is ccusage's (calls.ts header, docs/usage-counting.md); prices
// come from the session usage's table (usage/prices.ts: dated prices, long-context tiers).
// Pure and synchronous: the worker runs it; ≤ 100 ms over ~300k calls (npm run bench).
import { PRICES, pricedCost, type PriceTable } from '../usage/prices.ts';
import type { Tokens } from '../usage/messages.ts';
import { pathBefore } from './calls.ts';
import type { BilledCall, UsageQuery, UsageReport, UsageRow } from './types.ts';
import { zone, type Zone } from './zone.ts';

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

const costs = new WeakMap<BilledCall, number | null>();

function tokensOf(c: BilledCall): Tokens {
  return { input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite5m + c.cacheWrite1h, cacheWrite5m: c.cacheWrite5m, cacheWrite1h: c.cacheWrite1h, webSearches: c.webSearches };
}

/** The call's cost in US dollars, null when its model has no price (cached per call object). */
export function costOf(c: BilledCall, table: PriceTable = PRICES): number | null {
  if (table === PRICES) {
    const hit = costs.get(c);
    if (hit !== undefined) return hit;
  }
  // An untimed call is priced at the table's latest prices.
  const cost = pricedCost(c.model, c.ms ?? Infinity, tokensOf(c), table);
  if (table === PRICES) costs.set(c, cost);
  return cost;
}

export const emptyRow = (key: string): UsageRow => ({ key, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0, messages: 0, unpricedMessages: 0 });

function add(row: UsageRow, c: BilledCall, cost: number | null): void {
  row.input += c.input;
  row.output += c.output;
  row.cacheRead += c.cacheRead;
  row.cacheWrite += c.cacheWrite5m + c.cacheWrite1h;
  row.messages++;
  if (cost === null) row.unpricedMessages++;
  else row.costUsd += cost;
}

const TIMED = new Set(['day', 'week', 'month', 'block']);

export interface ReportOptions {
  table?: PriceTable;
}

/** Keeps a call when the query's filters let it through. */
function filterOf(query: UsageQuery, z: Zone): (c: BilledCall) => boolean {
  const { since, until, project, harness, model } = query;
  const dated = !!(since || until);
  return (c) => {
    if (project !== undefined && c.project !== project) return false;
    if (harness !== undefined && c.harness !== harness) return false;
    if (model !== undefined && c.model !== model) return false;
    if (dated) {
      if (c.ms === null) return false;
      const d = z.day(c.ms);
      if (since && d < since) return false;
      if (until && d > until) return false;
    }
    return true;
  };
}

/**
 * The usage report of `calls` (any number of sessions' billed calls; copies across sessions
 * count once) for `query`. Rows: time keys ascending (untimed calls count in the total only),
 * other keys by cost, highest first. With `query.split`, each row also carries its cost by
 * model or project (the dashboard's stacked bars).
 */
export function usageReport(calls: Iterable<BilledCall>, query: UsageQuery, opts: ReportOptions = {}): UsageReport {
  const table = opts.table ?? PRICES;
  const z = zone(query.timezone ?? 'UTC');
  const keep = filterOf(query, z);
  const total = emptyRow('total');
  const rows = new Map<string, UsageRow>();
  const picked: BilledCall[] = [];
  for (const c of dedupeCalls(calls)) {
    if (!keep(c)) continue;
    picked.push(c);
  }
  const by = query.by;
  const split = query.split;
  const keyOf = keyFn(by, z);
  const blocks = by === 'block' ? blockStarts(picked) : null;
  for (const c of picked) {
    const cost = costOf(c, table);
    add(total, c, cost);
    const key = blocks ? (blocks.get(c) ?? null) : keyOf(c);
    if (key === null) continue;
    let row = rows.get(key);
    if (!row) {
      rows.set(key, (row = emptyRow(key)));
      if (split) row.split = {};
      if (by === 'session') {
        row.sessionKey = c.sessionKey;
        row.project = c.project;
      }
    }
    add(row, c, cost);
    if (split) {
      const part = split === 'model' ? c.model : c.project;
      const s = (row.split![part] ??= { costUsd: 0, unpricedMessages: 0 });
      if (cost === null) s.unpricedMessages++;
      else s.costUsd += cost;
    }
  }
  const out = [...rows.values()];
  if (TIMED.has(by)) out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  else out.sort((a, b) => b.costUsd - a.costUsd || (a.key < b.key ? -1 : 1));
  return { rows: out, total, priceSourceDate: table.sourceDate };
}

function keyFn(by: UsageQuery['by'], z: Zone): (c: BilledCall) => string | null {
  switch (by) {
    case 'day':
      return (c) => (c.ms === null ? null : z.day(c.ms));
    case 'week':
      return (c) => (c.ms === null ? null : z.week(c.ms));
    case 'month':
      return (c) => (c.ms === null ? null : z.month(c.ms));
    case 'session':
      return (c) => c.sessionId;
    case 'project':
      return (c) => c.project;
    case 'model':
      return (c) => c.model;
    case 'harness':
      return (c) => c.harness;
    default:
      return () => null;
  }
}

/**
 * ccusage's billing blocks: in time order, a call opens a block at its hour (UTC, floored) unless
 * it falls within 5 hours of the current block's start and within 5 hours of the previous call.
 * Returns each timed call's block start, ISO.
 */
export function blockStarts(calls: readonly BilledCall[]): Map<BilledCall, string> {
  const timed = calls.filter((c) => c.ms !== null).sort((a, b) => a.ms! - b.ms!);
  const out = new Map<BilledCall, string>();
  let start = -Infinity;
  let last = -Infinity;
  let key = '';
  for (const c of timed) {
    const ms = c.ms!;
    if (ms - start > BLOCK_MS || ms - last > BLOCK_MS) {
      start = Math.floor(ms / HOUR) * HOUR;
      key = new Date(start).toISOString();
    }
    last = ms;
    out.set(c, key);
  }
  return out;
}
