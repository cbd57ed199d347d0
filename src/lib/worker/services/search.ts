// Search: the engine-thread search over built sessions, the search pool (search-pool.ts) that
// builds a big drop's listed sessions side by side, the cached text of sessions that are not
// built, and the search generation (a newer search, or cancelSearch, stops the one in flight
// between slices and aborts its parsing). Built sessions' text comes from `SessionSource`
// (sessions.ts); listed ones from `Listing` (catalog.ts), whose changes clear the pool. A history-
// scoped query goes through the history search indexes (history-search.ts): a session its
// filter rules out is skipped, an indexed one is decoded from its index instead of built.
import { loadSessions } from '../../ingest/load-files.ts';
import { runSearch, SessionTextCache, textChars, type SearchBatch, type SearchOutcome, type SearchRequest } from '../../view/search/index.ts';
import { fieldsOfLoaded } from '../../view/search/lane.ts';
import { fieldsOfIndexText, type SessionSearchIndex } from '../../view/search/history-index.ts';
import type { HistorySearch } from './history-search.ts';
import type { SearchPool } from '../../view/search/pool.ts';
import type { InputFile } from '../protocol.ts';
import { scanInPool } from '../search-pool.ts';
import { yieldToEvents, type Listing, type SearchData, type SessionSource } from './types.ts';

/** The history search indexes as the search sees them (history-search.ts). */
type HistoryIndexes = Pick<HistorySearch, 'sources' | 'get' | 'keys' | 'size' | 'withTexts'>;

export class Search {
  #catalog: Listing;
  #sessions: SessionSource;
  #searchGeneration = 0;
  #searchAbort: AbortController | null = null;
  /** Searchable text of sessions that are not built (cached or listed), parsed on a search's way through them. */
  #cachedSearch: SessionTextCache;
  /** Search workers that build a big drop's listed sessions side by side (search-pool.ts); null: none here. */
  #pool: SearchPool | null | undefined;
  #startPool: () => SearchPool | null;

  #history: HistoryIndexes;
  /** A number per search index object, for the lanes' cache keys. */
  #indexIds = new WeakMap<SessionSearchIndex, number>();
  /** Sessions a history warm-up has sent to the lanes and not heard back of. */
  #warming = new Set<string>();
  #nextIndexId = 0;

  /** Whether the history index has read every listed session (the root asks the history service). */
  #historyReady: () => boolean;

  constructor(catalog: Listing, sessions: SessionSource, opts: { cachedChars: number; startPool: () => SearchPool | null; history: HistoryIndexes; historyReady?: () => boolean }) {
    this.#catalog = catalog;
    this.#historyReady = opts.historyReady ?? (() => true);
    this.#sessions = sessions;
    this.#history = opts.history;
    this.#cachedSearch = new SessionTextCache(opts.cachedChars);
    this.#startPool = opts.startPool;
    // The pool's kept texts belong to the listing they were built from.
    catalog.onChange((change) => {
      if (change === 'listing') this.#pool?.clear();
    });
  }

