// The parse engine: owns every loaded session and answers the page's questions about them
// (chat row index, rows by range, timeline layout, where an atom is, search, usage, exports,
// following). It runs inside the worker (parse.worker.ts exposes it with comlink) and, when a
// worker cannot start, on the main thread: the same code either way. A new load supersedes the
// one in flight: the older load's AbortController is aborted, so it stops between chunks and its
// result is dropped.
// Two-phase load: every load first scans heads and tails (ingest/scan.ts). A small drop is then
// parsed whole and kept, as before; a big one (prefersScan) stays a listing of File handles, and a
// session is built when first asked for. Every method that needs a built session goes through
// #built(key), which builds on demand and keeps at most BUILT_BUDGET source bytes built (LRU).
// Following a folder (followStart / followAppend) replaces the loaded sessions with the ones
// ingest/live.ts keeps current from appended bytes; their chat rows are rebuilt from the first
// changed turn on (view/chat/live.ts) and the page is told how many leading rows it keeps.
// The capabilities themselves live in view/ (search, usage, export, redact): this file wires them.
// Cached reopen (store/row-index.ts): a shown session's summary, chat rows and timeline are
// persisted by content hash (persistIndex); loadPersisted serves them straight away and rebuilds
// the model from the cached files in the background, which #built(key) awaits.
import { segmentsOf } from '../model/index.ts';
import { loadSessions } from '../ingest/load-files.ts';
import { loadListed } from '../ingest/listed.ts';
import type { ClassifiedFile, LoadedSession } from '../ingest/types.ts';
import { buildChatRows, rowIndexOf, type ChatRow } from '../view/chat/index.ts';
import { layoutTimeline, type TimelineLayout } from '../view/timeline/layout.ts';
import { withSubagentLanes } from '../view/timeline/subagent-lanes.ts';
import { prefersScan, scanInputs, storedScans, type FileScan, type ScanListing, type ScannedSession, type StoredScan } from '../ingest/scan.ts';
import { ByteLru } from '../ingest/lru.ts';
import { dirOf, normPath } from '../ingest/paths.ts';
import { HARNESS_LABELS } from '../ingest/harnesses.ts';
import type { ListEntry } from '../view/sessions/list.ts';
import { PRICES, projectUsage, sessionUsage, type ProjectUsage, type SessionUsage } from '../view/usage/index.ts';
import { fieldsOfRows, runSearch, SessionTextCache, textChars, type FoldedTexts, type SearchBatch, type SearchField, type SearchOutcome, type SearchRequest } from '../view/search/index.ts';
import { exportFile, exportSessionText, redactSource, utf8Bytes, type ExportFormat, type ExportResult, type ExportSource, type OnExportProgress } from '../view/export/index.ts';
import { DEFAULT_REDACT, describeRedaction, makeRedactor, redactFileText, scanFiles, type Finding, type RedactOptions } from '../view/redact/index.ts';
import { LiveProject } from '../ingest/live.ts';
import { firstChangedTurn, liveActivity, markLiveThought, rebuildTail, type LiveActivity } from '../view/chat/live.ts';
import type { ChatIndex, FollowChange, FollowOutcome, InputFile, ListSnapshot, LiveState, LoadOutcome, LoadProgress, SessionSummary } from './protocol.ts';
import type { RowIndexStore, WriteStats } from '../store/row-index.ts';
import type { SearchPool } from '../view/search/pool.ts';
import { fieldsOfLoaded, LocalLane } from '../view/search/lane.ts';
import { fieldsOfIndexText, type SessionSearchIndex } from '../view/search/history-index.ts';
import { HistorySearch, type HistorySearchStatus, type RunJob } from './services/history-search.ts';
import { scanInPool, startSearchPool } from './search-pool.ts';

/** The persisted row index as the engine stores it. */
export type RowIndex = RowIndexStore<SessionSummary, ChatRow, TimelineLayout>;
/** How long a restored session waits before its model is rebuilt, unless something needs it
 *  sooner: the page's first row requests are answered before the worker turns to parsing. */
const REBUILD_DELAY_MS = 400;

const ISSUES_SENT = 200;
/** Source bytes of built sessions kept besides the open one (a built session is several times its files). */
const BUILT_BUDGET = 96 * 1024 * 1024;
/** Characters of not-built sessions' searchable text kept between queries (~2 bytes each: a bound on memory). */
const CACHED_SEARCH_CHARS = 64_000_000;

interface Entry {
  loaded: LoadedSession;
  rows: ChatRow[] | null;
  usage?: SessionUsage;
  /** A followed session: its open turn settles while it is quiet (view/chat/live.ts). */
  live?: { quiet: boolean; activity: LiveActivity | null };
}

type SearchData = { fields: SearchField[]; folded: FoldedTexts };

