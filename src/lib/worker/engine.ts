// The parse engine: the worker's composition root and the page's surface (parse.worker.ts exposes
// it; engine-client.ts runs it on the main thread when no worker starts). No capability lives
// here: it creates the services, hands each its narrow interfaces (services/types.ts), forwards.
//   catalog   the current load (generation, abort), staging, the scan, the listing and its File handles
//   loads     the load funnel: scan, then a full parse (small drop) or a listing (big drop); cached reopen
//   sessions  the built sessions: full load, LRU, #build, prefetch, chat rows, persisted row index
//   search    engine-thread search, the pool, unbuilt sessions' text, history queries (historySearch)
//   usage / exports / follow / history   per-session usage, downloads and secrets, a followed
//             folder, the background history index of every listed session (engine.history)
// A service hears of a new load through catalog.onChange; a background service waits out the
// `foreground` work (services/foreground.ts). A new service: construct it below with what it
// needs, and forward its methods here, in parse.worker.ts and in engine-client.ts.
import type { SearchPool } from '../view/search/pool.ts';
import type { SearchBatch, SearchRequest } from '../view/search/index.ts';
import type { ExportFormat, OnExportProgress } from '../view/export/index.ts';
import type { RedactOptions } from '../view/redact/index.ts';
import type { StoredScan } from '../ingest/scan.ts';
import type { FollowChange, InputFile, ListSnapshot, LoadProgress } from './protocol.ts';
import { startSearchPool } from './search-pool.ts';
import { Catalog } from './services/catalog.ts';
import { Loads } from './services/loads.ts';
import { Sessions, type RowIndex } from './services/sessions.ts';
import { Search } from './services/search.ts';
import { Usage } from './services/usage.ts';
import { Exports } from './services/export.ts';
import { Follow } from './services/follow.ts';
import { Foreground } from './services/foreground.ts';
import { HistoryService, type HistoryStoreOpener } from './services/history.ts';
import { startHistoryLanes } from './history-lanes.ts';
import { startScanLanes } from './scan-lanes.ts';
import { HistorySearch } from './services/history-search.ts';

export type { RowIndex } from './services/sessions.ts';

/** Characters of not-built sessions' searchable text kept between queries (~2 bytes each: a bound on memory). */
const CACHED_SEARCH_CHARS = 64_000_000;

export class Engine {
  #catalog = new Catalog({ scanLanes: startScanLanes });
  #foreground = new Foreground();
  #sessions: Sessions;
  #loads: Loads;
  #search: Search;
  #usage: Usage;
  #exports: Exports;
  #follow: Follow;
  readonly history: HistoryService;
  readonly historySearch: HistorySearch;

