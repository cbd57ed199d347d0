// The stored history's summary on the worker's side (view/history/summary.ts): written once an
// index run's entries are stored, after a root is cleared, and after the stored history was read
// back without one (an older Loupe's store); read when the history view opens with no tree loaded,
// so its rows and usage reports come from one record. The store drops it whenever the entries
// change, so a summary read here always stands for exactly what is stored.
import type { HistoryStore } from '../../store/history-index.ts';
import { rowOf } from '../../view/history/browse.ts';
import { prepareCalls } from '../../view/history/reports.ts';
import { readSummary, summaryOf } from '../../view/history/summary.ts';
import type { BilledCall, SessionDigest } from '../../view/history/types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;
type Summary = NonNullable<ReturnType<typeof readSummary>>;

/** Bodies read at once when a session's calls are not in memory (one transaction each). */
const CHUNK = 64;

export class HistorySummaries {
  #db: () => Promise<Store | null>;
  #inMemory: (key: string) => BilledCall[] | undefined;
  /** The last summary read, by the store's rev (read again only when the entries changed). */
  #read: { rev: string; summary: Summary | null } | null = null;
  #writing: Promise<boolean> | null = null;
  /** A summary stands for the store as this page last changed it (`window.__loupe.history().summarized`). */
  fresh = false;

  /** `inMemory`: a session's calls when the service holds them (else its body is read). */
  constructor(db: () => Promise<Store | null>, inMemory: (key: string) => BilledCall[] | undefined) {
    this.#db = db;
    this.#inMemory = inMemory;
  }

  /** This page changed the entries: the summary no longer stands until written again. */
  changed(): void {
    this.fresh = false;
  }

  /** The summary of what is stored now (null: none, or the entries changed since it was made). */
  async read(): Promise<Summary | null> {
    const store = await this.#db();
    if (!store) return null;
    const rev = await store.rev();
    if (this.#read?.rev !== rev) this.#read = { rev, summary: readSummary(await store.summary()) };
    if (this.#read.summary) this.fresh = true;
    return this.#read.summary;
  }

  /** Writes the summary of every stored entry unless one stands; true when one stands after. One at a time. */
  write(): Promise<boolean> {
    const run = (this.#writing ?? Promise.resolve(true)).then(() => this.#write());
    this.#writing = run.catch(() => false);
    return run;
  }

  async #write(): Promise<boolean> {
    const store = await this.#db();
    if (!store) return false;
    if (await this.read()) return true;
    const rev = await store.rev();
    const { heads, stale } = await store.all();
    const calls: BilledCall[] = [];
    const unread: string[] = [];
    for (const h of heads) {
      const own = this.#inMemory(h.key);
      if (own) calls.push(...own);
      else unread.push(h.key);
    }
    for (let i = 0; i < unread.length; i += CHUNK) for (const b of (await store.bodies(unread.slice(i, i + CHUNK))).values()) calls.push(...b.calls);
    const ok = await store.putSummary(rev, summaryOf(heads.map((h) => rowOf(h.digest)), stale, prepareCalls(calls)));
    this.fresh = ok;
    return ok;
  }
}