export class Engine {
  /** Sessions built by a full load (small drops): kept for the whole load, as before the scan existed. */
  #sessions = new Map<string, Entry>();
  #generation = 0;
  #abort: AbortController | null = null;
  /** Scan mode (big drops): every listed session, its files as Blob handles, and an LRU of built ones. */
  #listed = new Map<string, ScannedSession>();
  #blobs = new Map<string, Blob>();
  #lru: ByteLru<Entry>;
  #building = new Map<string, Promise<Entry | null>>();
  #prefetch = 0;
  #searchGeneration = 0;
  #searchAbort: AbortController | null = null;
  #searchData = new WeakMap<Entry, SearchData>();
  /** Searchable text of sessions that are not built (cached or listed), parsed on a search's way through them. */
  #cachedSearch = new SessionTextCache(CACHED_SEARCH_CHARS);
  /** The history search index of the listed sessions (services/history-search.ts). */
  #history = new HistorySearch();
  /** Search workers that build a big drop's listed sessions side by side (search-pool.ts); null: none here. */
  #pool: SearchPool | null | undefined;
  #startPool: () => SearchPool | null;
  /** The last redacted copy of a session (exports in several formats redact once). */
  #redacted: { key: string; sig: string; origin: object; src: ExportSource } | null = null;
  /** The last load's scan: wall time, files, and how many came from earlier scans. */
  #scanStats = { ms: 0, files: 0, reused: 0 };
  /** Files handed over in batches before a big load (see stage()). */
  #staged: { generation: number; files: InputFile[]; known: Map<string, StoredScan> } = { generation: -1, files: [], known: new Map() };
  /** The last load's scans, for the page to store (scanRecords) so a later drop reuses them. */
  #lastScan: { scans: FileScan[]; identities: Map<string, string>; stored: StoredScan[] | null } = { scans: [], identities: new Map(), stored: null };

  /** The persisted row index, opened on first use (null: none, e.g. no IndexedDB). */
  #openRowIndex: () => Promise<RowIndex | null>;
  #rowIndex: Promise<RowIndex | null> | null = null;
  /** A session restored from its persisted index, served until its model is rebuilt. */
  #persisted: { key: string; rows: ChatRow[]; timeline: TimelineLayout } | null = null;
  /** Restored sessions whose model is being (or will be) rebuilt: calling starts it now. */
  #restoring = new Map<string, () => Promise<Entry | null>>();

  /** `builtBudget`: source bytes of built sessions a scanned drop keeps (the open one always stays).
   *  `rowIndex`: opens the persisted row index (the worker shell passes store/row-index.ts).
   *  `searchPool`: starts the search pool (default: search workers, where they can start). */
  constructor(opts: { builtBudget?: number; rowIndex?: () => Promise<RowIndex | null>; searchPool?: () => SearchPool | null } = {}) {
    this.#lru = new ByteLru<Entry>(opts.builtBudget ?? BUILT_BUDGET, 1);
    this.#openRowIndex = opts.rowIndex ?? (() => Promise.resolve(null));
    this.#startPool = opts.searchPool ?? (() => startSearchPool(CACHED_SEARCH_CHARS));
  }

