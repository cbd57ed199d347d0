// The viewer's load funnel and open-session state. Every source (drop, picker, paste, ?src=,
// cache, sample, share link) goes through load(), which alone owns the loading / progress /
// error state and mirrors it on html[data-state]. Each load gets a generation number; results
// of a superseded load are dropped (the engine also aborts its reading). A load that yields no
// session keeps whatever was open before and says why.
// Over 400 lines and kept whole: the load funnel's steps share one generation and one state
// machine, and read in the order a load runs them.
import type { ClassifiedFile } from '../ingest/types.ts';
import { unreadableEntry } from '../ingest/classified.ts';
import type { Issue } from '../model/index.ts';
import type { CachedMeta, SessionCache } from '../store/session-cache.ts';
import { openCache } from '../store/session-cache.ts';
import type { ChatRow, FollowOutcome, InputFile, ListEntry, ListSnapshot, LoadProgress, RowIndexEntry, SessionSummary, TimelineLayout } from '../worker/protocol.ts';
import { keysAfter, projectsOf } from '../view/sessions/list.ts';
import { normPath } from '../ingest/paths.ts';
import type { StoredScan } from '../ingest/scan.ts';
import { folderOf, openScanIndex, type ScanIndex } from '../store/scan-index.ts';
import { engineClient, proxied, type EngineApi } from './engine-client.ts';
import { LoadError, resolveCached, resolveSource, type LoadSource } from './sources.ts';
import { takeEarlyLoad } from './early-load.ts';
import type { FirstScreen } from '../worker/links.ts';
import { canHash, hashBlob, sessionContentHash } from '../store/content-hash.ts';
import { hashOffThread } from './hash-client.ts';
import type { WriteStats } from '../store/row-index.ts';
import { pickDirectory, type DirHandle } from './drop.ts';
import { Throttle } from './throttle.ts';
import { macrotask, stageInSlices } from './stage.ts';
import { fetchChatIndex } from './chat-index.ts';
import { warmMarkdown } from './markdown-client.ts';
import { holdIdleWork, hurryIdleWork, whenIdle } from './idle-work.ts';

/** Drops of more files than this hand their File handles over ahead of the load (state/stage.ts). */
const STAGE_MIN_FILES = 20;
/** Drops of more files than this look up their head/tail scans in the scan index (a listed drop,
 *  at least 25 sessions, has more); every listed (scanned) drop stores them. */
const INDEX_MIN_FILES = 40;
/** Stored scans per message when they are fetched from the worker to be kept: each page is
 *  fetched in an idle period of its own. 500 a message, receiving one was a 55 ms task after the
 *  1 GB tree's ready. */
const RECORDS_PAGE = 100;

export type ViewState = 'empty' | 'loading' | 'ready' | 'error';

/** Least time between two timeline redraws while following a folder. */
const LIVE_TIMELINE_MS = 3000;

/** Rows above which a session's first index is shown a task after it arrives (#show). */
const SHOW_APART_ROWS = 2_000;
/** A drop this small (files, bytes) has its files hashed for the cache while it parses. */
const PREHASH_MAX_FILES = 24;
const PREHASH_MAX_BYTES = 512 * 1024 * 1024;

/** Sessions after the open one that a scanned drop builds ahead, at idle. */
const PREFETCH_AHEAD = 2;
/** Loads of at least this many bytes start the Markdown worker while they parse (markdown-client.ts),
 *  and, when they are one session's files, hold idle work until they are done (idle-work.ts). */
const WARM_MARKDOWN_BYTES = 8 * 1024 * 1024;
/** The longest a held load's first frame waits for the idle work it held: the font warm-up's rest
 *  (~190 steps of one lookup, each well under a ms once the parse no longer holds the cores) and
 *  DOMPurify's preload (components/markdown/render.ts). */
const HURRY_MAX_MS = 500;

