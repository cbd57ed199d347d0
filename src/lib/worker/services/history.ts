// The history service: the background index of the loaded tree. Fed by the catalog's listing or a
// full load's sessions (HistoryFeed), it reads every session not stored yet on the history lanes
// (view/history/queue.ts, lane.ts) in two passes: first their billed calls only (the usage pass:
// history usage is complete early; most of a big drop's calls were read by its scan already,
// view/history/file-pass.ts; a remote tree has none), then each whole entry (digest, calls, search index),
// kept in IndexedDB (store/history-index.ts) through history-writes.ts. A re-drop reads only
// sessions whose stored entry misses; an open or a search pauses it (the root's foreground);
// a followed folder's sessions update their entries (live). A failing store: in memory, partial.
import type { LoadedSession } from '../../ingest/types.ts';
import type { HistoryStore } from '../../store/history-index.ts';
import { entryOf } from '../../view/history/entry.ts';
import { HistoryQueue, type QueueGate, type QueueItem } from '../../view/history/queue.ts';
import { LocalHistoryLane, type HistoryLane, type HistoryResult } from '../../view/history/lane.ts';
import type { BilledCall, FileNotIndexed, HistoryStatus, SessionDigest } from '../../view/history/types.ts';
import type { FileCalls } from '../../view/history/file-pass.ts';
import { liveSources, sourceOfLive, sourcesOfListing, sourcesOfLoaded, type HistorySource, type LiveSource } from './history-sources.ts';
import { HistoryWrites } from './history-writes.ts';
import { KeptHistory, readBodies } from './history-stored.ts';
import { HistoryLedger, type HistoryDigestRow } from './history-ledger.ts';
import { HistorySummaries } from './history-summary.ts';
import type { Listing } from './types.ts';

type Store = HistoryStore<SessionDigest, BilledCall>;
export type HistoryStoreOpener = () => Promise<Store | null>;
export type { HistoryDigestRow };

/** What the root hands the service: the catalog's listing and the loaded (full load, followed) sessions. */
export interface HistoryFeed {
  listing: Pick<Listing, 'sessions' | 'listedFiles' | 'onChange'> & { unused(): FileNotIndexed[]; takeFileCalls?(paths: readonly string[]): FileCalls[] | null };
  loaded(): ReadonlyMap<string, { loaded: LoadedSession }>;
}

/** One run over the sessions not stored: its two passes, each started once. */
type Run = { generation: number; todo: HistorySource[]; bySource: Map<string, HistorySource>; queue: HistoryQueue | null; stopped: boolean; priced?: Promise<void>; indexed?: Promise<HistoryStatus> };
/** A session's job: its calls only (the usage pass), or its entry (given the calls the pass read). */
const jobOf = (s: HistorySource, usageOnly: boolean, calls?: BilledCall[]): QueueItem => ({ key: s.key, size: s.listed.bytes, job: () => ({ listed: s.listed, files: s.files(), usageOnly, calls }) });