  /**
   * Hands over part of a big drop's files ahead of load(generation, { files: [], staged: true }).
   * Cloning thousands of File handles into the worker in one message blocks the page for most
   * of a second; in batches, each message is a short task.
   */
  stage(generation: number, files: InputFile[], known: StoredScan[] = []): number {
    if (this.#staged.generation !== generation) this.#staged = { generation, files: [], known: new Map() };
    for (const f of files) this.#staged.files.push(f);
    for (const k of known) this.#staged.known.set(k.identity, k);
    return this.#staged.files.length;
  }

  /** Parses files into sessions, replacing what was loaded before (pasted text arrives as a Blob). */
  async load(
    generation: number,
    given: { files: InputFile[]; staged?: boolean },
    onProgress?: (p: LoadProgress) => void,
    onList?: (snapshot: ListSnapshot) => void
  ): Promise<LoadOutcome> {
    const mine = this.#staged.generation === generation;
    const input = given.staged && mine ? { files: [...this.#staged.files, ...given.files] } : given;
    const known = mine ? this.#staged.known : new Map<string, StoredScan>();
    this.#staged = { generation: -1, files: [], known: new Map() };
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#generation = generation;
    this.#prefetch++;
    const started = performance.now();
    try {
      // Phase one: the head and tail of every file. A big drop stops here (see #scanned).
      const { listing, scans, identities, reused } = await scanInputs(input.files, {
        signal: abort.signal,
        known,
        onBatch: onList && ((l, filesDone, filesTotal) => onList({ entries: l.sessions.map(entryOfScan), filesDone, filesTotal }))
      });
      const totalBytes = input.files.reduce((n, f) => n + f.blob.size, 0);
      this.#scanStats = { ms: performance.now() - started, files: input.files.length, reused };
      this.#lastScan = { scans, identities, stored: null };
      if (prefersScan(listing, totalBytes)) return await this.#scanned(generation, abort, listing, input.files, started);
      const out = await loadSessions(input.files, {
        signal: abort.signal,
        onProgress: onProgress && ((p) => onProgress({ ...p, mbPerSec: mbPerSec(p.overallRead ?? p.bytesRead, started) }))
      });
      if (abort.signal.aborted || generation !== this.#generation) {
        return { ok: false, generation, superseded: true, message: 'A newer load replaced this one.' };
      }
      // A load that found no session leaves the open ones in place (the page says why).
      if (out.sessions.length) {
        this.#sessions = new Map(out.sessions.map((s) => [s.key, { loaded: s, rows: null }]));
        this.#forgetScan();
      }
      const sessions = out.sessions.map(summarize);
      return {
        ok: true,
        generation,
        sessions,
        list: sessions.map(entryOfSummary),
        scanned: false,
        unknown: out.unknown,
        issues: out.issues.slice(0, ISSUES_SENT),
        ms: performance.now() - started
      };
    } catch (e) {
      const superseded = abort.signal.aborted || generation !== this.#generation;
      return { ok: false, generation, superseded, message: superseded ? 'A newer load replaced this one.' : messageOf(e) };
    }
  }

  /** The compact row index of one session's chat (built once, kept). */
  async chatIndex(key: string): Promise<ChatIndex | null> {
    const rows = await this.#rows(key);
    return rows ? { sessionKey: key, rows: rows.map(indexEntryOf) } : null;
  }

  /** The index entries from row `from` on (a followed chat's changed tail; the page keeps the rest). */
  async chatIndexFrom(key: string, from: number): Promise<ChatIndex | null> {
    const rows = await this.#rows(key);
    return rows ? { sessionKey: key, rows: rows.slice(Math.max(0, from)).map(indexEntryOf) } : null;
  }

  /** Full rows [from, to) of one session's chat, for the rows about to be drawn. */
  async chatRows(key: string, from: number, to: number): Promise<ChatRow[]> {
    return (await this.#rows(key))?.slice(Math.max(0, from), Math.max(from, to)) ?? [];
  }

  /** The row holding an atom (a landing target), or -1 when no row holds it. */
  async findAtomRow(key: string, atomUuid: string): Promise<number> {
    const rows = await this.#rows(key);
    if (!rows) return -1;
    const index = rows.findIndex((r) => r.atomUuid === atomUuid || r.atomUuids.includes(atomUuid));
    if (index >= 0) return index;
    // An atom of a subagent transcript sits inside its delegation row (search lands there).
    return (await this.#searchFields(key))?.fields.find((f) => f.atomUuid === atomUuid)?.row ?? -1;
  }

  /** One shared timeline for the given sessions (all sessions of a full load when keys is empty). */
  async timeline(keys: string[]): Promise<TimelineLayout> {
    const p = this.#persisted;
    if (p && (keys.length === 0 || (keys.length === 1 && keys[0] === p.key))) return p.timeline;
    const picked = keys.length ? (await Promise.all(keys.map((k) => this.#built(k)))).filter((e) => !!e) : [...this.#sessions.values()];
    const layout = layoutTimeline(
      picked.map(({ loaded }) => ({
        key: loaded.key,
        label: loaded.title,
        session: loaded.result.session,
        children: loaded.children
      }))
    );
    // One session open: its detail, the main lane plus a lane per subagent.
    return picked.length === 1 ? withSubagentLanes(layout) : layout;
  }

  /** Issues of one session, for the issues panel (all of them, capped for sanity). */
  async issues(key: string, limit = 5000) {
    return (await this.#built(key))?.loaded.issues.slice(0, limit) ?? [];
  }

  /** Builds a listed session if it is not built yet and returns its summary (null: not listed / unreadable). */
  async open(key: string): Promise<SessionSummary | null> {
    const entry = await this.#built(key);
    return entry ? summarize(entry.loaded) : null;
  }

  /**
   * Builds the given sessions one after another while nothing else is asked (idle prefetch).
   * A later prefetch call or a new load cancels the rest. Resolves with the keys it built.
   */
  async prefetch(keys: string[]): Promise<string[]> {
    const token = ++this.#prefetch;
    const done: string[] = [];
    for (const key of keys) {
      if (token !== this.#prefetch) break;
      if (this.#lru.has(key) || this.#sessions.has(key)) continue;
      // Yield first, so a request from the page that arrived meanwhile is answered before the build.
      await new Promise((r) => setTimeout(r, 0));
      if (token !== this.#prefetch) break;
      if (await this.#built(key)) done.push(key);
    }
    return done;
  }

  /** The last load's scan: wall time (ms), files, files whose earlier scan was reused. */
  scanStats(): { ms: number; files: number; reused: number } {
    return this.#scanStats;
  }

  /**
   * Stored forms [from, to) of the last load's scans (files with an identity only), for the page
   * to keep in its scan index; paged so no single message is large. `total` is their count.
   */
  scanRecords(from: number, to: number): { total: number; records: StoredScan[] } {
    const last = this.#lastScan;
    last.stored ??= storedScans(last.scans, last.identities);
    return { total: last.stored.length, records: last.stored.slice(Math.max(0, from), Math.max(from, to)) };
  }

  /** Keys of the sessions currently built (full load: all; scan mode: the LRU, oldest first). */
  builtKeys(): string[] {
    return [...this.#sessions.keys(), ...this.#lru.keys()];
  }

  /**
   * THE way to a built session: every method that needs a session's model goes through here.
   * Full loads answer from memory; in scan mode the session is built from its File handles on
   * first use (concurrent callers share one build) and kept in the byte-bounded LRU.
   */
  async #built(key: string): Promise<Entry | null> {
    const fixed = this.#sessions.get(key);
    if (fixed) return fixed;
    const hit = this.#lru.get(key);
    if (hit) return hit;
    const restore = this.#restoring.get(key);
    if (restore) return restore();
    const listed = this.#listed.get(key);
    if (!listed) return null;
    let pending = this.#building.get(key);
    if (!pending) {
      pending = this.#build(listed).finally(() => this.#building.delete(key));
      this.#building.set(key, pending);
    }
    return pending;
  }

  async #build(listed: ScannedSession): Promise<Entry | null> {
    const generation = this.#generation;
    const loaded = await this.#parseListed(listed);
    if (!loaded || generation !== this.#generation || this.#listed.get(listed.key) !== listed) return null;
    const entry: Entry = { loaded, rows: null };
    this.#lru.set(listed.key, entry, listed.bytes);
    return entry;
  }

  /** Parses a listed session from its File handles (null: unreadable, or gone from the listing). */
  #parseListed(listed: ScannedSession): Promise<LoadedSession | null> {
    return loadListed(listed, this.#listedFiles(listed));
  }

  #listedFiles(listed: ScannedSession): InputFile[] {
    return listed.files.flatMap((path) => {
      const blob = this.#blobs.get(path);
      return blob ? [{ path, blob }] : [];
    });
  }

  /** Scan mode: keep the listing and the handles, build only the newest session. */
  async #scanned(generation: number, abort: AbortController, listing: ScanListing, files: InputFile[], started: number): Promise<LoadOutcome> {
    this.#forgetScan();
    this.#sessions = new Map();
    this.#listed = new Map(listing.sessions.map((s) => [s.key, s]));
    this.#history.setListed(listing.sessions);
    this.#blobs = new Map(files.map((f) => [normPath(f.path), f.blob]));
    const first = listing.sessions[0] ? await this.#built(listing.sessions[0].key) : null;
    if (abort.signal.aborted || generation !== this.#generation) {
      return { ok: false, generation, superseded: true, message: 'A newer load replaced this one.' };
    }
    const unknown: ClassifiedFile[] = listing.unused.slice(0, ISSUES_SENT).map((u) => ({
      path: u.path,
      name: u.path.split('/').at(-1) ?? u.path,
      kind: 'unknown',
      sessionId: null,
      bytes: this.#blobs.get(u.path)?.size ?? 0,
      reason: u.reason
    }));
    const sessions = first ? [summarize(first.loaded)] : [];
    return {
      ok: true,
      generation,
      sessions,
      list: listing.sessions.map(entryOfScan).map((e) => (first && e.key === first.loaded.key ? { ...e, turns: sessions[0].turns, turnsExact: true } : e)),
      scanned: true,
      unknown,
      issues: sessions[0]?.issues ?? [],
      ms: performance.now() - started
    };
  }

  #forgetScan(): void {
    // Every load and following replaces a restored session too.
    this.#persisted = null;
    this.#restoring.clear();
    this.#listed = new Map();
    this.#history.setListed([]);
    this.#blobs = new Map();
    this.#lru.clear();
    this.#building.clear();
    this.#pool?.clear();
  }

  /**
   * Searches the given sessions (all loaded ones when `keys` is empty). A newer search (a higher
   * generation) or cancelSearch stops this one between slices; hits stream to `onBatch`.
   */
  async search(generation: number, request: SearchRequest, keys: string[], onBatch?: (b: SearchBatch) => void): Promise<SearchOutcome> {
    const signal = this.#newSearch(generation);
    const known = this.#knownKeys();
    // Built sessions first (their text is ready), then listed ones, parsed on the way; a history
    // query over given keys keeps their order (the field groups them by project, newest first).
    const given = keys.length ? keys.filter((k) => known.includes(k)) : known;
    const picked = request.history && keys.length ? given : given.sort((a, b) => Number(!this.#isBuilt(a)) - Number(!this.#isBuilt(b)));
    // Listed sessions not built and not in the engine's text cache go to the search workers, side by side.
    if (this.#pool === undefined && picked.some((k) => this.#listed.has(k) && !this.#isBuilt(k))) this.#pool = this.#startPool();
    const pool = this.#pool ?? null;
    const lane = (key: string, indexText?: Uint8Array) => {
      const listed = this.#listed.get(key);
      if (!pool || !listed || this.#isBuilt(key) || this.#cachedSearch.get(key)) return undefined;
      return scanInPool(pool, request, { cacheKey: `${this.#generation}:${key}`, key, files: this.#listedFiles(listed), listed, indexText });
    };
    const scanSource = (key: string) => ({ key, fields: () => (this.#isBuilt(key) ? this.#searchFields(key) : this.#listedFields(key, signal)), scan: lane(key) });
    const hooks = { cancelled: () => generation !== this.#searchGeneration, pause: yieldToEvents, onBatch };
    if (!request.history) return runSearch(request, picked.map(scanSource), hooks);
    // History scope: an indexed session not built is decoded from its index, not built (history-search.ts).
    const fromIndex = (key: string, index: SessionSearchIndex) =>
      this.#isBuilt(key) || !this.#listed.has(key) ? null : { key, fields: () => this.#cachedSearch.get(key) ?? fieldsOfIndexText(index.text).then((f) => this.#cachedSearch.set(key, f)), scan: lane(key, index.text) };
    const { sources, info } = this.#history.sources(request, picked, scanSource, fromIndex);
    const out = await runSearch(request, sources, hooks);
    return out.ok ? { ...out, history: info } : out;
  }

  /** Builds the history search index of every listed session (in the search lanes); resolves when done. */
  historySearchIndex(): Promise<HistorySearchStatus> {
    if (this.#pool === undefined && this.#listed.size) this.#pool = this.#startPool();
    const pool = this.#pool ?? null;
    const local = new LocalLane(CACHED_SEARCH_CHARS / 4);
    const run: RunJob = (job, size) => (pool ? pool.submit(job.cacheKey, size, () => job) : local.run({ ...job, generation: 0 }));
    return this.#history.indexAll(run, (s) => this.#listedFiles(s), (key) => `${this.#generation}:${key}`);
  }

  historySearchStatus(): HistorySearchStatus {
    return this.#history.status();
  }

  /** Builds the searchable fields of these sessions ahead of the first keystroke (the field got focus). */
  async prepareSearch(keys: string[]): Promise<{ fields: number; chars: number; ms: number }> {
    const started = performance.now();
    let fields = 0;
    let chars = 0;
    for (const key of keys.length ? keys : [...this.#sessions.keys()]) {
      const data = await this.#searchFields(key);
      fields += data?.fields.length ?? 0;
      chars += data ? textChars(data.fields) : 0;
    }
    return { fields, chars, ms: performance.now() - started };
  }

  /**
   * Searches cached sessions (`keys`, most recent first): loaded ones as they are, the others
   * parsed one at a time from the files `getFiles` reads out of the cache (the page owns the
   * cache), so hits arrive while later sessions are still being read. Typing again aborts it.
   */
  async searchCached(
    generation: number,
    request: SearchRequest,
    keys: string[],
    getFiles: (key: string) => Promise<InputFile[] | null>,
    onBatch?: (b: SearchBatch) => void
  ): Promise<SearchOutcome> {
    const signal = this.#newSearch(generation);
    const loadedFirst = [...keys.filter((k) => this.#isBuilt(k)), ...keys.filter((k) => !this.#isBuilt(k))];
    const sources = loadedFirst.map((key) => ({
      key,
      fields: () => (this.#isBuilt(key) ? this.#searchFields(key) : this.#cachedFields(key, getFiles, signal))
    }));
    return runSearch(request, sources, { cancelled: () => generation !== this.#searchGeneration, pause: yieldToEvents, onBatch });
  }

  /** Stops the search in flight (the field was cleared or closed). */
  cancelSearch(generation: number): void {
    if (generation >= this.#searchGeneration) this.#newSearch(generation + 1);
  }

  #newSearch(generation: number): AbortSignal {
    this.#searchGeneration = generation;
    this.#searchAbort?.abort();
    this.#searchAbort = new AbortController();
    this.#pool?.cancel();
    return this.#searchAbort.signal;
  }

  async #cachedFields(key: string, getFiles: (key: string) => Promise<InputFile[] | null>, signal: AbortSignal) {
    const known = this.#cachedSearch.get(key);
    if (known) return known;
    const files = await getFiles(key);
    if (!files?.length || signal.aborted) return null;
    try {
      const out = await loadSessions(files, { signal });
      const loaded = out.sessions.find((s) => s.key === key) ?? out.sessions[0];
      if (!loaded || signal.aborted) return null;
      return this.#cachedSearch.set(key, fieldsOfLoaded(loaded));
    } catch {
      return null; // an aborted or unreadable cached session is skipped, never fatal
    }
  }

  /** A built session's searchable text, from its chat rows (built first, once, kept on the entry). */
  async #searchFields(key: string): Promise<SearchData | null> {
    const rows = await this.#rows(key);
    const entry = await this.#built(key);
    if (!rows || !entry) return null;
    let data = this.#searchData.get(entry);
    if (!data) this.#searchData.set(entry, (data = { fields: fieldsOfRows(rows), folded: [] }));
    return data;
  }

  /** A listed session that is not built: parsed for its text only, not kept built (the LRU stays for opened ones).
   *  Where search workers run (search-pool.ts), they do this instead; this is the path without them. */
  async #listedFields(key: string, signal: AbortSignal): Promise<SearchData | null> {
    const known = this.#cachedSearch.get(key);
    if (known) return known;
    const listed = this.#listed.get(key);
    if (!listed || signal.aborted) return null;
    const loaded = await this.#parseListed(listed);
    if (!loaded || signal.aborted) return null;
    return this.#cachedSearch.set(key, fieldsOfLoaded(loaded));
  }

  /** Every session the last load listed: all of a full load, or the scan's listing. */
  #knownKeys(): string[] {
    if (this.#listed.size) return [...this.#listed.keys()];
    const keys = [...this.#sessions.keys()];
    // A restored session counts before its model is back (its search awaits the rebuild).
    return this.#persisted && !keys.includes(this.#persisted.key) ? [this.#persisted.key, ...keys] : keys;
  }

  #isBuilt(key: string): boolean {
    return this.#sessions.has(key) || this.#lru.has(key) || this.#restoring.has(key);
  }

  /** Accounting, chart series and insights of one session with its subagents (computed once, kept). */
  async usage(key: string): Promise<SessionUsage | null> {
    const entry = await this.#built(key);
    if (!entry) return null;
    entry.usage ??= sessionUsage(entry.loaded);
    return entry.usage;
  }

  /**
   * Usage of the built sessions side by side, and their sum (the project view). A big drop's
   * sessions that were never opened are not built for it: their cost would mean parsing them all.
   */
  async projectUsage(): Promise<ProjectUsage> {
    const picked = [];
    for (const key of this.builtKeys()) {
      const usage = await this.usage(key);
      const loaded = (await this.#built(key))?.loaded;
      if (usage && loaded) picked.push({ key, title: loaded.title, startedAt: loaded.startedAt, usage });
    }
    return projectUsage(picked, PRICES.sourceDate);
  }

  /** What redaction finds in one session's input files: each distinct string once, with where. */
  async scanSecrets(key: string, options: Partial<RedactOptions>, onProgress?: OnExportProgress): Promise<Finding[] | null> {
    const entry = await this.#built(key);
    if (!entry) return null;
    const files = await inputTexts(entry.loaded.inputs, onProgress);
    return scanFiles(files, makeRedactor(options));
  }

  /** The text of a download (Markdown, one-file HTML, Strap JSON); `options` null = not redacted. */
  async exportText(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress): Promise<ExportResult | null> {
    const text = await this.#export(key, format, options, onProgress);
    return text === null ? null : { text, bytes: utf8Bytes(text) };
  }

  /** A download made in the worker as a Blob, so the page never holds (or encodes) the text. */
  async exportBlob(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress): Promise<{ blob: Blob; bytes: number } | null> {
    const text = await this.#export(key, format, options, onProgress);
    if (text === null) return null;
    const blob = new Blob([text], { type: exportFile(format, '').mime });
    return { blob, bytes: blob.size };
  }

  async #export(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress): Promise<string | null> {
    const entry = await this.#built(key);
    if (!entry) return null;
    const l = entry.loaded;
    const source: ExportSource = { key: l.key, title: l.title, startedAt: l.startedAt, endedAt: l.endedAt, session: l.result.session, children: l.children, metadata: l.result.metadata, rows: entry.rows };
    const redactor = options ? makeRedactor(options) : null;
    const sig = JSON.stringify(redactor?.options ?? null);
    if (this.#redacted?.key !== key || this.#redacted.sig !== sig || this.#redacted.origin !== l.result.session) {
      onProgress?.({ task: 'redact', done: 0, total: 1 });
      this.#redacted = { key, sig, origin: l.result.session, src: redactor ? redactSource(source, redactor) : source };
    }
    return exportSessionText(this.#redacted.src, format, { redactor: null, redaction: describeRedaction(redactor?.options ?? null), onProgress });
  }

  /** The session's input files for a `#z=` link, redacted unless `options` is null. */
  async shareFiles(key: string, options: Partial<RedactOptions> | null): Promise<{ name: string; text: string }[] | null> {
    const entry = await this.#built(key);
    if (!entry) return null;
    const r = options ? makeRedactor({ ...DEFAULT_REDACT, ...options }) : null;
    return (await inputTexts(entry.loaded.inputs)).map((f) => ({ name: f.path, text: r ? redactFileText(f.text, r) : f.text }));
  }

  async #rows(key: string): Promise<ChatRow[] | null> {
    if (this.#persisted?.key === key) return this.#persisted.rows;
    const entry = await this.#built(key);
    if (!entry) return null;
    if (entry.rows) return entry.rows;
    // A followed session's open turn settles while it is quiet, and its live thought is marked.
    entry.rows = entry.live
      ? markLiveThought(entry.loaded.result.session, rowsOf(entry.loaded, { sessionOver: entry.live.quiet }))
      : rowsOf(entry.loaded);
    return entry.rows;
  }

  // ── cached reopen (store/row-index.ts) ───────────────────────────────────

  #rowStore(): Promise<RowIndex | null> {
    this.#rowIndex ??= this.#openRowIndex().catch(() => null);
    return this.#rowIndex;
  }

  /**
   * Reopens a cached session: from its persisted index when there is one for these exact files
   * and this model (the chat and timeline are served from it at once, the model is rebuilt from
   * `files` in the background), else by a full load of `files`. `restored` says which it was.
   */
  async loadPersisted(
    generation: number,
    given: { key: string; contentHash: string; files: InputFile[] },
    onProgress?: (p: LoadProgress) => void,
    onList?: (snapshot: ListSnapshot) => void
  ): Promise<LoadOutcome> {
    const started = performance.now();
    const store = await this.#rowStore();
    const hit = store ? await store.read(given.contentHash) : null;
    if (!hit || hit.sessionKey !== given.key || hit.summary.key !== given.key) {
      return this.load(generation, { files: given.files }, onProgress, onList);
    }
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#generation = generation;
    this.#prefetch++;
    this.#forgetScan();
    this.#sessions = new Map();
    const key = given.key;
    this.#persisted = { key, rows: hit.rows, timeline: hit.timeline };
    let pending: Promise<Entry | null> | null = null;
    const start = () => (pending ??= this.#rebuild(key, given.files, generation, abort.signal));
    this.#restoring.set(key, start);
    setTimeout(start, REBUILD_DELAY_MS);
    const summary = hit.summary;
    return {
      ok: true,
      generation,
      sessions: [summary],
      list: [entryOfSummary(summary)],
      scanned: false,
      unknown: [],
      issues: summary.issues,
      ms: performance.now() - started,
      restored: true
    };
  }

  /** The restored session's model, parsed from its cached files; its persisted rows stay its rows. */
  async #rebuild(key: string, files: InputFile[], generation: number, signal: AbortSignal): Promise<Entry | null> {
    const out = await loadSessions(files, { signal }).catch(() => null);
    const current = () => !signal.aborted && generation === this.#generation && this.#restoring.has(key);
    if (!out || !current()) return null;
    const loaded = out.sessions.find((s) => s.key === key) ?? out.sessions[0];
    if (!loaded) {
      this.#restoring.delete(key);
      return null;
    }
    const rows = this.#persisted?.key === key ? this.#persisted.rows : null;
    const entry: Entry = { loaded: { ...loaded, key }, rows };
    this.#sessions = new Map(out.sessions.map((s) => [s === loaded ? key : s.key, s === loaded ? entry : { loaded: s, rows: null }]));
    this.#persisted = null;
    this.#restoring.delete(key);
    return entry;
  }

  /** Persists a built session's summary, chat rows and timeline under its content hash, in
   *  chunks (the worker answers the page between them). Null: nothing written (already there,
   *  not built, followed, or no storage). */
  async persistIndex(key: string, contentHash: string): Promise<WriteStats | null> {
    const store = await this.#rowStore();
    if (!store || (await store.has(contentHash))) return null;
    const entry = await this.#built(key);
    // A followed session changes under us; its rows carry a live edge that a reopen must not show.
    if (!entry || entry.live) return null;
    const rows = await this.#rows(key);
    if (!rows) return null;
    const timeline = await this.timeline([key]);
    return store.write(contentHash, { sessionKey: key, summary: summarize(entry.loaded), rows, timeline }, yieldToEvents);
  }

  /** Forgets every persisted index whose session is no longer cached (`keep`: the cached sessions' content hashes). */
  async pruneIndexes(keep: string[]): Promise<number> {
    const store = await this.#rowStore();
    return store ? store.prune(new Set(keep)) : 0;
  }

  // ── following a folder (ingest/live.ts) ──────────────────────────────────

  #live: LiveProject | null = null;
  #liveGeneration = 0;

  /** Starts following: the loaded sessions give way to the followed ones as their bytes arrive. */
  followStart(generation: number): void {
    this.#abort?.abort();
    this.#live = new LiveProject();
    this.#liveGeneration = generation;
    this.#forgetScan();
    this.#sessions = new Map();
  }

  followStop(): void {
    this.#live = null;
    for (const e of this.#sessions.values()) delete e.live;
  }

  /** Appended bytes of followed files → the sessions they changed. */
  followAppend(generation: number, changes: FollowChange[]): FollowOutcome | null {
    const live = this.#live;
    if (!live || generation !== this.#liveGeneration) return null;
    const up = live.apply(changes, Date.now());
    const changed: FollowOutcome['changed'] = [];
    for (const key of up.changed) {
      const loaded = live.session(key);
      if (!loaded) continue;
      const old = this.#sessions.get(key);
      const entry: Entry = { loaded, rows: null, live: { quiet: old?.live?.quiet ?? false, activity: null } };
      this.#sessions.set(key, entry);
      // Rows the page has seen are rebuilt from the first changed turn on; the page keeps the rest.
      let keep = 0;
      if (old?.rows && !up.fresh.includes(key)) {
        const fromTurn = firstChangedTurn(old.rows, old.loaded.result.session.turns.length, up.grownChildren[key] ?? [], up.firstChangedTurn[key]);
        if (fromTurn < loaded.result.session.turns.length) keep = this.#retail(entry, old.rows, fromTurn);
      }
      changed.push({ key, keepRows: keep });
    }
    for (const key of up.removed) this.#sessions.delete(key);
    const sessions = live.sessions();
    // Keep the engine's map in the live order (newest first) for timeline([]).
    this.#sessions = new Map(sessions.flatMap((s) => { const e = this.#sessions.get(s.key); return e ? [[s.key, e] as const] : []; }));
    let active: string | null = null;
    let at = -Infinity;
    for (const s of sessions) {
      const t = live.info(s.key)?.lastWriteMs ?? -Infinity;
      if (t > at) [active, at] = [s.key, t];
    }
    const summaries = sessions.map(summarize);
    return { generation, sessions: summaries, list: summaries.map(entryOfSummary), changed, removed: up.removed, unknown: live.unknown(), active };
  }

  /** Rebuilds a live entry's rows from `fromTurn` on (view/chat/live.ts); returns the rows kept. */
  #retail(entry: Entry, before: ChatRow[], fromTurn: number): number {
    const { session, metadata } = entry.loaded.result;
    const { rows, keep } = rebuildTail(before, session, entry.loaded.children, { metadata, sessionOver: entry.live?.quiet ?? false }, fromTurn);
    entry.rows = markLiveThought(session, rows);
    return keep;
  }

  /** What a followed session is doing now; `quiet` (from the page's clock; null: unchanged) settles its open turn. */
  liveState(key: string, quiet: boolean | null): LiveState | null {
    const entry = this.#sessions.get(key);
    const info = this.#live?.info(key);
    if (!entry?.live || !info) return null;
    let rebuilt = false;
    if (quiet !== null && entry.live.quiet !== quiet) {
      entry.live.quiet = quiet;
      // Quiet settles only the open (last) turn.
      const last = entry.loaded.result.session.turns.length - 1;
      if (entry.rows && last >= 0) this.#retail(entry, entry.rows, last);
      else entry.rows = null;
      rebuilt = true;
    }
    // Read with the turn open whatever quiet says (so the page sees it resume), once per change.
    entry.live.activity ??= liveActivity(
      entry.loaded.result.session,
      entry.rows && !entry.live.quiet ? entry.rows : buildChatRows(entry.loaded.result.session, entry.loaded.children, { metadata: entry.loaded.result.metadata })
    );
    return { ...info, activity: entry.live.activity, rebuilt };
  }
}

/** Index entries by row: a followed chat keeps most row objects across updates, so their entries are made once. */
const indexEntries = new WeakMap<ChatRow, ReturnType<typeof rowIndexOf>>();
function indexEntryOf(row: ChatRow): ReturnType<typeof rowIndexOf> {
  let e = indexEntries.get(row);
  if (!e) indexEntries.set(row, (e = rowIndexOf(row)));
  return e;
}

function rowsOf(loaded: LoadedSession, extra: { sessionOver?: boolean } = {}): ChatRow[] {
  return buildChatRows(loaded.result.session, loaded.children, { metadata: loaded.result.metadata, ...extra });
}

/** Lets queued messages (a newer query) run; a MessageChannel hop is not clamped like setTimeout. */
function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

function entryOfScan(s: ScannedSession): ListEntry {
  return {
    key: s.key,
    project: s.project,
    harness: s.harness,
    harnessLabel: HARNESS_LABELS[s.harness],
    title: s.title,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    bytes: s.bytes,
    turns: s.turnsEst,
    turnsExact: false,
    subagents: s.subagents,
    cwd: s.cwd,
    model: s.model
  };
}

function entryOfSummary(s: SessionSummary): ListEntry {
  const leaf = s.files.find((f) => f.kind === 'transcript') ?? s.files[0];
  return {
    key: s.key,
    project: leaf ? dirOf(leaf.path) : '',
    harness: s.meta.harness ?? 'claude-code',
    harnessLabel: s.meta.harnessLabel ?? 'Claude Code',
    title: s.meta.title,
    startedAt: s.meta.startedAt,
    endedAt: s.meta.endedAt,
    bytes: s.meta.bytes,
    turns: s.turns,
    turnsExact: true,
    subagents: s.meta.subagents,
    cwd: null,
    model: null
  };
}

function summarize(s: LoadedSession): SessionSummary {
  const { session } = s.result;
  let atoms = 0;
  let segments = 0;
  for (const turn of session.turns) {
    atoms += turn.atoms.length;
    segments += segmentsOf(turn, session.rompUuid).length;
  }
  return {
    key: s.key,
    meta: s.meta,
    files: s.files,
    turns: session.turns.length,
    atoms,
    segments,
    issues: s.issues.slice(0, ISSUES_SENT),
    issueCount: s.issues.length,
    accounting: s.result.accounting
  };
}

async function inputTexts(inputs: InputFile[], onProgress?: OnExportProgress): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  for (const f of inputs) {
    out.push({ path: f.path, text: await f.blob.text() });
    onProgress?.({ task: 'scan', done: out.length, total: inputs.length });
  }
  return out;
}

function mbPerSec(bytes: number, started: number): number {
  const s = (performance.now() - started) / 1000;
  return s > 0 ? bytes / 1e6 / s : 0;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