export class Viewer {
  /** Mirrors html[data-state]: the automation contract's one signal of what the page is doing. */
  state = $state<ViewState>('empty');
  /** Latest progress of the load in flight. */
  progress = $state.raw<LoadProgress | null>(null);
  /** One sentence saying why the last load failed (the previous session stays open). */
  error = $state<string | null>(null);
  /** Built sessions of the current load, newest first (all of a small drop; the opened ones of a big one). */
  sessions = $state.raw<SessionSummary[]>([]);
  /** Every listed session of the current load (streams in while a big drop is scanned). */
  list = $state.raw<ListEntry[]>([]);
  /** The list as the person sees it (the page wires SessionBrowser.visible: project, sort, filters);
   *  what is built ahead after an open follows it. */
  shownOrder: () => readonly Pick<ListEntry, 'key'>[] = () => this.list;
  /** The load was big: sessions are built when opened. */
  scanned = $state(false);
  /** Files found so far while a dropped or picked folder is walked, before its load starts (null otherwise). */
  walked = $state<number | null>(null);
  /** Files scanned so far of the load in flight (big drops). */
  scanProgress = $state.raw<{ done: number; total: number } | null>(null);
  /** Files whose scan the last big drop kept in the scan index (0 until kept). */
  scansKept = $state(0);
  /** A session being built on open, for the page to say so. */
  opening = $state<string | null>(null);
  /** Files of the current load that are not part of any session, with the reason. */
  unknown = $state.raw<ClassifiedFile[]>([]);
  /** Load-level issues (files that could not be read, …). */
  loadIssues = $state.raw<Issue[]>([]);
  /** The session the chat shows. */
  currentKey = $state<string | null>(null);
  /** Row index of the open session's chat. */
  chatIndex = $state.raw<RowIndexEntry[]>([]);
  /** Timeline layout of every loaded session. */
  timeline = $state.raw<TimelineLayout | null>(null);
  /** Cached sessions for the start page, most recently opened first. */
  recent = $state.raw<CachedMeta[]>([]);
  /** One line when caching is off or partial. */
  cacheNotice = $state<string | null>(null);
  /** Wall time of the last successful load, ms. */
  loadMs = $state(0);
  /** Where the open session came from (share links reuse a ?src= URL). */
  source = $state.raw<LoadSource | null>(null);
  /** Files of the open load, kept for share links and the cache. */
  files = $state.raw<{ path: string; blob: Blob }[]>([]);

  /** One line each about how a remote tree was read (a file that failed, no Range support, a cap). */
  notes = $state.raw<string[]>([]);
  /** The host of a remote tree being listed and scanned (null otherwise): the page offers Cancel. */
  remote = $state<string | null>(null);

  /** The last load was a cached session shown from its persisted row index (its model rebuilt behind). */
  restored = $state(false);
  /** The last row index the worker persisted (null until one is written). */
  indexWrite = $state.raw<(WriteStats & { key: string }) | null>(null);

  /** Leading rows of `chatIndex` unchanged since the chat last fetched them (following a folder). */
  chatKeep = $state(0);

  current = $derived(this.sessions.find((s) => s.key === this.currentKey) ?? null);
  projects = $derived(projectsOf(this.list));

  #generation = 0;
  /** Files or folders of the folder being loaded that could not be read (listed with the files not opened). */
  #unreadable: ClassifiedFile[] = [];
  #pick = 0;
  #scanIndex: Promise<ScanIndex<StoredScan> | null> | null = null;
  #cache: Promise<SessionCache | null> | null = null;
  #base: string;
  /** A link's first screen, sent with its load (early-load.ts): the opened chat's index, taken by
   *  #show, and its first rows, taken once by `rows`. */
  #primed: FirstScreen | null = null;

  constructor(base = '') {
    this.#base = base;
    // Cached files are hashed in a worker, not in the page's tasks (hash-client.ts).
    hashOffThread();
  }

