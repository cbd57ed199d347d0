// The built sessions: the ones a full load (or following) keeps, the byte-bounded LRU of
// listed sessions built on demand, the idle prefetch, each session's chat rows and searchable
// text, and the session restored from the persisted row index (store/row-index.ts) whose model
// is rebuilt in the background. Every question that needs a session's model goes through
// built(key). It reads the listing through `Listing` (catalog.ts), and drops what it built from a
// listing when the catalog says the listing changed.
import { loadSessions } from '../../ingest/load-files.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import type { ScannedSession } from '../../ingest/scan.ts';
import { ByteLru } from '../../ingest/lru.ts';
import { rowIndexOf, type ChatRow } from '../../view/chat/index.ts';
import { markLiveThought } from '../../view/chat/live.ts';
import { layoutTimeline, type TimelineLayout } from '../../view/timeline/layout.ts';
import { withSubagentLanes } from '../../view/timeline/subagent-lanes.ts';
import { fieldsOfRows } from '../../view/search/index.ts';
import type { RowIndexStore, WriteStats } from '../../store/row-index.ts';
import type { ChatIndex, InputFile, SessionSummary } from '../protocol.ts';
import { rowsOf, summarize } from './summaries.ts';
import { yieldToEvents, type Entry, type Listing, type SearchData, type SessionSource } from './types.ts';

/** The persisted row index as the engine stores it. */
export type RowIndex = RowIndexStore<SessionSummary, ChatRow, TimelineLayout>;
/** How long a restored session waits before its model is rebuilt, unless something needs it
 *  sooner: the page's first row requests are answered before the worker turns to parsing. */
const REBUILD_DELAY_MS = 400;
/** Source bytes of built sessions kept besides the open one (a built session is several times its files). */
export const BUILT_BUDGET = 96 * 1024 * 1024;

export class Sessions implements SessionSource {
  #catalog: Listing;
  /** Sessions built by a full load (small drops) or followed: kept for the whole load. */
  #loaded = new Map<string, Entry>();
  #lru: ByteLru<Entry>;
  #building = new Map<string, Promise<Entry | null>>();
  #prefetch = 0;
  #searchData = new WeakMap<Entry, SearchData>();
  /** A serial per rows array handed out in index pages (rows are rebuilt, never changed in place). */
  #stamps = new WeakMap<ChatRow[], number>();
  #lastStamp = 0;
  /** The persisted row index, opened on first use (null: none, e.g. no IndexedDB). */
  #openRowIndex: () => Promise<RowIndex | null>;
  #rowIndex: Promise<RowIndex | null> | null = null;
  /** A session restored from its persisted index, served until its model is rebuilt. */
  #persisted: { key: string; rows: ChatRow[]; timeline: TimelineLayout } | null = null;
  /** Restored sessions whose model is being (or will be) rebuilt: calling starts it now. */
  #restoring = new Map<string, () => Promise<Entry | null>>();

  constructor(catalog: Listing, opts: { builtBudget?: number; rowIndex?: () => Promise<RowIndex | null> }) {
    this.#catalog = catalog;
    this.#lru = new ByteLru<Entry>(opts.builtBudget ?? BUILT_BUDGET, 1);
    this.#openRowIndex = opts.rowIndex ?? (() => Promise.resolve(null));
    catalog.onChange((change) => {
      // A new load cancels the prefetch in flight.
      if (change === 'load') this.#prefetch++;
      // Every load and following replaces a restored session too.
      else this.#forget();
    });
  }

