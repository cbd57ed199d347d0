// The history service: the background history index of the loaded tree (issue 21). Fed by the
// catalog's listing or a full load's sessions (the root hands it a HistoryFeed: the catalog as
// `Listing`, the sessions service's loaded entries), it reads every listed session once on a pool
// of lanes (view/history/queue.ts over view/history/lane.ts, in search workers where they start:
// worker/history-lanes.ts), keeps each one's entry (digest, billed calls, search index) in its
// IndexedDB store (store/history-index.ts) and answers the page: status, digests for the list,
// failures, reports over the calls. A re-dropped tree reads only sessions whose stored entry
// misses (a changed file changes the listed key or the files' signature); a second load of the same
// sessions (catalog.onChange with an unchanged listing) goes on from what is indexed. An open or a search
// preempts it (the root's foreground: no session is handed to a lane while the page waits). A
// followed folder's rebuilt sessions (appended bytes only, ingest/live.ts) update their entries
// here (live). Writes go through history-writes.ts; a store that fails (full, blocked) leaves the index in memory,
// the figures marked partial.
import type { LoadedSession } from '../../ingest/types.ts';
import type { HistoryStore } from '../../store/history-index.ts';
import { entryOf } from '../../view/history/entry.ts';
import { HistoryQueue, type QueueGate, type QueueItem } from '../../view/history/queue.ts';
import { LocalHistoryLane, type HistoryLane, type HistoryResult } from '../../view/history/lane.ts';
import type { BilledCall, FileNotIndexed, HistoryEntry, HistoryFailure, HistoryStatus, SessionDigest } from '../../view/history/types.ts';
import { callPages, liveSources, sourcesOfListing, sourcesOfLoaded, type HistorySource, type LiveSource } from './history-sources.ts';
import { HistoryWrites } from './history-writes.ts';
import { bodiesOf, KeptHistory, readBodies } from './history-stored.ts';
import type { Listing } from './types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;
export type HistoryStoreOpener = () => Promise<Store | null>;

/** What the root hands the service: the catalog's listing and the loaded (full load, followed) sessions. */
export interface HistoryFeed {
  listing: Pick<Listing, 'sessions' | 'listedFiles' | 'onChange'> & { unused(): FileNotIndexed[] };
  loaded(): ReadonlyMap<string, { loaded: LoadedSession }>;
}

/** What the list needs of an indexed session. */
export type HistoryDigestRow = Pick<SessionDigest, 'key' | 'turns' | 'costUsd' | 'unpricedMessages' | 'project' | 'startedAt' | 'endedAt'>;

type Indexed = { digest: SessionDigest; calls: number; bytes: number };