  /**
   * Searches the given sessions (all loaded ones when `keys` is empty). A newer search (a higher
   * generation) or cancelSearch stops this one between slices; hits stream to `onBatch`.
   */
  async search(generation: number, request: SearchRequest, keys: string[], onBatch?: (b: SearchBatch) => void): Promise<SearchOutcome> {
    const signal = this.#newSearch(generation);
    const sessions = this.#sessions;
    // History scope: also every session read back from the stored history (no files: its index only).
    const known = request.history ? this.#historyKeys() : sessions.knownKeys();
    // Built sessions first (their text is ready), then listed ones, parsed on the way; a history
    // query over given keys keeps their order (the field groups them by project, newest first).
    const knownSet = new Set(known);
    const given = keys.length ? keys.filter((k) => knownSet.has(k)) : known;
    const picked = request.history && keys.length ? given : given.sort((a, b) => Number(!sessions.isBuilt(a)) - Number(!sessions.isBuilt(b)));
    // Listed sessions not built and not in the engine's text cache go to the search workers, side by side.
    if (request.history || picked.some((k) => this.#catalog.listed(k) && !sessions.isBuilt(k))) this.startLanes();
    const pool = this.#pool ?? null;
    const lane = (key: string, index?: SessionSearchIndex) => {
      const session = pool && this.#poolSession(key, index);
      return session ? scanInPool(pool, request, session) : undefined;
    };
    const scanSource = (key: string) => ({ key, fields: () => (sessions.isBuilt(key) ? sessions.searchFields(key) : this.#listedFields(key, signal)), scan: lane(key) });
    const hooks = { cancelled: () => generation !== this.#searchGeneration, pause: yieldToEvents, onBatch };
    if (!request.history) return runSearch(request, picked.map(scanSource), hooks);
    // History scope: an indexed session not built is decoded from its index, not built (history-search.ts).
    const loaded = new Set(sessions.knownKeys());
    const fromIndex = (key: string, index: SessionSearchIndex) =>
      sessions.isBuilt(key) || (!this.#catalog.listed(key) && loaded.has(key)) ? null : { key, fields: async () => this.#cachedSearch.get(key) ?? this.#cachedSearch.set(key, fieldsOfIndexText(index.text)), scan: lane(key, index) };
    // A stored index's text is read when its filter keeps the session (a rare string: a few).
    await this.#history.withTexts(picked, request, () => generation === this.#searchGeneration);
    const { sources, info } = this.#history.sources(request, picked, scanSource, fromIndex);
    const out = await runSearch(request, sources, hooks);
    return out.ok ? { ...out, history: info } : out;
  }

  /** A listed session as the pool searches it (from its index when it has one); null when the
   *  pool is not for it (built, or in the engine's own text cache). */
  #poolSession(key: string, index?: SessionSearchIndex) {
    const inListing = this.#catalog.listed(key);
    // A stored session without its files (no tree dropped) is searched from its index alone.
    const listed = inListing ?? (index ? { key, id: key, project: '', harness: 'claude-code' as const, files: [] } : null);
    if (!listed || this.#sessions.isBuilt(key) || this.#cachedSearch.get(key)) return null;
    // Text decoded from an index is kept under that index (a followed session's new one is another).
    const cacheKey = `${inListing ? this.#catalog.generation : 'stored'}:${key}${index ? `#${this.#indexId(index)}` : ''}`;
    return { cacheKey, key, files: inListing ? this.#catalog.listedFiles(inListing) : [], listed, indexText: index?.text };
  }

  /** History scope, the field got focus: once the history index has read every listed session, the
   *  lanes decode the indexed ones they do not keep yet (an empty query: decoded and kept, nothing
   *  scanned), so the first query scans kept text instead of decoding ~250 M characters. Not while
   *  the history is still indexing (its lanes need the memory). A query cancels what has not
   *  started. Resolves when done or cut short, with how many sessions were decoded. */
  async #warmHistory(): Promise<number> {
    const keys = this.#historyKeys();
    if (!keys.length || !this.#historyReady()) return 0;
    this.startLanes();
    const pool = this.#pool;
    if (!pool) return 0;
    // Every stored text first (a query then waits for none); a query that starts meanwhile reads its own.
    const generation = this.#searchGeneration;
    await this.#history.withTexts(keys, null, () => generation === this.#searchGeneration);
    if (generation !== this.#searchGeneration) return 0;
    const jobs: Promise<unknown>[] = [];
    for (const key of keys) {
      const index = this.#history.get(key);
      const session = index && this.#poolSession(key, index);
      // Kept already, or on its way from a warm-up in flight: nothing to send.
      if (!session || pool.keeps(session.cacheKey) || this.#warming.has(session.cacheKey)) continue;
      this.#warming.add(session.cacheKey);
      jobs.push(scanInPool(pool, { query: '' }, session)(() => 0).finally(() => this.#warming.delete(session.cacheKey)));
    }
    return (await Promise.all(jobs)).filter(Boolean).length;
  }

  /** Starts the search pool's lanes ahead of a query (their workers load the search code), when
   *  the load lists sessions for them to read: a drop parsed whole is searched here. */
  startLanes(): void {
    if (this.#pool === undefined && (this.#catalog.sessions().length || this.#storedOnly())) this.#pool = this.#startPool();
  }

  /** Stored sessions that are neither listed nor loaded (the stored history read back): searched from their index in lanes. */
  #storedOnly(): boolean {
    if (!this.#history.size) return false;
    const known = new Set(this.#sessions.knownKeys());
    return this.#history.keys().some((k) => !known.has(k));
  }

  /** The history scope's sessions: the loaded or listed ones, then stored ones that are neither. */
  #historyKeys(): string[] {
    const known = this.#sessions.knownKeys();
    const seen = new Set(known);
    return [...known, ...this.#history.keys().filter((k) => !seen.has(k))];
  }

  /** Builds the searchable fields of these sessions ahead of the first keystroke (the field got
   *  focus); `history`: the history scope's field (#warmHistory). */
  async prepareSearch(keys: string[], history = false): Promise<{ fields: number; chars: number; ms: number; warmed?: number }> {
    if (history) return { fields: 0, chars: 0, ms: 0, warmed: await this.#warmHistory() };
    const started = performance.now();
    let fields = 0;
    let chars = 0;
    for (const key of keys.length ? keys : this.#sessions.loadedKeys()) {
      const data = await this.#sessions.searchFields(key);
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
    const sessions = this.#sessions;
    const loadedFirst = [...keys.filter((k) => sessions.isBuilt(k)), ...keys.filter((k) => !sessions.isBuilt(k))];
    const sources = loadedFirst.map((key) => ({
      key,
      fields: () => (sessions.isBuilt(key) ? sessions.searchFields(key) : this.#cachedFields(key, getFiles, signal))
    }));
    return runSearch(request, sources, { cancelled: () => generation !== this.#searchGeneration, pause: yieldToEvents, onBatch });
  }

  /** Stops the search in flight (the field was cleared or closed). */
  cancelSearch(generation: number): void {
    if (generation >= this.#searchGeneration) this.#newSearch(generation + 1);
  }

  #indexId(index: SessionSearchIndex): number {
    let id = this.#indexIds.get(index);
    if (id === undefined) this.#indexIds.set(index, (id = ++this.#nextIndexId));
    return id;
  }

  #newSearch(generation: number): AbortSignal {
    this.#searchGeneration = generation;
    this.#searchAbort?.abort();
    this.#searchAbort = new AbortController();
    this.#pool?.cancel();
    return this.#searchAbort.signal;
  }

  async #cachedFields(key: string, getFiles: (key: string) => Promise<InputFile[] | null>, signal: AbortSignal): Promise<SearchData | null> {
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

  /** A listed session that is not built: parsed for its text only, not kept built (the LRU stays for opened ones).
   *  Where search workers run (search-pool.ts), they do this instead; this is the path without them. */
  async #listedFields(key: string, signal: AbortSignal): Promise<SearchData | null> {
    const known = this.#cachedSearch.get(key);
    if (known) return known;
    const listed = this.#catalog.listed(key);
    if (!listed || signal.aborted) return null;
    const loaded = await this.#catalog.parse(listed);
    if (!loaded || signal.aborted) return null;
    return this.#cachedSearch.set(key, fieldsOfLoaded(loaded));
  }
}