  /** Loads a source, superseding any load in flight. Resolves when it is shown or has failed. */
  async load(source: LoadSource): Promise<void> {
    let generation = ++this.#generation;
    // A linked sample or share link may be loading already (early-load.ts: started before the mount).
    const taken = takeEarlyLoad(source, generation);
    if (taken === 'replaced') generation = ++this.#generation;
    const early = taken === 'replaced' ? null : taken;
    const current = () => generation === this.#generation;
    this.#setState('loading');
    this.#primed = null;
    this.progress = null;
    this.error = null;
    this.walked = null;
    this.notes = [];
    this.remote = null;
    this.#unreadable = [];
    const started = performance.now();
    let release: (() => void) | null = null;
    try {
      // Only a cached source waits for IndexedDB; everything else loads without it.
      const cache = source.kind === 'cached' ? await this.#openCache() : null;
      const cached = source.kind === 'cached' ? await resolveCached(cache, source.key) : null;
      // A folder, bucket, repository or manifest address is listed and read in the worker
      // (worker/remote/); one file's address is fetched here as before.
      // The address rules load with an address only: a share link's boot does not carry them.
      const remote = source.kind === 'url' && !early && (await import('../ingest/remote/address.ts')).classifyAddress(source.url, location.href).kind !== 'file' ? new URL(source.url, location.href).href : null;
      const files = remote ? [] : early ? await early.files : cached ? cached.files : source.kind === 'folder' ? await this.#walk(source, current) : await resolveSource(source, cache, this.#base);
      // A cached session may have a persisted row index: it is keyed by its files' content.
      const contentHash = cached ? await sessionContentHash(cached.meta.files).catch(() => null) : null;
      if (!current()) return;
      // Parsing this takes a while: the chat's Markdown worker boots meanwhile, not beside its first frame.
      const bytes = files.reduce((n, f) => n + f.blob.size, 0);
      if (!early && bytes >= WARM_MARKDOWN_BYTES) {
        warmMarkdown();
        // And idle work that asks the browser for something waits for a big session's parse
        // (idle-work.ts). Not for a big drop's (staged below): that lists from a scan first, its
        // lists are drawn meanwhile, and the warm-up's steps during it were short.
        if (files.length <= STAGE_MIN_FILES) release = holdIdleWork();
      }
      // A small drop is cached before it says ready: its files' hashes are taken while it parses.
      // (Not a link's early load: parsed already, it has nothing to overlap the hashing with.)
      if (!early && !cached && files.length <= PREHASH_MAX_FILES && bytes <= PREHASH_MAX_BYTES && canHash()) {
        for (const f of files) void hashBlob(f.blob).catch(() => undefined);
      }
      const { api, inWorker } = await engineClient();
      const onProgress = proxied((p: LoadProgress) => {
        if (current()) this.progress = p;
      }, inWorker);
      // A scan's listing is applied a task after its message arrives: reading a snapshot of 1,500
      // entries and drawing the list from it were one 51–61 ms task during a 1 GB drop's scan
      // (--case projects --profile). A snapshot arriving meanwhile replaces the waiting one
      // (throttle.ts); the load's outcome drops it (the final list is the outcome's).
      const listing = new Throttle(0);
      const onList = proxied((snap: ListSnapshot) => {
        if (!current()) return;
        listing.request(() => {
          if (!current()) return;
          this.list = snap.entries;
          this.scanProgress = { done: snap.filesDone, total: snap.filesTotal };
        });
      }, inWorker);
      // A big drop's File handles go over in batches (each postMessage a short task), then load.
      // With them go the earlier scans of the same files, so those files are not read again.
      let staged = false;
      const remoteFiles = remote ? await this.#listRemote(api, inWorker, generation, remote, current) : 0;
      if (remote && !current()) return;
      if (!early && inWorker && files.length > STAGE_MIN_FILES) {
        const known = files.length > INDEX_MIN_FILES ? await this.#knownScans(files) : new Map<string, StoredScan>();
        if (!current()) return;
        // In short tasks, not one round trip per batch (state/stage.ts).
        if (!(await stageInSlices(files, { touch: (f) => f.blob.size, post: (batch) => api.stage(generation, batch, batch.flatMap((f) => known.get(normPath(f.path)) ?? [])), current }))) return;
        staged = true;
      }
      const outcome = early
        ? await early.outcome
        : remote
          ? await this.#loadRemote(api, generation, onProgress, onList, current)
          : cached && contentHash
          ? await api.loadPersisted(generation, { key: cached.meta.key, contentHash, files }, onProgress, onList)
          : await api.load(generation, staged ? { files: [], staged } : { files }, onProgress, onList);
      listing.cancel();
      // Parsed: what the hold kept back is done now, before the first frame would do it (idle-work.ts).
      if (release) {
        release();
        release = null;
        await hurryIdleWork(HURRY_MAX_MS);
      }
      if (!current()) return;
      this.scanProgress = null;
      this.walked = null;
      this.remote = null;
      if (!outcome.ok) throw new LoadError(outcome.message);
      if (!outcome.sessions.length) throw new LoadError(noSessionMessage(outcome.unknown, remote ? remoteFiles : files.length));
      this.sessions = outcome.sessions;
      this.list = outcome.list;
      this.scanned = outcome.scanned;
      this.unknown = this.#unreadable.length ? [...this.#unreadable, ...outcome.unknown] : outcome.unknown;
      this.loadIssues = outcome.issues;
      this.source = source;
      this.files = files;
      const shown = outcome.sessions[0].key;
      // A parsed-whole load is in "Recent sessions" (record and files committed) before it says
      // ready, so a reload right after ready finds it; it is stored while the chat is fetched.
      // A big drop's ready stays fast: its opened session is cached after.
      const durable = source.kind !== 'cached' && !outcome.scanned;
      const first = durable ? outcome.sessions.filter((x) => x.key === shown) : [];
      if (early) {
        // A link's first screen comes with its load; it is drawn before the session is stored
        // (hashing and IndexedDB writes took turns with its first rows).
        this.#primed = await early.first;
        await this.#show(api, shown, true);
        if (first.length && current()) await this.#cacheSessions(first, files);
      } else await Promise.all([this.#show(api, shown, true), first.length ? this.#cacheSessions(first, files) : null]);
      if (!current()) return;
      this.loadMs = performance.now() - started;
      this.restored = !!outcome.restored;
      this.#setState('ready');
      // Storing the rest (other sessions, the shown one's row index) is idle work: at ready it
      // took turns on the cores with the first chat frames (a 100 MB load).
      if (source.kind !== 'cached') {
        const rest = outcome.sessions.filter((x) => !first.includes(x));
        whenIdle(() => void this.#remember(rest, files, shown));
      }
      else if (!outcome.restored) void this.#persistIndex(outcome.sessions[0].key);
      if (outcome.scanned) {
        void this.#rememberScans(api, generation);
        this.#prefetchAfter(api, outcome.sessions[0].key);
      }
      else void this.refreshRecent();
    } catch (e) {
      if (!current()) return;
      this.scanProgress = null;
      this.walked = null;
      this.remote = null;
      if (!this.currentKey) this.list = [];
      this.error = e instanceof LoadError ? e.message : `Loupe could not open this: ${e instanceof Error ? e.message : String(e)}`;
      this.#setState('error');
    } finally {
      release?.();
    }
  }

  /** Lists a remote tree in the worker (its count shows as a walked folder's does) and stages the
   *  earlier scans of its files, as a big drop's are: a second visit reads only what changed. */
  async #listRemote(api: EngineApi, inWorker: boolean, generation: number, url: string, current: () => boolean): Promise<number> {
    this.remote = new URL(url).host;
    this.walked = 0;
    const listed = await api.remoteList(generation, url, proxied((n: number) => void (current() && (this.walked = n)), inWorker));
    if (!current()) return 0;
    if (!listed.ok) throw new LoadError(listed.message);
    this.notes = listed.notes;
    this.walked = listed.files.length;
    const known = await this.#knownScans(listed.files);
    if (current()) await api.stage(generation, [], listed.files.flatMap((f) => known.get(normPath(f.path)) ?? []));
    return listed.files.length;
  }

  async #loadRemote(api: EngineApi, generation: number, onProgress: (p: LoadProgress) => void, onList: (s: ListSnapshot) => void, current: () => boolean) {
    const { outcome, notes } = await api.remoteLoad(generation, onProgress, onList);
    if (current()) this.notes = notes;
    return outcome;
  }

  /** Stops reading a remote tree: its requests are aborted and the load says so. */
  async cancelRemote(): Promise<void> {
    if (!this.remote) return;
    this.#generation++;
    this.remote = null;
    this.walked = null;
    this.scanProgress = null;
    const { api } = await engineClient();
    await api.remoteCancel();
    this.error = 'Reading the address was cancelled.';
    this.#setState(this.currentKey ? 'ready' : 'error');
  }

  /** "Open folder" where the browser has a folder picker (drop.ts): the handle, or null when cancelled or refused (said). */
  async pickFolder(): Promise<DirHandle | null> {
    try {
      return await pickDirectory('loupe-open');
    } catch (e) {
      this.error = `Could not open that folder: ${e instanceof Error ? e.message : String(e)}`;
      return null;
    }
  }

  /** Walks a dropped or picked folder, counting its files on screen; a newer load stops the walk.
   *  Idle work waits meanwhile (idle-work.ts): the browser reads the folder's entries, and a font
   *  lookup of the warm-up waited for it, a 56 ms step 80 ms into a 1 GB tree's drop. */
  async #walk(source: Extract<LoadSource, { kind: 'folder' }>, current: () => boolean): Promise<InputFile[]> {
    this.walked = 0;
    const release = holdIdleWork();
    const { files, unreadable } = await source
      .walk({
        onCount: (total) => {
          if (current()) this.walked = total;
        },
        stale: () => !current()
      })
      .finally(release);
    // What the browser would not hand over (permissions, a file gone mid-walk) is said, not dropped.
    this.#unreadable = unreadable.map(unreadableEntry);
    return files;
  }

