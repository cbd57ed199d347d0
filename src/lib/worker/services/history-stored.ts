// The stored history read back without its files: every session the history index keeps in this
// browser (all trees ever dropped), its digest as a row for the history view, and its billed calls
// and search index for the dashboard and history search: the calls first (the view and its
// dashboard wait for them: a few MB), the search indexes behind them (~15 % of the trees' bytes;
// a history search waits for them: searchLoaded). Also clearing one root's sessions (a
// tree dropped from another machine) and nothing else. The history service (history.ts) calls
// them through a narrow port (KeptPort), so its own module stays within its budget.
import type { HistoryHead, HistoryStore } from '../../store/history-index.ts';
import { rootOf, rowOf, type HistoryRow } from '../../view/history/browse.ts';
import type { BilledCall, SessionDigest } from '../../view/history/types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;

/** Bodies are read this many at a time (one transaction each: a long read stays interruptible). */
const BODY_CHUNK = 64;

/** Reads these sessions' bodies in chunks, handing each to `take`, as long as `current()` holds. */
export function readBodies(store: Store, keys: readonly string[], current: () => boolean, take: (key: string, calls: BilledCall[], search: unknown) => void): Promise<void> {
  return readChunks(keys, current, (chunk) => store.bodies(chunk), (k, b) => take(k, b.calls, b.search));
}

/** Reads `keys` a chunk at a time with `read`, handing each answer to `take`, while `current()` holds. */
async function readChunks<T>(keys: readonly string[], current: () => boolean, read: (chunk: string[]) => Promise<Map<string, T>>, take: (key: string, value: T) => void): Promise<void> {
  for (let i = 0; i < keys.length && current(); i += BODY_CHUNK) {
    const got = await read(keys.slice(i, i + BODY_CHUNK));
    if (!current()) return;
    for (const [k, v] of got) take(k, v);
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
  /** A stored session's calls (null: only its search index, the calls came before). */
  body(key: string, calls: BilledCall[] | null, search: unknown): void;
  indexed(): SessionDigest[];
  forget(keys: string[]): void;
}

export class KeptHistory {
  #port: KeptPort;
  #opened: Promise<{ stale: number }> | null = null;
  /** The heads and calls are being read (openStored in flight). */
  #reading = false;
  /** The stored search indexes read after the calls; null: none being read. */
  #searched: Promise<void> | null = null;
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
    this.#searched = null;
    this.#extra.clear();
  }

  /** Every stored session of every tree indexed in this browser joins the index beside the load's
   *  (none dropped: it is the index): digests and calls, then (not awaited: searchLoaded) the search
   *  indexes in chunks. Resolves with how many stored sessions an older Loupe wrote (rebuilt on the
   *  next drop of their tree). */
  openStored(): Promise<{ stale: number }> {
    const port = this.#port;
    if (this.#opened) return this.#opened;
    const current = port.current();
    this.#reading = true;
    return (this.#opened = port.db().then(async (store) => {
      const { heads, stale } = store ? await store.all() : { heads: [], stale: 0 };
      const own = port.own();
      const taken = heads.filter((h) => !own.has(h.key));
      for (const h of taken) if (current()) (this.#extra.add(h.key), port.add(h));
      const keys = taken.map((h) => h.key);
      if (store) await readChunks(keys, current, (chunk) => store.calls(chunk), (k, calls) => port.body(k, calls, undefined));
      if (store) {
        const searched = readChunks(keys, current, (chunk) => store.searches(chunk), (k, search) => port.body(k, null, search)).finally(() => {
          if (this.#searched === searched) this.#searched = null;
        });
        this.#searched = searched;
      }
      return { stale };
    }).finally(() => (this.#reading = false)));
  }

  /** Resolves once the stored search indexes being read are in (a history search waits for
   *  them); null when none are being read, so a search starts at once, in order. */
  searchLoaded(): Promise<void> | null {
    if (!this.#reading && !this.#searched) return null;
    return (this.#opened ?? Promise.resolve()).then(() => this.#searched ?? undefined);
  }

  /** The history view's rows: what is indexed now, else what the store keeps (the start page). */
  async rows(): Promise<{ rows: HistoryRow[]; stale: number }> {
    const indexed = this.#port.indexed();
    if (indexed.length) return { rows: indexed.map(rowOf), stale: (await this.#opened)?.stale ?? 0 };
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
    return keys.size;
  }
}