  /** `builtBudget`: source bytes of built sessions a scanned drop keeps (the open one always stays).
   *  `rowIndex`: opens the persisted row index (the worker shell passes store/row-index.ts).
   *  `searchPool`: starts the search pool (default: search workers, where they can start). */
  constructor(opts: { builtBudget?: number; rowIndex?: () => Promise<RowIndex | null>; searchPool?: () => SearchPool | null; historyStore?: HistoryStoreOpener; historyLanes?: typeof startHistoryLanes } = {}) {
    const catalog = this.#catalog;
    this.#sessions = new Sessions(catalog, { builtBudget: opts.builtBudget, rowIndex: opts.rowIndex });
    this.#loads = new Loads(catalog, this.#sessions);
    this.#search = new Search(catalog, this.#sessions, { cachedChars: CACHED_SEARCH_CHARS, startPool: opts.searchPool ?? (() => startSearchPool(CACHED_SEARCH_CHARS)), history: (this.historySearch = new HistorySearch(catalog, (keys) => this.history.kept.texts(keys))), historyReady: () => this.history.status().ready });
    this.#usage = new Usage(this.#sessions);
    this.#exports = new Exports(this.#sessions);
    this.#follow = new Follow(catalog, this.#sessions);
    this.history = new HistoryService({ store: opts.historyStore ?? (() => Promise.resolve(null)), lanes: opts.historyLanes ?? startHistoryLanes, feed: { listing: catalog, loaded: () => this.#sessions.loadedEntries() }, foreground: this.#foreground, onSearch: (k, s) => this.historySearch.put(k, s) });
  }

  // ── catalog and loads ────────────────────────────────────────────────────
  /** Hands over part of a big drop's files ahead of load(generation, { files: [], staged: true }). */
  stage(generation: number, files: InputFile[], known: StoredScan[] = []) {
    return this.#catalog.stage(generation, files, known);
  }

  /** Parses files into sessions, replacing what was loaded before (pasted text arrives as a Blob). */
  load(generation: number, given: { files: InputFile[]; staged?: boolean }, onProgress?: (p: LoadProgress) => void, onList?: (snapshot: ListSnapshot) => void) {
    return this.#loads.load(generation, given, onProgress, onList);
  }

  /** Reopens a cached session from its persisted row index, else by a full load of `files`. */
  loadPersisted(generation: number, given: { key: string; contentHash: string; files: InputFile[] }, onProgress?: (p: LoadProgress) => void, onList?: (snapshot: ListSnapshot) => void) {
    return this.#loads.loadPersisted(generation, given, onProgress, onList);
  }

  /** The last load's scan: wall time (ms), files, files whose earlier scan was reused, transcripts read whole. */
  scanStats() {
    return this.#catalog.scanStats();
  }

  /** Stored forms [from, to) of the last load's scans, for the page's scan index. */
  scanRecords(from: number, to: number) {
    return this.#catalog.scanRecords(from, to);
  }

  // ── built sessions ───────────────────────────────────────────────────────
  /** The compact row index of one session's chat (built once, kept), rows [from, to): a page,
   *  or a followed chat's changed tail (the page keeps the rest). */
  chatIndex(key: string, from?: number, to?: number) {
    return this.#foreground.run(() => this.#sessions.chatIndex(key, from, to));
  }

  chatRows(key: string, from: number, to: number) {
    return this.#sessions.chatRows(key, from, to);
  }

  findAtomRow(key: string, atomUuid: string) {
    return this.#sessions.findAtomRow(key, atomUuid);
  }

  timeline(keys: string[]) {
    return this.#sessions.timeline(keys);
  }

  issues(key: string, limit?: number) {
    return this.#sessions.issues(key, limit);
  }

  open(key: string) {
    return this.#foreground.run(() => this.#sessions.open(key));
  }

  prefetch(keys: string[]) {
    return this.#sessions.prefetch(keys);
  }

  builtKeys() {
    return this.#sessions.builtKeys();
  }

  persistIndex(key: string, contentHash: string) {
    return this.#sessions.persistIndex(key, contentHash);
  }

  pruneIndexes(keep: string[]) {
    return this.#sessions.pruneIndexes(keep);
  }

  // ── search ───────────────────────────────────────────────────────────────
  search(generation: number, request: SearchRequest, keys: string[], onBatch?: (b: SearchBatch) => void) {
    return this.#foreground.run(() => this.#search.search(generation, request, keys, onBatch));
  }

  prepareSearch(keys: string[], history = false) {
    return this.#search.prepareSearch(keys, history);
  }

  /** The stored history joins the index (no tree dropped: the history view's); the search lanes start, as once an index is ready. */
  openStoredHistory() {
    return this.history.kept.openStored().then((r) => (this.#search.startLanes(), r));
  }

  /** Indexes the history; once it is ready, the search lanes start (a first history query waited on them). */
  startHistory() {
    return this.history.start().then((status) => (status.ready && this.#search.startLanes(), status));
  }

  searchCached(generation: number, request: SearchRequest, keys: string[], getFiles: (key: string) => Promise<InputFile[] | null>, onBatch?: (b: SearchBatch) => void) {
    return this.#foreground.run(() => this.#search.searchCached(generation, request, keys, getFiles, onBatch));
  }

  cancelSearch(generation: number) {
    this.#search.cancelSearch(generation);
  }

  // ── usage, exports, following ────────────────────────────────────────────
  usage(key: string) {
    return this.#usage.usage(key);
  }

  projectUsage() {
    return this.#usage.projectUsage();
  }

  scanSecrets(key: string, options: Partial<RedactOptions>, onProgress?: OnExportProgress) {
    return this.#exports.scanSecrets(key, options, onProgress);
  }

  exportText(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress, branches = true) {
    return this.#exports.exportText(key, format, options, onProgress, branches);
  }

  exportBlob(key: string, format: ExportFormat, options: Partial<RedactOptions> | null, onProgress?: OnExportProgress, branches = true) {
    return this.#exports.exportBlob(key, format, options, onProgress, branches);
  }

  shareFiles(key: string, options: Partial<RedactOptions> | null) {
    return this.#exports.shareFiles(key, options);
  }

  followStart(generation: number) {
    this.#follow.followStart(generation);
  }

  followAppend(generation: number, changes: FollowChange[]) {
    return this.history.followed(this.#follow.followAppend(generation, changes));
  }

  followStop() {
    this.#follow.followStop();
  }

  liveState(key: string, quiet: boolean | null) {
    return this.#follow.liveState(key, quiet);
  }
}