  #forget(): void {
    this.#persisted = null;
    this.#restoring.clear();
    this.#lru.clear();
    this.#building.clear();
  }

  // ── what is kept ─────────────────────────────────────────────────────────

  /** Replaces the full load's (or followed) sessions. */
  setLoaded(entries: Map<string, Entry>): void {
    this.#loaded = entries;
  }

  /** The full load's (or followed) sessions, in their order (following edits it in place). */
  loadedEntries(): Map<string, Entry> {
    return this.#loaded;
  }

  loadedKeys(): string[] {
    return [...this.#loaded.keys()];
  }

  builtKeys(): string[] {
    return [...this.#loaded.keys(), ...this.#lru.keys()];
  }

  isBuilt(key: string): boolean {
    return this.#loaded.has(key) || this.#lru.has(key) || this.#restoring.has(key);
  }

  knownKeys(): string[] {
    const listed = this.#catalog.sessions();
    if (listed.length) return listed.map((s) => s.key);
    const keys = [...this.#loaded.keys()];
    // A restored session counts before its model is back (its search awaits the rebuild).
    return this.#persisted && !keys.includes(this.#persisted.key) ? [this.#persisted.key, ...keys] : keys;
  }

  /**
   * THE way to a built session: every method that needs a session's model goes through here.
   * Full loads answer from memory; in scan mode the session is built from its File handles on
   * first use (concurrent callers share one build) and kept in the byte-bounded LRU.
   */
  async built(key: string): Promise<Entry | null> {
    const fixed = this.#loaded.get(key);
    if (fixed) return fixed;
    const hit = this.#lru.get(key);
    if (hit) return hit;
    const restore = this.#restoring.get(key);
    if (restore) return restore();
    const listed = this.#catalog.listed(key);
    if (!listed) return null;
    let pending = this.#building.get(key);
    if (!pending) {
      pending = this.#build(listed).finally(() => this.#building.delete(key));
      this.#building.set(key, pending);
    }
    return pending;
  }

  async #build(listed: ScannedSession): Promise<Entry | null> {
    const generation = this.#catalog.generation;
    const loaded = await this.#catalog.parse(listed);
    if (!loaded || generation !== this.#catalog.generation || this.#catalog.listed(listed.key) !== listed) return null;
    const entry: Entry = { loaded, rows: null };
    this.#lru.set(listed.key, entry, listed.bytes);
    return entry;
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
      if (this.#lru.has(key) || this.#loaded.has(key)) continue;
      // Yield first, so a request from the page that arrived meanwhile is answered before the build.
      await new Promise((r) => setTimeout(r, 0));
      if (token !== this.#prefetch) break;
      if (await this.built(key)) done.push(key);
    }
    return done;
  }

  async rows(key: string): Promise<ChatRow[] | null> {
    if (this.#persisted?.key === key) return this.#persisted.rows;
    const entry = await this.built(key);
    if (!entry) return null;
    if (entry.rows) return entry.rows;
    // A followed session's open turn settles while it is quiet, and its live thought is marked.
    entry.rows = entry.live
      ? markLiveThought(entry.loaded.result.session, rowsOf(entry.loaded, { sessionOver: entry.live.quiet }))
      : rowsOf(entry.loaded);
    return entry.rows;
  }

  async searchFields(key: string): Promise<SearchData | null> {
    const rows = await this.rows(key);
    const entry = await this.built(key);
    if (!rows || !entry) return null;
    let data = this.#searchData.get(entry);
    if (!data) this.#searchData.set(entry, (data = { fields: fieldsOfRows(rows), folded: [] }));
    return data;
  }

  // ── the page's questions about a session ─────────────────────────────────

  /** The index entries of one session's chat, rows [from, to): a page of a big index (the page
   *  asks for one in pages, state/chat-index.ts) or a followed chat's changed tail. `stamp` names
   *  the rows they were taken from: pages with one stamp belong together. */
  async chatIndex(key: string, from = 0, to = Infinity): Promise<ChatIndex | null> {
    const rows = await this.rows(key);
    if (!rows) return null;
    let stamp = this.#stamps.get(rows);
    if (stamp === undefined) this.#stamps.set(rows, (stamp = ++this.#lastStamp));
    return { sessionKey: key, rows: rows.slice(Math.max(0, from), to).map(indexEntryOf), total: rows.length, stamp };
  }

  /** Full rows [from, to) of one session's chat, for the rows about to be drawn. */
  async chatRows(key: string, from: number, to: number): Promise<ChatRow[]> {
    return (await this.rows(key))?.slice(Math.max(0, from), Math.max(from, to)) ?? [];
  }

  /** The row holding an atom (a landing target), or -1 when no row holds it. */
  async findAtomRow(key: string, atomUuid: string): Promise<number> {
    const rows = await this.rows(key);
    if (!rows) return -1;
    const index = rows.findIndex((r) => r.atomUuid === atomUuid || r.atomUuids.includes(atomUuid));
    if (index >= 0) return index;
    // An atom of a subagent transcript sits inside its delegation row (search lands there).
    return (await this.searchFields(key))?.fields.find((f) => f.atomUuid === atomUuid)?.row ?? -1;
  }

  /** One shared timeline for the given sessions (all sessions of a full load when keys is empty). */
  async timeline(keys: string[]): Promise<TimelineLayout> {
    const p = this.#persisted;
    if (p && (keys.length === 0 || (keys.length === 1 && keys[0] === p.key))) return p.timeline;
    const picked = keys.length ? (await Promise.all(keys.map((k) => this.built(k)))).filter((e) => !!e) : [...this.#loaded.values()];
    const layout = layoutTimeline(
      picked.map(({ loaded }) => ({ key: loaded.key, label: loaded.title, session: loaded.result.session, children: loaded.children }))
    );
    // One session open: its detail, the main lane plus a lane per subagent.
    return picked.length === 1 ? withSubagentLanes(layout) : layout;
  }

  /** Issues of one session, for the issues panel (all of them, capped for sanity). */
  async issues(key: string, limit = 5000) {
    return (await this.built(key))?.loaded.issues.slice(0, limit) ?? [];
  }

  /** Builds a listed session if it is not built yet and returns its summary (null: not listed / unreadable). */
  async open(key: string): Promise<SessionSummary | null> {
    const entry = await this.built(key);
    return entry ? summarize(entry.loaded) : null;
  }

  // ── cached reopen (store/row-index.ts) ───────────────────────────────────

  rowStore(): Promise<RowIndex | null> {
    this.#rowIndex ??= this.#openRowIndex().catch(() => null);
    return this.#rowIndex;
  }

  /** Serves `key` from its persisted rows and timeline; its model is rebuilt from `files` after
   *  a short delay, or at once when something needs it. Called right after the catalog began
   *  `generation` and dropped its listing. */
  restore(key: string, hit: { rows: ChatRow[]; timeline: TimelineLayout }, files: InputFile[], generation: number, signal: AbortSignal): void {
    this.#loaded = new Map();
    this.#persisted = { key, rows: hit.rows, timeline: hit.timeline };
    let pending: Promise<Entry | null> | null = null;
    const start = () => (pending ??= this.#rebuild(key, files, generation, signal));
    this.#restoring.set(key, start);
    setTimeout(start, REBUILD_DELAY_MS);
  }

  /** The restored session's model, parsed from its cached files; its persisted rows stay its rows. */
  async #rebuild(key: string, files: InputFile[], generation: number, signal: AbortSignal): Promise<Entry | null> {
    const out = await loadSessions(files, { signal }).catch(() => null);
    const current = () => !signal.aborted && generation === this.#catalog.generation && this.#restoring.has(key);
    if (!out || !current()) return null;
    const loaded = out.sessions.find((s) => s.key === key) ?? out.sessions[0];
    if (!loaded) {
      this.#restoring.delete(key);
      return null;
    }
    const rows = this.#persisted?.key === key ? this.#persisted.rows : null;
    const entry: Entry = { loaded: { ...loaded, key }, rows };
    this.#loaded = new Map(out.sessions.map((s: LoadedSession) => [s === loaded ? key : s.key, s === loaded ? entry : { loaded: s, rows: null }]));
    this.#persisted = null;
    this.#restoring.delete(key);
    return entry;
  }

  /** Persists a built session's summary, chat rows and timeline under its content hash, in
   *  chunks (the worker answers the page between them). Null: nothing written (already there,
   *  not built, followed, or no storage). */
  async persistIndex(key: string, contentHash: string): Promise<WriteStats | null> {
    const store = await this.rowStore();
    if (!store || (await store.has(contentHash))) return null;
    const entry = await this.built(key);
    // A followed session changes under us; its rows carry a live edge that a reopen must not show.
    if (!entry || entry.live) return null;
    const rows = await this.rows(key);
    if (!rows) return null;
    const timeline = await this.timeline([key]);
    return store.write(contentHash, { sessionKey: key, summary: summarize(entry.loaded), rows, timeline }, yieldToEvents);
  }

  /** Forgets every persisted index whose session is no longer cached (`keep`: the cached sessions' content hashes). */
  async pruneIndexes(keep: string[]): Promise<number> {
    const store = await this.rowStore();
    return store ? store.prune(new Set(keep)) : 0;
  }
}

/** Index entries by row: a followed chat keeps most row objects across updates, so their entries are made once. */
const indexEntries = new WeakMap<ChatRow, ReturnType<typeof rowIndexOf>>();
function indexEntryOf(row: ChatRow): ReturnType<typeof rowIndexOf> {
  let e = indexEntries.get(row);
  if (!e) indexEntries.set(row, (e = rowIndexOf(row)));
  return e;
}