export class HistoryService {
  #openStore: () => Promise<Store | null>;
  #store: Promise<Store | null> | null = null;
  #lanes: () => HistoryLane[];
  #queue: HistoryQueue | null = null;
  #generation = 0;
  #sources: HistorySource[] = [];
  #notIndexed: FileNotIndexed[] = [];
  #indexed = new Map<string, Indexed>();
  /** Bumped whenever the indexed calls change (history usage prepares them once per revision). */
  revision = 0;
  /** Sessions in the order they were indexed (the page pages the digests from where it was). */
  #order: string[] = [];
  /** Billed calls, kept here as well as in the store (small beside the search index, which goes
   *  once stored): history usage reads them at every revision without a store read (issue 22). */
  #memory = new Map<string, Pick<HistoryEntry, 'calls' | 'search'>>();
  #failed = new Map<string, HistoryFailure>();
  #writes: HistoryWrites;
  #bytes = 0;
  #read = 0;
  #laneMs = 0;
  #startedAt = 0;
  #ms = 0;
  #started = false;
  /** No tree dropped: the stored history read back as the index (history-stored.ts), and one root cleared. */
  readonly kept = new KeptHistory({
    db: () => this.#db().then(async (db) => (await this.#writes.settled(), db)),
    own: () => new Set([...this.#indexed.keys(), ...this.#sources.map((s) => s.key)]),
    current: () => this.#current(this.#generation),
    add: (h) => this.#add(h.key, { digest: h.digest, calls: h.calls, bytes: h.bytes }),
    body: (k, calls, search) => this.#body(k, calls, search),
    indexed: () => [...this.#indexed.values()].map((x) => x.digest),
    forget: (keys) => (this.#forget(keys), keys.forEach((k) => this.#onSearch(k, null)))
  });

  #feed: HistoryFeed | null;
  #gate: QueueGate | null;
  /** The feed changed (a new load, a replaced listing): the sources are taken again at start(). */
  #stale = true;
  #onSearch: (key: string, search: unknown) => void; // each session's search index, to history search (history-search.ts)

  constructor(opts: { store: () => Promise<Store | null>; lanes?: () => HistoryLane[]; feed?: HistoryFeed; foreground?: QueueGate; onSearch?: (key: string, search: unknown) => void }) {
    this.#openStore = opts.store;
    this.#onSearch = opts.onSearch ?? (() => undefined);
    this.#lanes = opts.lanes ?? (() => []);
    this.#feed = opts.feed ?? null;
    this.#gate = opts.foreground ?? null;
    this.#writes = new HistoryWrites(() => this.#db(), (keys, sizes, bytes) => {
      this.#bytes += bytes;
      for (const key of keys) {
        const m = this.#memory.get(key);
        if (m) this.#memory.set(key, { calls: m.calls });
        const x = this.#indexed.get(key);
        if (x) x.bytes = sizes.get(key) ?? 0;
      }
    });
    // A change stops the run and writes what it read; the next start() compares the feed's sessions
    // with these: the same ones (a second load of the same drop) go on from what is indexed.
    this.#feed?.listing.onChange(() => {
      this.#queue?.dispose();
      this.#queue = null;
      this.#writes.flush(this.#current(this.#generation));
      this.#started = false;
      this.#stale = true;
    });
  }

  /** The feed's sessions now: the listing of a big drop, else the loaded sessions. */
  #fromFeed(): void {
    const feed = this.#feed;
    if (!feed || !this.#stale) return;
    this.#stale = false;
    const listed = feed.listing.sessions();
    const next = listed.length ? sourcesOfListing(listed, (s) => feed.listing.listedFiles(s)) : sourcesOfLoaded([...feed.loaded().values()].map((e) => e.loaded));
    const same = next.length > 0 && next.length === this.#sources.length && next.every((s, i) => s.key === this.#sources[i].key && s.sig === this.#sources[i].sig);
    // The same sessions: the fresh handles replace the old, and what is indexed stays.
    if (same) this.#sources = next;
    else this.setSources(next, listed.length ? feed.listing.unused() : []);
  }