export class HistoryService {
  #openStore: () => Promise<Store | null>;
  #store: Promise<Store | null> | null = null;
  #lanes: () => HistoryLane[];
  #queue: HistoryQueue | null = null;
  #generation = 0;
  #sources: HistorySource[] = [];
  #notIndexed: FileNotIndexed[] = [];
  #ledger = new HistoryLedger();
  /** This run's setup (its passes hang on it); a new listing or cancel() stops it (`#stop`). */
  #run: Promise<Run | null> | null = null;
  #active: Run | null = null;
  #writes: HistoryWrites;
  #startedAt = 0;
  #ms = 0;
  #started = false;
  /** The stored history's summary (history-summary.ts): a session's calls held here that are stored (no search index in memory). */
  readonly summaries = new HistorySummaries(() => this.#db(), (k) => (this.#ledger.asStored.has(k) ? this.#ledger.memory.get(k)?.calls : undefined));
  /** No tree dropped: the stored history read back as the index (history-stored.ts), and one root cleared. */
  readonly kept = new KeptHistory({
    db: () => this.#settledDb(),
    own: () => new Set([...this.#ledger.indexed.keys(), ...this.#sources.map((s) => s.key)]),
    current: () => this.#current(this.#generation),
    add: (h) => this.#ledger.add(h.key, { digest: h.digest, calls: h.calls, bytes: h.bytes }),
    body: (k, calls, search) => this.#body(k, calls, search),
    indexed: () => [...this.#ledger.indexed.values()].map((x) => x.digest),
    forget: (keys) => (this.#forget(keys), this.summaries.changed(), keys.forEach((k) => this.#onSearch(k, null))),
    summary: () => this.summaries.read(),
    summarize: () => void this.summaries.write()
  });

  #feed: HistoryFeed | null;
  #gate: QueueGate | null;
  #stale = true; // the feed changed (a new load, a replaced listing): the sources are taken again at start()
  #onSearch: (key: string, search: unknown) => void; // each session's search index, to history search (history-search.ts)

  constructor(opts: { store: () => Promise<Store | null>; lanes?: () => HistoryLane[]; feed?: HistoryFeed; foreground?: QueueGate; onSearch?: (key: string, search: unknown) => void }) {
    this.#openStore = opts.store;
    this.#onSearch = opts.onSearch ?? (() => undefined);
    this.#lanes = opts.lanes ?? (() => []);
    this.#feed = opts.feed ?? null;
    this.#gate = opts.foreground ?? null;
    this.#writes = new HistoryWrites(() => this.#db(), (keys, sizes, bytes) => (this.summaries.changed(), this.#ledger.stored(keys, sizes, bytes)));
    // A change stops the run and writes what it read; the same sessions again go on from there.
    this.#feed?.listing.onChange((change) => {
      this.#stop();
      this.#queue?.dispose();
      this.#queue = null;
      this.#writes.flush(this.#current(this.#generation));
      this.#started = false;
      this.#stale = true;
      // A dropped tree's usage pass starts at its listing; a remote one's waits for the page (network).
      if (change === 'listing') queueMicrotask(() => this.#fromFeed() ?? (this.#local() && void this.startUsage()));
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
    this.#stop();
    this.#queue?.cancel();
    this.#generation++;
    this.#sources = sources;
    this.#notIndexed = notIndexed;
    this.#ledger.reset();
    this.#writes.reset();
    this.#ms = 0;
    this.#started = false;
    this.kept.reset();
  }

  /** The usage pass alone, at once (the root starts it when a big drop is listed). */
  startUsage = (): Promise<void> => this.#setup().then((run) => (run ? this.#price(run) : undefined));

  /** The usage pass, then the index of every session not stored; resolves once all are indexed or failed. */
  async start(): Promise<HistoryStatus> {
    const run = await this.#setup();
    if (!run) return this.status();
    if (this.#local()) await this.#price(run);
    return (run.indexed ??= this.#index(run));
  }

  /** Local files (a remote tree's reads are requests: its usage comes with its index, read once). */
  #local = (): boolean => this.#sources[0]?.files()[0]?.blob instanceof Blob;

  /** This run's sessions to read, once: the stored ones taken from the store first. */
  #setup(): Promise<Run | null> {
    this.#fromFeed();
    if (!this.#run) {
      this.#started = true;
      this.#startedAt = performance.now();
      this.#run = this.#begin(this.#generation);
    }
    return this.#run;
  }

  async #begin(generation: number): Promise<Run | null> {
    const store = await this.#db();
    await this.#writes.settled(); // a stopped run's writes are in the store before its heads are read
    const heads = store ? await store.heads(new Map(this.#sources.map((s) => [s.key, s.sig]))) : new Map<string, never>();
    if (generation !== this.#generation) return null;
    const l = this.#ledger;
    for (const [key, h] of heads) l.add(key, { digest: h.digest, calls: h.calls, bytes: h.bytes });
    l.bytes = [...heads.values()].reduce((n, h) => n + h.bytes, 0);
    // Stored sessions' search indexes go to history search, their calls to memory, before the rest is read.
    if (store) await readBodies(store, [...heads.keys()], this.#current(generation), (k, calls, search) => this.#body(k, calls, search));
    // Read already (a stopped run of the same sessions, kept in memory or failed): not read again.
    const todo = this.#sources.filter((s) => !heads.has(s.key) && !l.indexed.has(s.key) && !l.failed.has(s.key));
    // Lanes (workers) only when there is something to read: a re-dropped tree starts none.
    const queue = todo.length ? (this.#queue ??= new HistoryQueue(this.#lanes(), () => new LocalHistoryLane(), this.#gate)) : null;
    l.usage.start(this.#startedAt);
    return (this.#active = { generation, todo, bySource: new Map(todo.map((s) => [s.key, s])), queue, stopped: false });
  }

  /** The run in flight stops between its passes; the next start() sets up again. */
  #stop(): void {
    if (this.#active) this.#active.stopped = true;
    this.#active = null;
    this.#run = null;
  }

  /** The usage pass: every unread session's calls. */
  #price(run: Run): Promise<void> {
    return (run.priced ??= (async () => {
      const usage = this.#ledger.usage;
      const took = (i: QueueItem, r: HistoryResult) => !run.stopped && (usage.took(i.key, run.bySource.get(i.key)!.listed.title, r), this.#ledger.revision++);
      // A session whose files the scan read whole is priced from those reads; the lanes read the rest.
      const listing = this.#feed?.listing;
      const read = listing?.takeFileCalls && ((paths: string[]) => listing.takeFileCalls!(paths));
      const rest = run.todo.filter((s) => !usage.has(s.key) && (run.stopped || !usage.fromFiles(s.key, s.listed, read)));
      this.#ledger.revision++;
      await run.queue?.run(rest.map((s) => jobOf(s, true)), took);
      if (!run.stopped) usage.finish(performance.now());
    })());
  }

  /** The index: every unread session's whole entry. */
  async #index(run: Run): Promise<HistoryStatus> {
    const { generation, queue } = run;
    if (!run.stopped) await queue?.run(run.todo.map((s) => jobOf(s, false, this.#ledger.usage.calls(s.key))), (i, r) => this.#took(generation, run.bySource.get(i.key)!, r));
    // Done (or cancelled): the lanes' workers go, so their heaps do not stay beside a search's.
    if (queue && generation === this.#generation && this.#queue === queue) {
      queue.dispose();
      this.#queue = null;
    }
    if (generation === this.#generation) {
      this.#writes.flush(this.#current(generation));
      await this.#writes.settled();
      await this.summaries.write(); // the view after a reload reads it (rows and usage in one record)
      this.#ms = performance.now() - this.#startedAt;
    }
    return this.status();
  }

  #took(generation: number, source: HistorySource, r: HistoryResult): void {
    if (generation !== this.#generation) return;
    const entry = this.#ledger.took(source, r);
    if (!entry) return;
    if (entry.search) this.#onSearch(source.key, entry.search);
    this.#writes.add(entry, source.sig, this.#current(generation));
  }

  #current = (generation: number) => () => generation === this.#generation;

  /** Stops indexing (the sessions not read yet stay unindexed; start() again goes on). */
  cancel(): void {
    this.#stop();
    this.#queue?.cancel();
    this.#started = false;
  }

  /** Bumped whenever the calls change (history usage prepares them once per revision). */
  get revision(): number { return this.#ledger.revision; }

  status(): HistoryStatus {
    const l = this.#ledger;
    const listed = this.#sources.length + this.kept.extra;
    const [indexed, failed] = [l.indexed.size, l.failed.size];
    const ms = this.#ms || (this.#started ? Math.round(performance.now() - this.#startedAt) : 0);
    return { listed, indexed, failed, calls: l.calls(), bytesStored: l.bytes, ms, ready: listed > 0 && indexed + failed === listed, usageReady: l.usageReady(this.#sources), usageMs: l.usage.ms, partial: this.#writes.partial, filesNotIndexed: this.#notIndexed.length + failed, read: l.read, laneMs: Math.round(l.laneMs), notice: this.#writes.notice, summarized: this.summaries.fresh };
  }

  /** Digests for the list, in the order indexed, from `from` on. */
  digests = (from: number): { next: number; rows: HistoryDigestRow[] } => this.#ledger.digests(from);
  digest = (key: string): SessionDigest | null => this.#ledger.indexed.get(key)?.digest ?? null;
  /** Sessions that could not be indexed, the files the index holds none of, calls whose usage is not a number. */
  failures = () => this.#ledger.failures(this.#notIndexed);
  /** Billed calls [from, to) over every indexed session, in list order (for exports). */
  calls = async (from: number, to: number): Promise<{ total: number; calls: BilledCall[] }> => {
    await this.#joined();
    return this.#ledger.page(this.#sources.length ? this.#sources.map((s) => s.key) : this.#ledger.order, from, to, this.#stored);
  };
  /** Every session's billed calls (history usage reports run over them). */
  allCalls = async (): Promise<BilledCall[]> => (await this.#joined(), this.#ledger.all(this.#stored));
  /** Nothing loaded: the stored history is the index, so it joins before its calls are read (an
   *  export from the history view can come before the join behind the dashboard). */
  #joined = async (): Promise<void> => void (this.#sources.length || (await this.kept.openStored()));
  /** No tree loaded: the stored history's usage columns from its summary (null: none stands). */
  storedColumns = async () => (this.#sources.length ? null : ((await this.summaries.read())?.usage ?? null));

  #stored = (keys: string[]) => this.#settledDb().then(async (s) => new Map(s ? [...(await s.bodies(keys))].map(([k, b]) => [k, b.calls]) : []));
  /** The store once the writes queued so far are in it. */
  #settledDb = () => this.#db().then(async (db) => (await this.#writes.settled(), db));

  /** A followed folder changed: its changed sessions' entries from their rebuilt models (kept in memory: their files still grow). */
  followed<T extends { changed: { key: string }[]; removed: string[] } | null>(out: T): T {
    this.#stale = false;
    if (out) this.live(liveSources(this.#feed?.loaded() ?? new Map(), out.changed.map((c) => c.key)), out.removed);
    return out;
  }

  live(changed: LiveSource[], removed: string[] = []): void {
    this.#forget(removed);
    for (const live of changed) {
      const { loaded, listed } = live;
      const entry = entryOf(loaded, { key: listed.key, project: listed.project, harness: listed.harness ?? 'claude-code' });
      if (!this.#sources.some((s) => s.key === listed.key)) this.#sources.push(sourceOfLive(live, entry.digest.harness));
      this.#ledger.putLast(listed.key, entry);
    }
    this.#started = true;
  }

  #body(key: string, calls: BilledCall[], search: unknown): void {
    if (search) this.#onSearch(key, search);
    this.#ledger.storedCalls(key, calls);
  }

  #forget(keys: readonly string[]): void {
    for (const key of keys) this.#ledger.remove(key);
    this.#sources = this.#sources.filter((s) => !keys.includes(s.key));
  }

  /** What the store holds over every tree indexed in this browser (the start page's line). */
  async stored(): Promise<{ sessions: number; bytes: number; partial: boolean }> {
    const store = await this.#db();
    return { ...(store ? await store.stats() : { sessions: 0, bytes: 0 }), partial: this.#writes.partial || !store };
  }

  /** Forgets the whole stored index (the start page's Clear); what this page indexed stays until reload. */
  async clear(): Promise<void> {
    await this.#writes.settled();
    await (await this.#db())?.clear();
    this.#ledger.bytes = 0;
    for (const x of this.#ledger.indexed.values()) x.bytes = 0;
  }
}