  /** Opens another listed session in the chat (built on demand when the drop was scanned). */
  async select(key: string): Promise<void> {
    const { api } = await engineClient();
    const generation = this.#generation;
    // A later pick wins: a slow build of an earlier pick must not replace it when it finishes.
    const pick = ++this.#pick;
    const stale = () => generation !== this.#generation || pick !== this.#pick;
    if (!this.sessions.some((s) => s.key === key)) {
      this.opening = key;
      const summary = await api.open(key).catch(() => null);
      if (stale()) return;
      this.opening = null;
      if (!summary) {
        this.error = 'Loupe could not open that session: its files could not be read again (were they moved?).';
        return;
      }
      // Summaries are small (no atoms); the built sessions behind them are bounded by the engine.
      this.sessions = [...this.sessions, summary];
      this.list = this.list.map((e) => (e.key === key ? { ...e, turns: summary.turns, turnsExact: true } : e));
      void this.#remember([summary], this.files, key);
    } else void this.#persistIndex(key);
    if (stale()) return;
    await this.#show(api, key, this.scanned, stale);
    if (this.scanned && !stale()) this.#prefetchAfter(api, key);
  }

  /**
   * A scanned drop builds sessions when opened; the next few in the list are likely next, so they
   * are built while the page is idle. The engine cancels a prefetch when another starts or a load
   * begins, and keeps what it built within its byte budget (LRU).
   */
  #prefetchAfter(api: EngineApi, key: string): void {
    const next = keysAfter(this.shownOrder(), key, PREFETCH_AHEAD);
    if (next.length) whenIdle(() => void api.prefetch(next).catch(() => undefined));
  }

  /** Full rows [from, to) of the open chat. */
  async rows(from: number, to: number): Promise<ChatRow[]> {
    if (!this.currentKey) return [];
    const primed = this.#primed;
    if (primed && primed.key === this.currentKey && to <= primed.rows.length) {
      this.#primed = null;
      return primed.rows.slice(from, to);
    }
    const { api } = await engineClient();
    return api.chatRows(this.currentKey, from, to);
  }

  /** The chat row that holds an atom of the open session, or -1. */
  async rowOfAtom(atomUuid: string, key = this.currentKey): Promise<number> {
    if (!key) return -1;
    const { api } = await engineClient();
    return api.findAtomRow(key, atomUuid);
  }

  async issuesOf(key: string): Promise<Issue[]> {
    const { api } = await engineClient();
    return api.issues(key, 5000);
  }

  async refreshRecent(): Promise<void> {
    const cache = await this.#openCache();
    this.recent = cache ? await cache.list() : [];
  }

  async forget(key: string): Promise<void> {
    const cache = await this.#openCache();
    await cache?.remove(key);
    await this.refreshRecent();
    await this.#pruneIndexes();
  }

  /** Counts for the open view (window.__loupe.stats()). */
  stats() {
    const s = this.sessions;
    const sum = (f: (x: SessionSummary) => number) => s.reduce((n, x) => n + f(x), 0);
    return {
      // Every listed session counts, built or not; the counts below are of built sessions.
      sessions: Math.max(this.list.length, s.length),
      projects: this.projects.length,
      turns: sum((x) => x.turns),
      atoms: sum((x) => x.atoms),
      segments: sum((x) => x.segments),
      rows: this.chatIndex.length,
      issues: sum((x) => x.issueCount),
      loadMs: Math.round(this.loadMs),
      /** Which agent wrote the open session ('claude-code' unless an adapter read it). */
      harness: this.current ? (this.current.meta.harness ?? 'claude-code') : null
    };
  }

  async #show(api: EngineApi, key: string, withTimeline: boolean, stale: () => boolean = () => false): Promise<void> {
    // A scanned drop draws the open session only (its main lane and subagents), never all of them.
    const primed = this.#primed?.key === key ? this.#primed : null;
    const indexed = primed ? Promise.resolve(primed.index) : fetchChatIndex(api, key);
    const laidOut = withTimeline ? api.timeline(this.scanned ? [key] : []) : Promise.resolve(this.timeline);
    const showIndex = (index: Awaited<typeof indexed>) => {
      this.currentKey = key;
      this.chatKeep = 0;
      this.chatIndex = index?.rows ?? [];
    };
    // With no timeline on screen yet (the first session shown), the chat's rows are fetched as soon
    // as its index is here, while the worker lays out the timeline (the first rows waited for
    // it). Otherwise the two change together: the timeline never shows another session.
    const early = this.timeline === null;
    if (early) {
      const index = await indexed;
      // A big index is drawn in a task after the one that received its last page: reading a
      // message (its rows' objects, and the scavenge they cause) and mounting the workspace were
      // one 45–58 ms task before a 100 MB session's ready.
      if ((index?.rows.length ?? 0) > SHOW_APART_ROWS) await macrotask();
      if (stale()) return;
      showIndex(index);
    }
    const [index, layout] = await Promise.all([indexed, laidOut]);
    if (stale()) return;
    if (!early) showIndex(index);
    this.timeline = layout;
  }

  /** A followed folder changed (state/Live.svelte.ts): the session list, the open chat if it
   *  changed (keeping its unchanged rows), the timeline. The first sessions open the newest. */
  async applyLive(api: EngineApi, outcome: FollowOutcome): Promise<void> {
    this.#generation++; // a load in flight is superseded by the followed folder
    this.sessions = outcome.sessions;
    this.list = outcome.list;
    this.scanned = false;
    this.unknown = outcome.unknown;
    this.source = null;
    if (!outcome.sessions.length) return;
    const current = this.currentKey && outcome.sessions.some((s) => s.key === this.currentKey) ? this.currentKey : null;
    if (!current) {
      await this.#show(api, outcome.sessions[0].key, true);
      this.#setState('ready');
      return;
    }
    const mine = outcome.changed.find((c) => c.key === current);
    // Only the changed tail of the index crosses from the worker; the kept rows' entries stay.
    const keep = Math.min(mine?.keepRows ?? 0, this.chatIndex.length);
    const before = this.chatIndex;
    const tail = mine ? await api.chatIndex(current, keep) : null;
    if (tail && this.currentKey === current) {
      if (this.chatIndex === before) {
        this.chatKeep = keep;
        this.chatIndex = keep ? before.slice(0, keep).concat(tail.rows) : tail.rows;
      } else await this.refreshChat(api); // the index moved meanwhile: take it whole
    }
    this.#setState('ready');
    if (outcome.changed.length) this.#liveTimeline(api);
  }

  // The timeline lays out and draws every session: while following it follows the chat, never
  // holds it up, and is redrawn at most every LIVE_TIMELINE_MS (the last change always lands).
  #timelineThrottle = new Throttle(LIVE_TIMELINE_MS);
  #liveTimeline(api: EngineApi): void {
    this.#timelineThrottle.request(async () => {
      this.timeline = await api.timeline([]);
    });
  }

  /** The open chat's rows changed in place (a followed session went quiet or resumed). */
  async refreshChat(api: EngineApi): Promise<void> {
    const key = this.currentKey;
    if (!key) return;
    const index = await fetchChatIndex(api, key);
    if (index && this.currentKey === key) {
      this.chatKeep = 0;
      this.chatIndex = index.rows;
    }
  }

  #setState(state: ViewState): void {
    this.state = state;
    if (typeof document !== 'undefined') document.documentElement.dataset.state = state;
  }

  #openCache(): Promise<SessionCache | null> {
    this.#cache ??= openCache({ onStatus: (_s, notice) => (this.cacheNotice = notice) }).then(
      (c) => {
        this.cacheNotice = c.notice;
        return c;
      },
      () => null
    );
    return this.#cache;
  }

  #openScanIndex(): Promise<ScanIndex<StoredScan> | null> {
    this.#scanIndex ??= openScanIndex<StoredScan>().catch(() => null);
    return this.#scanIndex;
  }

  /** Earlier scans of the drop's folders, by path (the engine checks each one's identity). */
  async #knownScans(files: { path: string }[]): Promise<Map<string, StoredScan>> {
    const index = await this.#openScanIndex();
    if (!index) return new Map();
    const stored = await index.lookup(new Set(files.map((f) => folderOf(normPath(f.path)))));
    return new Map(stored.map((r) => [r.path, r]));
  }

  /** Keeps the last big drop's scans for the next drop of the same files (best effort, paged).
   *  It is idle work, a page of scans an idle period, and the save after one: started at ready,
   *  the save's first transactions and the pages' messages were tasks of 55–68 ms beside the
   *  chat's first frames (the 1 GB tree's drop). */
  async #rememberScans(api: EngineApi, generation: number): Promise<void> {
    const idle = () => new Promise<void>((done) => whenIdle(() => done()));
    await idle();
    const stats = await api.scanStats();
    if (stats.reused === stats.files) return;
    const index = await this.#openScanIndex();
    if (!index) return;
    const all: StoredScan[] = [];
    for (let from = 0; ; from += RECORDS_PAGE) {
      if (generation !== this.#generation) return;
      await idle();
      const { total, records } = await api.scanRecords(from, from + RECORDS_PAGE);
      for (const r of records) all.push(r);
      if (from + RECORDS_PAGE >= total) break;
    }
    await idle();
    if (generation !== this.#generation) return;
    await index.save(all);
    if (generation === this.#generation) this.scansKept = all.length;
  }

  /** Caches each loaded session as its own raw files (best effort; never fails the load), then
   *  persists the row index of `shown` (the session on screen) for a reopen without parsing. */
  async #remember(sessions: SessionSummary[], files: { path: string; blob: Blob }[], shown: string | null = null): Promise<void> {
    const cache = await this.#cacheSessions(sessions, files);
    if (!cache) return;
    await this.refreshRecent();
    // Caching may have evicted sessions: their row indexes go with them.
    await this.#pruneIndexes();
    if (shown) await this.#persistIndex(shown);
  }

  /** Stores sessions in the cache, each as its own raw files; resolves once every write has
   *  committed (SessionCache.put awaits its transaction). The cache, or null when there is none. */
  async #cacheSessions(sessions: SessionSummary[], files: { path: string; blob: Blob }[]): Promise<SessionCache | null> {
    const cache = await this.#openCache();
    if (!cache) return null;
    const byPath = new Map(files.map((f) => [f.path, f.blob]));
    for (const s of sessions) {
      const own = s.files.flatMap((f) => {
        const blob = byPath.get(f.path);
        return blob ? [{ path: f.path, kind: f.kind, blob }] : [];
      });
      // A remote tree's files stay in the worker: nothing here to keep (its address reopens it).
      if (!own.length) continue;
      const { title, startedAt, endedAt, bytes, turns } = s.meta;
      await cache.put({ key: s.key, title, startedAt, endedAt, bytes, turns }, own);
    }
    return cache;
  }

  /** Has the worker persist a cached session's row index (summary, chat rows, timeline), keyed
   *  by its files' content hash; the worker skips it when it is already there. */
  async #persistIndex(key: string): Promise<void> {
    try {
      const cache = await this.#openCache();
      const meta = cache ? (await cache.list()).find((m) => m.key === key) : undefined;
      if (!meta) return; // not cached (too large, no storage): nothing to key an index by
      const contentHash = await sessionContentHash(meta.files);
      const { api } = await engineClient();
      const stats = await api.persistIndex(key, contentHash);
      if (stats) this.indexWrite = { ...stats, key };
    } catch {
      /* best effort: the next reopen parses in full */
    }
  }

  /** Row indexes live exactly as long as their session's cache entry (session-cache.ts evicts). */
  async #pruneIndexes(): Promise<void> {
    try {
      const cache = await this.#openCache();
      if (!cache || cache.status !== 'ok') return;
      const keep = await Promise.all((await cache.list()).map((m) => sessionContentHash(m.files)));
      const { api } = await engineClient();
      await api.pruneIndexes(keep);
    } catch {
      /* best effort */
    }
  }
}

function noSessionMessage(unknown: ClassifiedFile[], fileCount: number): string {
  if (!fileCount) return 'Nothing to open: no files were given.';
  if (unknown.length === 1) return `${unknown[0].name}: ${unknown[0].reason ?? 'not a Claude Code transcript.'}`;
  const reasons = unknown.slice(0, 3).map((f) => `${f.name}: ${f.reason ?? 'not a transcript'}`);
  return `No Claude Code transcript found among ${fileCount} files (${reasons.join('; ')}${unknown.length > 3 ? '; …' : ''}).`;
}