  #db(): Promise<Store | null> {
    this.#store ??= this.#openStore().catch(() => null);
    return this.#store;
  }

  /** A new load's listing replaces the index's work (nothing is read until start()). */
  setSources(sources: HistorySource[], notIndexed: FileNotIndexed[] = []): void {
    this.#queue?.cancel();
    this.#generation++;
    this.#sources = sources;
    this.#notIndexed = notIndexed;
    this.#indexed = new Map();
    this.revision++;
    this.#order = [];
    this.#memory = new Map();
    this.#failed = new Map();
    this.#writes.reset();
    this.#bytes = 0;
    this.#read = this.#laneMs = 0;
    this.#ms = 0;
    this.#started = false;
    this.kept.reset();
  }

  /** Indexes every listed session not already stored; resolves once all are indexed or failed. */
  async start(): Promise<HistoryStatus> {
    this.#fromFeed();
    if (this.#started) return this.status();
    this.#started = true;
    const generation = this.#generation;
    this.#startedAt = performance.now();
    const store = await this.#db();
    await this.#writes.settled(); // a stopped run's writes are in the store before its heads are read
    const heads = store ? await store.heads(new Map(this.#sources.map((s) => [s.key, s.sig]))) : new Map<string, never>();
    if (generation !== this.#generation) return this.status();
    for (const [key, h] of heads) this.#add(key, { digest: h.digest, calls: h.calls, bytes: h.bytes });
    this.#bytes = [...heads.values()].reduce((n, h) => n + h.bytes, 0);
    // Stored sessions' search indexes go to history search, their calls to memory (read in chunks, before the rest is read).
    if (store) await readBodies(store, [...heads.keys()], this.#current(generation), (k, calls, search) => this.#body(k, calls, search));
    // Read already (a stopped run of the same sessions, kept in memory or failed): not read again.
    const todo = this.#sources.filter((s) => !heads.has(s.key) && !this.#indexed.has(s.key) && !this.#failed.has(s.key));
    const bySource = new Map(todo.map((s) => [s.key, s]));
    const items: QueueItem[] = todo.map((s) => ({ key: s.key, size: s.listed.bytes, job: () => ({ listed: s.listed, files: s.files() }) }));
    // Lanes (workers) only when there is something to read: a re-dropped tree starts none.
    const queue = items.length ? (this.#queue ??= new HistoryQueue(this.#lanes(), () => new LocalHistoryLane(), this.#gate)) : null;
    await queue?.run(items, (item, r) => this.#took(generation, bySource.get(item.key)!, r));
    // Done (or cancelled): the lanes' workers go, so their heaps do not stay beside a search's.
    if (queue && generation === this.#generation && this.#queue === queue) {
      queue.dispose();
      this.#queue = null;
    }
    if (generation === this.#generation) {
      this.#writes.flush(this.#current(generation));
      await this.#writes.settled();
      this.#ms = performance.now() - this.#startedAt;
    }
    return this.status();
  }

  #took(generation: number, source: HistorySource, r: HistoryResult): void {
    if (generation !== this.#generation) return;
    this.#read++;
    this.#laneMs += r.ms;
    if (!r.ok) {
      this.#failed.set(source.key, { key: source.key, title: source.listed.title, reason: r.reason });
      return;
    }
    this.#add(source.key, { digest: r.entry.digest, calls: r.entry.calls.length, bytes: 0 });
    this.#memory.set(source.key, r.entry);
    if (r.entry.search) this.#onSearch(source.key, r.entry.search);
    this.#writes.add(r.entry, source.sig, this.#current(generation));
  }

  #current = (generation: number) => () => generation === this.#generation;

  #add(key: string, x: Indexed): void {
    this.revision++;
    if (!this.#indexed.has(key)) this.#order.push(key);
    this.#indexed.set(key, x);
  }

  /** Stops indexing (the sessions not read yet stay unindexed; start() again goes on). */
  cancel(): void {
    this.#queue?.cancel();
    this.#started = false;
  }

  status(): HistoryStatus {
    const calls = [...this.#indexed.values()].reduce((n, x) => n + x.calls, 0);
    const listed = this.#sources.length + this.kept.extra;
    const indexed = this.#indexed.size;
    const failed = this.#failed.size;
    return { listed, indexed, failed, calls, bytesStored: this.#bytes, ms: this.#ms || (this.#started ? Math.round(performance.now() - this.#startedAt) : 0), ready: listed > 0 && indexed + failed === listed, partial: this.#writes.partial, filesNotIndexed: this.#notIndexed.length + failed, read: this.#read, laneMs: Math.round(this.#laneMs), notice: this.#writes.notice };
  }

  /** Digests for the list, in the order indexed, from `from` on. */
  digests(from: number): { next: number; rows: HistoryDigestRow[] } {
    const rows = this.#order.slice(Math.max(0, from)).flatMap((k) => {
      const d = this.#indexed.get(k)?.digest;
      return d ? [{ key: d.key, turns: d.turns, costUsd: d.costUsd, unpricedMessages: d.unpricedMessages, project: d.project, startedAt: d.startedAt, endedAt: d.endedAt }] : [];
    });
    return { next: this.#order.length, rows };
  }

  digest = (key: string): SessionDigest | null => this.#indexed.get(key)?.digest ?? null;

  /** Sessions that could not be indexed, and the files the index holds none of, each with its reason. */
  failures(): { sessions: HistoryFailure[]; files: FileNotIndexed[] } {
    return { sessions: [...this.#failed.values()], files: this.#notIndexed };
  }

  /** Billed calls [from, to) over every indexed session, in list order (for exports). */
  async calls(from: number, to: number): Promise<{ total: number; calls: BilledCall[] }> {
    const order = this.#sources.length ? this.#sources.map((s) => s.key) : this.#order;
    const counts = order.flatMap((k): [string, number][] => (this.#indexed.has(k) ? [[k, this.#indexed.get(k)!.calls]] : []));
    const { total, wanted } = callPages(counts, from, to);
    const stored = await this.#bodies(wanted.map((w) => w.key));
    const calls = wanted.flatMap((w) => (stored.get(w.key) ?? []).slice(w.skip, w.take));
    return { total, calls };
  }

  /** Every indexed session's billed calls (history usage reports run over them). */
  async allCalls(): Promise<BilledCall[]> {
    const keys = [...this.#indexed.keys()];
    const bodies = await this.#bodies(keys);
    return keys.flatMap((k) => bodies.get(k) ?? []);
  }

  #bodies = (keys: string[]) => bodiesOf(keys, (k) => this.#memory.get(k)?.calls, async () => (await this.#writes.settled(), this.#db()));

  /** A followed folder changed: its changed sessions' entries from their rebuilt models (kept in memory: their files still grow). */
  followed<T extends { changed: { key: string }[]; removed: string[] } | null>(out: T): T {
    this.#stale = false;
    if (out) this.live(liveSources(this.#feed?.loaded() ?? new Map(), out.changed.map((c) => c.key)), out.removed);
    return out;
  }

  live(changed: LiveSource[], removed: string[] = []): void {
    this.#forget(removed);
    for (const { loaded, listed } of changed) {
      const entry = entryOf(loaded, { key: listed.key, project: listed.project, harness: listed.harness ?? 'claude-code' });
      if (!this.#sources.some((s) => s.key === listed.key)) {
        this.#sources.push({ key: listed.key, listed: { key: listed.key, id: listed.key, project: listed.project, harness: entry.digest.harness, files: [], bytes: loaded.bytes, title: loaded.title }, sig: '', files: () => [] });
      }
      this.#memory.set(listed.key, entry);
      // Moved to the end of the order: the page pages digests from where it was, so it sees this one again.
      this.#order = this.#order.filter((k) => k !== listed.key);
      this.#add(listed.key, { digest: entry.digest, calls: entry.calls.length, bytes: 0 });
    }
    this.#started = true;
  }

  #body(key: string, calls: BilledCall[], search: unknown): void {
    if (search) this.#onSearch(key, search);
    if (!this.#memory.has(key)) this.#memory.set(key, { calls });
  }

  #forget(keys: readonly string[]): void {
    if (!keys.length) return;
    const gone = new Set(keys);
    this.revision++;
    for (const key of keys) (this.#indexed.delete(key), this.#memory.delete(key));
    this.#order = this.#order.filter((k) => !gone.has(k));
    this.#sources = this.#sources.filter((s) => !gone.has(s.key));
  }

  /** What the store holds over every tree indexed in this browser (the start page's line). */
  async stored(): Promise<{ sessions: number; bytes: number; partial: boolean }> {
    const store = await this.#db();
    const s = store ? await store.stats() : { sessions: 0, bytes: 0 };
    return { ...s, partial: this.#writes.partial || !store };
  }

  /** Forgets the whole stored index (the start page's Clear); what this page indexed stays until reload. */
  async clear(): Promise<void> {
    await this.#writes.settled();
    await (await this.#db())?.clear();
    this.#bytes = 0;
    for (const x of this.#indexed.values()) x.bytes = 0;
  }
}
