// The stored history read back without its files: every session the history index keeps in this
// browser (all trees ever dropped), its digest as a row for the history view, and its billed calls
// and search index for the dashboard and history search. Also clearing one root's sessions (a
// tree dropped from another machine) and nothing else. The history service (history.ts) calls
// them through a narrow port (KeptPort), so its own module stays within its budget.
import type { HistoryHead, HistoryStore } from '../../store/history-index.ts';
import { rootOf, rowOf, type HistoryRow } from '../../view/history/browse.ts';
import type { BilledCall, SessionDigest } from '../../view/history/types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;

/** Bodies are read this many at a time (one transaction each: a long read stays interruptible, and
 *  a report asked meanwhile waits for one chunk at most, ~30 ms). */
const BODY_CHUNK = 16;

/** Reads these sessions' bodies in chunks, handing each to `take`, as long as `current()` holds. */
export async function readBodies(store: Store, keys: readonly string[], current: () => boolean, take: (key: string, calls: BilledCall[], search: unknown) => void): Promise<void> {
  for (let i = 0; i < keys.length && current(); i += BODY_CHUNK) {
    const bodies = await store.bodies(keys.slice(i, i + BODY_CHUNK));
    if (!current()) return;
    for (const [k, b] of bodies) take(k, b.calls, b.search);
  }
}

/** What the history service hands over: its store (pending writes in), which sessions are the
 *  load's, its generation check, and how a stored session goes in or a root's go out. */
export interface KeptPort {
  db(): Promise<Store | null>;
  /** The load's sessions (listed or indexed): not taken from the store as extras. */
  own(): Set<string>;
  current(): () => boolean;
  add(head: HistoryHead<SessionDigest>): void;
  body(key: string, calls: BilledCall[], search: unknown): void;
  indexed(): SessionDigest[];
  forget(keys: string[]): void;
  /** The stored history's summary (history-summary.ts; null: none stands for the store). */
  summary(): Promise<{ rows: HistoryRow[]; stale: number } | null>;
  /** Writes the summary of what is stored, in the background (when none stands). */
  summarize(): void;
}

export class KeptHistory {
  #port: KeptPort;
  #opened: Promise<{ stale: number }> | null = null;
  /** Stored sessions taken in beside the load's (the service counts them as listed). */
  #extra = new Set<string>();

  constructor(port: KeptPort) {
    this.#port = port;
  }

  /** Stored sessions in the index beside the load's. */
  get extra(): number {
    return this.#extra.size;
  }

  /** A new load's sessions replace the index: the stored ones are taken in again on the next open. */
  reset(): void {
    this.#opened = null;
    this.#extra.clear();
  }

  /** Every stored session of every tree indexed in this browser joins the index beside the load's
   *  (none dropped: it is the index): digests, then calls and search indexes in chunks. Resolves
   *  with how many stored sessions an older Loupe wrote (rebuilt on the next drop of their tree). */
  openStored(): Promise<{ stale: number }> {
    const port = this.#port;
    if (this.#opened) return this.#opened;
    const current = port.current();
    return (this.#opened = port.db().then(async (store) => {
      const { heads, stale } = store ? await store.all() : { heads: [], stale: 0 };
      const own = port.own();
      const taken = heads.filter((h) => !own.has(h.key));
      for (const h of taken) if (current()) (this.#extra.add(h.key), port.add(h));
      if (store) await readBodies(store, taken.map((h) => h.key), current, (k, calls, search) => port.body(k, calls, search));
      // A store an older Loupe wrote has no summary: its calls are in memory now, so it is made here.
      if (current()) port.summarize();
      return { stale };
    }));
  }

  /** The stored search index texts of these sessions (history search reads them per query). */
  async texts(keys: string[]): Promise<Map<string, Uint8Array>> {
    const store = await this.#port.db();
    return store ? store.texts(keys) : new Map();
  }

  /** The history view's rows: what is indexed now, else what the store keeps (the start page):
   *  its summary's rows when one stands (one read), else every head. */
  async rows(): Promise<{ rows: HistoryRow[]; stale: number }> {
    const indexed = this.#port.indexed();
    if (indexed.length) return { rows: indexed.map(rowOf), stale: (await this.#opened)?.stale ?? 0 };
    const summary = await this.#port.summary();
    if (summary) return { rows: summary.rows, stale: summary.stale };
    const store = await this.#port.db();
    const { heads, stale } = store ? await store.all() : { heads: [], stale: 0 };
    return { rows: heads.map((h) => rowOf(h.digest)), stale };
  }

  /** Forgets one root's sessions, stored and indexed here, and nothing else; returns how many. */
  async clearRoot(root: string): Promise<number> {
    const store = await this.#port.db();
    const { heads } = store ? await store.all() : { heads: [] };
    const keys = new Set(heads.filter((h) => rootOf(h.digest.project) === root).map((h) => h.key));
    if (keys.size) await store?.remove([...keys]);
    for (const d of this.#port.indexed()) if (rootOf(d.project) === root) keys.add(d.key);
    for (const k of keys) this.#extra.delete(k);
    this.#port.forget([...keys]);
    if (keys.size) this.#port.summarize();
    return keys.size;
  }
}
