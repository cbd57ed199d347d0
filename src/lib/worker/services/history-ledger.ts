// What the history index knows of the current tree, in memory: each indexed session's digest and
// call count (in the order indexed, which the page pages through), the billed calls (kept here as
// well as in the store: small beside the search index, so history usage reads them without a
// store read), the sessions that failed, and the usage pass's calls for sessions the index has
// not read yet. The history service (history.ts) runs the passes and owns the store; this owns
// the figures they add up to.
import type { HistoryResult } from '../../view/history/lane.ts';
import { UsagePass, type UsageProblem } from '../../view/history/usage-pass.ts';
import type { BilledCall, FileNotIndexed, HistoryEntry, HistoryFailure, SessionDigest } from '../../view/history/types.ts';
import { callPages, type HistorySource } from './history-sources.ts';

export type Indexed = { digest: SessionDigest; calls: number; bytes: number };

/** What the list needs of an indexed session. */
export type HistoryDigestRow = Pick<SessionDigest, 'key' | 'turns' | 'costUsd' | 'unpricedMessages' | 'project' | 'startedAt' | 'endedAt'>;

export class HistoryLedger {
  indexed = new Map<string, Indexed>();
  /** Bumped whenever the calls change (history usage prepares them once per revision). */
  revision = 0;
  /** Sessions in the order they were indexed. */
  order: string[] = [];
  memory = new Map<string, Pick<HistoryEntry, 'calls' | 'search'>>();
  /** Sessions whose calls in memory are the ones stored (written by this page, or read back): the
   *  stored history's summary takes those from here instead of reading their bodies. */
  asStored = new Set<string>();
  failed = new Map<string, HistoryFailure>();
  usage = new UsagePass();
  bytes = 0;
  read = 0;
  laneMs = 0;

  reset(): void {
    this.indexed = new Map();
    this.revision++;
    this.order = [];
    this.memory = new Map();
    this.asStored = new Set();
    this.failed = new Map();
    this.usage.reset();
    this.bytes = this.read = this.laneMs = 0;
  }

  add(key: string, x: Indexed): void {
    this.revision++;
    if (!this.indexed.has(key)) this.order.push(key);
    this.indexed.set(key, x);
  }

  /** A lane's answer for one session of the index; its entry when it was read. */
  took(source: HistorySource, r: HistoryResult): HistoryEntry | null {
    this.read++;
    this.laneMs += r.ms;
    if (!r.ok) {
      this.failed.set(source.key, { key: source.key, title: source.listed.title, reason: r.reason });
      return null;
    }
    if (!('entry' in r)) return null;
    this.put(source.key, r.entry);
    return r.entry;
  }

  /** A session's entry, from a lane or a followed session's rebuild. */
  put(key: string, entry: HistoryEntry): void {
    this.usage.indexed(key);
    this.memory.set(key, entry);
    this.asStored.delete(key); // a new entry (a lane's, a followed session's rebuild): not stored yet
    this.add(key, { digest: entry.digest, calls: entry.calls.length, bytes: 0 });
  }

  /** A batch of entries went to the store: their stored sizes count, and their search indexes
   *  leave memory (history search has them; the calls stay, small and read by every report). */
  stored(keys: readonly string[], sizes: ReadonlyMap<string, number>, bytes: number): void {
    this.bytes += bytes;
    for (const key of keys) {
      const m = this.memory.get(key);
      if (m) this.memory.set(key, { calls: m.calls });
      if (m) this.asStored.add(key);
      const x = this.indexed.get(key);
      if (x) x.bytes = sizes.get(key) ?? 0;
    }
  }

  /** A followed session's rebuilt entry, moved to the end of the order: the page pages digests
   *  from where it was, so it sees this one again. */
  putLast(key: string, entry: HistoryEntry): void {
    this.order = this.order.filter((k) => k !== key);
    this.put(key, entry);
  }

  remove(key: string): void {
    this.revision++;
    this.indexed.delete(key);
    this.memory.delete(key);
    this.asStored.delete(key);
    this.order = this.order.filter((k) => k !== key);
  }

  /** Calls known now: the index's, and the usage pass's for sessions it has not read. */
  calls(): number {
    return [...this.indexed.values()].reduce((n, x) => n + x.calls, 0) + this.usage.count;
  }

  /** Every one of `sources` has its calls known (indexed, priced by the usage pass, or failed). */
  usageReady(sources: readonly HistorySource[]): boolean {
    return sources.length > 0 && sources.every((s) => this.indexed.has(s.key) || this.usage.has(s.key) || this.failed.has(s.key));
  }

  digests(from: number): { next: number; rows: HistoryDigestRow[] } {
    const rows = this.order.slice(Math.max(0, from)).flatMap((k) => {
      const d = this.indexed.get(k)?.digest;
      return d ? [{ key: d.key, turns: d.turns, costUsd: d.costUsd, unpricedMessages: d.unpricedMessages, project: d.project, startedAt: d.startedAt, endedAt: d.endedAt }] : [];
    });
    return { next: this.order.length, rows };
  }

  failures(notIndexed: FileNotIndexed[]): { sessions: HistoryFailure[]; files: FileNotIndexed[]; usage: readonly UsageProblem[] } {
    const unread = this.usage.failures().filter((f) => !this.failed.has(f.key) && !this.indexed.has(f.key));
    return { sessions: [...this.failed.values(), ...unread], files: notIndexed, usage: this.usage.problems() };
  }

  /** Billed calls [from, to) over the indexed sessions in `keys` order (for exports). */
  async page(keys: readonly string[], from: number, to: number, stored: (keys: string[]) => Promise<Map<string, BilledCall[]>>): Promise<{ total: number; calls: BilledCall[] }> {
    const counts = keys.flatMap((k): [string, number][] => (this.indexed.has(k) ? [[k, this.indexed.get(k)!.calls]] : []));
    const { total, wanted } = callPages(counts, from, to);
    const bodies = await this.bodies(wanted.map((w) => w.key), stored);
    return { total, calls: wanted.flatMap((w) => (bodies.get(w.key) ?? []).slice(w.skip, w.take)) };
  }

  /** Every session's calls: the indexed ones', then the usage pass's for the rest. */
  async all(stored: (keys: string[]) => Promise<Map<string, BilledCall[]>>): Promise<BilledCall[]> {
    const keys = [...this.indexed.keys()];
    const bodies = await this.bodies(keys, stored);
    const early = [...this.usage.keys()].filter((k) => !this.indexed.has(k)).flatMap((k) => this.usage.calls(k) ?? []);
    return [...keys.flatMap((k) => bodies.get(k) ?? []), ...early];
  }

  /** A session's calls read back from the store, kept in memory (unless it has newer ones). */
  storedCalls(key: string, calls: BilledCall[]): void {
    if (this.memory.has(key)) return;
    this.memory.set(key, { calls });
    this.asStored.add(key);
  }

  /** Sessions' calls from memory, the rest from the store. */
  async bodies(keys: string[], stored: (keys: string[]) => Promise<Map<string, BilledCall[]>>): Promise<Map<string, BilledCall[]>> {
    const out = new Map(keys.flatMap((k): [string, BilledCall[]][] => (this.memory.has(k) ? [[k, this.memory.get(k)!.calls]] : [])));
    const rest = keys.filter((k) => !out.has(k));
    if (rest.length) for (const [k, calls] of await stored(rest)) out.set(k, calls);
    return out;
  }
}
