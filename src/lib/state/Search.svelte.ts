// Search: the query, its options and scope, the hits streaming back from the worker, and which
// hit is current. Every keystroke starts a new query with a higher generation; the worker drops
// the older one between slices and batches of a stale generation are ignored here. Landing on a
// hit goes through the Navigator (opens the session, writes `#s=…&a=…&q=…`), then opens what
// holds the hit (group, call, subagent, "show all") and asks the chat to mark the match.
import type { FieldAuthor, FieldKind, SearchBatch, SearchHit, SearchOptions, SearchOutcome, SearchRequest } from '../view/search/index.ts';
import { projectOfSession, projectSessionKeys, type ListEntry } from '../view/sessions/index.ts';
import { historyKeys, NO_FACETS, type HistoryFacets } from '../view/search/history-facets.ts';
import type { HistoryRunInfo } from '../view/search/run.ts';
import { openCache, type SessionCache } from '../store/session-cache.ts';
import type { SessionSummary } from '../worker/protocol.ts';
import type { ChatUi } from './ChatUi.svelte.ts';
import { engineClient, proxied } from './engine-client.ts';
import type { Navigator } from './Navigator.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

import { scopeOf, type ScopeAlias, type SearchScopeName } from '../view/search/scopes.ts';
export type { SearchScopeName };
/** What a query runs over: a scope, or an old name (the hook runs `loaded` / `cached` as before). */
type AnyScope = SearchScopeName | ScopeAlias;
/** How long typing must pause before a query over more than the open session runs (ms). */
export const TYPING_PAUSE_MS = 200;
export type { FieldAuthor, FieldKind, SearchHit };

export interface SearchFilters {
  authors: FieldAuthor[];
  kinds: FieldKind[];
  /** Tool names, comma separated as typed. */
  tools: string;
  /** Failed tool calls only. */
  failedCalls: boolean;
}

/** What the chat should mark after a landing: the match text inside the landed atom's element. */
export interface MatchMark {
  atomUuid: string;
  match: string;
  seq: number;
}

export interface AutomationResult {
  total: number;
  hits: { sessionKey: string; atomUuid: string }[];
  ms: number;
  /** Time to the first batch holding a hit, ms (null without hits). */
  firstMs: number | null;
  /** Sessions the search workers searched (listed sessions of a big drop that were not built), and their summed time there. */
  pooled: number;
  pooledMs: number;
}

export class Search {
  open = $state(false);
  query = $state('');
  options = $state<Required<SearchOptions>>({ caseSensitive: false, wholeWord: false, regex: false, ignoreDiacritics: false });
  scope = $state<SearchScopeName>('session');
  filters = $state<SearchFilters>({ authors: [], kinds: [], tools: '', failedCalls: false });
  /** The history scope's facets over the session list (project, harness, dates). */
  facets = $state<HistoryFacets>({ ...NO_FACETS });
  /** History scope: how much of the history answered from its index (the line under the count). */
  indexLine = $state<string | null>(null);
  hits = $state.raw<SearchHit[]>([]);
  total = $state(0);
  /** All matching fields beyond the hits listed. */
  truncated = $state(false);
  error = $state<string | null>(null);
  running = $state(false);
  progress = $state.raw<{ done: number; total: number } | null>(null);
  ms = $state<number | null>(null);
  /** Index into hits of the current hit, or -1. */
  current = $state(-1);
  mark = $state.raw<MatchMark | null>(null);

  #generation = 0;
  /** The generation of the field's query the engine is running (0: none). */
  #inEngine = 0;
  #markSeq = 0;
  #cache: Promise<SessionCache | null> | null = null;
  /** The project folder the last project-scoped query covered. */
  #project: string | null = null;
  private viewer: Viewer;
  private nav: Navigator;
  private ui: ChatUi;
  /** The stored history's sessions beside the load (the history view's rows), for Everything. */
  storedRows: () => readonly Pick<ListEntry, 'key' | 'project' | 'harness' | 'startedAt'>[] = () => [];
  /** Brings the stored history in beside the load before an Everything query (its rows, storedRows). */
  withStored: () => Promise<void> = async () => undefined;
  /** Opens a stored session whose files are not loaded (the history view's way: cache, folder, or a sentence). */
  openStored: (key: string) => Promise<void> = async () => undefined;

  constructor(viewer: Viewer, nav: Navigator, ui: ChatUi) {
    this.viewer = viewer;
    this.nav = nav;
    this.ui = ui;
  }

  /** Runs the current query (every keystroke, option or scope change). */
  async run(): Promise<void> {
    const generation = ++this.#generation;
    const stale = () => generation !== this.#generation;
    this.nav.query = this.query.trim() ? this.query : null;
    this.nav.queryScope = this.scope === 'session' ? null : this.scope;
    if (!this.query.trim()) {
      this.#reset();
      // Only a query the engine is running is stopped: a cancel also drops the history warm-up's
      // decoding (the search pool's queue), which choosing the history scope has just started.
      if (!this.#inEngine) return;
      const { api } = await engineClient();
      await api.cancelSearch(generation);
      return;
    }
    this.running = true;
    this.error = null;
    // Beyond the open session a query is a pass over many sessions (at history scope the first
    // one decodes the history's text): it starts once typing pauses, so a keystroke does not start
    // a pass the next one cancels, and the lanes' warm-up (prepare) runs on while the word is typed.
    // Typed at 8 keys a second, each letter of "parser" started one (bench:browser --case projects).
    if (this.scope !== 'session') {
      await new Promise((r) => setTimeout(r, TYPING_PAUSE_MS));
      if (stale()) return;
    }
    let hits: SearchHit[] = [];
    let first = true;
    const { inWorker } = await engineClient();
    if (stale()) return;
    const onBatch = proxied((b: SearchBatch) => {
      if (stale()) return;
      // The first batch replaces the previous query's list, so the list never flashes empty.
      if (first) {
        hits = [];
        this.current = -1;
        first = false;
      }
      if (b.hits.length) hits = hits.concat(b.hits);
      this.hits = hits;
      this.total = b.total;
      this.progress = { done: b.sessionsDone, total: b.sessionsTotal };
    }, inWorker);
    this.#inEngine = generation;
    const out = await this.#call(generation, this.#request(), this.scope, onBatch).finally(() => {
      if (this.#inEngine === generation) this.#inEngine = 0;
    });
    if (stale()) return;
    this.running = false;
    if (!out.ok) {
      if (out.cancelled) return;
      this.error = out.error;
      this.hits = [];
      this.total = 0;
      this.current = -1;
      return;
    }
    // The batches delivered the hits; a query without any still replaces the previous list.
    if (first) {
      this.hits = [];
      this.current = -1;
    }
    this.total = out.total;
    this.truncated = out.truncated;
    this.ms = out.ms;
    this.indexLine = out.history ? indexLine(out.history) : null;
  }

  /** The open session or the loaded set changed: a query scoped to them runs again. */
  scopeChanged(what: 'current' | 'sessions'): void {
    if (!this.open || !this.query.trim()) return;
    // A landing in another session of the project changes the open one, not the project's hits.
    const otherProject = this.scope === 'project' && this.#projectOf(this.viewer.current) !== this.#project;
    const follows = what === 'current' ? this.scope === 'session' || otherProject : this.scope === 'everything' || this.scope === 'project';
    if (follows) void this.run();
  }

  /** The automation hook (window.__loupe.search): same engine, every hit, no UI change. */
  async automation(query: string, opts: SearchOptions & { scope?: AnyScope } = {}): Promise<AutomationResult> {
    const started = performance.now();
    const { scope, ...options } = opts;
    // The worker runs one query at a time: this is the newest, and the field's query runs again after it.
    const generation = ++this.#generation;
    // The hits the field shows, and every matching atom by name (all of them, without snippets).
    const out: SearchOutcome = await this.#call(generation, { query, options, ids: true }, scope ?? 'session', undefined);
    if (this.query.trim()) queueMicrotask(() => void this.run());
    if (!out.ok) throw new Error(out.error);
    return {
      total: out.total,
      hits: (out.ids ?? []).flatMap(({ sessionKey, atomUuids }) => atomUuids.map((atomUuid) => ({ sessionKey, atomUuid }))),
      ms: performance.now() - started,
      firstMs: out.firstMs,
      pooled: out.pooled,
      pooledMs: out.pooledMs
    };
  }

  /** Builds the scope's searchable text before the first keystroke (the field got focus). */
  async prepare(scope: AnyScope = this.scope): Promise<{ fields: number; chars: number; ms: number; warmed?: number }> {
    const { api } = await engineClient();
    // Everything: the search workers decode the history's text ahead of the first query.
    return api.prepareSearch(this.#keys(scope), isHistory(scope));
  }

  setQuery(q: string): void {
    this.query = q;
    void this.run();
  }

  setOption(name: keyof SearchOptions, value: boolean): void {
    this.options = { ...this.options, [name]: value };
    void this.run();
  }

  setScope(scope: AnyScope): void {
    this.scope = scopeOf(scope);
    if (this.scope === 'everything' && !this.query.trim()) void this.prepare(this.scope);
    void this.run();
  }

  setFilters(f: Partial<SearchFilters>): void {
    this.filters = { ...this.filters, ...f };
    void this.run();
  }

  setFacets(f: Partial<HistoryFacets>): void {
    this.facets = { ...this.facets, ...f };
    void this.run();
  }

  /** Moves to the next (+1) or previous (-1) hit and lands on it. */
  async step(dir: 1 | -1): Promise<void> {
    if (!this.hits.length) return;
    const n = this.hits.length;
    const i = this.current < 0 ? (dir > 0 ? 0 : n - 1) : (this.current + dir + n) % n;
    await this.landOn(i);
  }

  /** Lands on hit i: like a timeline click, then opens what holds it and marks the match. */
  async landOn(i: number, how: 'push' | 'replace' = 'push'): Promise<boolean> {
    const hit = this.hits[i];
    if (!hit) return false;
    this.current = i;
    this.nav.query = this.query;
    // A hit in a cached session that is not loaded opens it first (as Recent sessions would);
    // a listed session of a big drop is loaded already (the landing builds it).
    if (!this.viewer.sessions.some((s) => s.key === hit.sessionKey) && !this.viewer.list.some((s) => s.key === hit.sessionKey)) {
      // A stored session that is not cached either: the history view says how to open it.
      if (!this.viewer.recent.some((r) => r.key === hit.sessionKey) && this.storedRows().some((r) => r.key === hit.sessionKey)) {
        await this.openStored(hit.sessionKey);
        return false;
      }
      await this.viewer.load({ kind: 'cached', key: hit.sessionKey });
      if (this.viewer.state !== 'ready') return false;
    }
    const ok = await this.nav.land(hit.sessionKey, hit.atomUuid, how);
    if (ok) this.#reveal(i);
    return ok;
  }

  /** After Back / Forward (the Navigator has landed): follow the URL's query and scope, reveal its hit. */
  async followFragment(q: string | undefined, atom: string | undefined, scope?: string): Promise<void> {
    const named = scopeOf(scope);
    if (q && (q !== this.query || named !== this.scope)) {
      this.open = true;
      this.query = q;
      this.scope = named;
      await this.run();
    }
    const i = atom ? this.hits.findIndex((h) => h.atomUuid === atom) : -1;
    if (i >= 0) this.#reveal(i);
  }

  /** Makes hit i current, opens what holds it (group, call, subagent, "show all"), marks the match. */
  #reveal(i: number): void {
    const hit = this.hits[i];
    this.current = i;
    for (const step of hit.opens) this.ui.open(step.key, step.defaultOpen);
    this.mark = { atomUuid: hit.atomUuid, match: hit.snippet.match, seq: ++this.#markSeq };
  }

  close(): void {
    this.open = false;
    this.mark = null;
    this.nav.query = null;
  }

  #reset(): void {
    this.running = false;
    this.hits = [];
    this.total = 0;
    this.truncated = false;
    this.error = null;
    this.current = -1;
    this.progress = null;
    this.ms = null;
  }

  #request() {
    const tools = this.filters.tools.split(',').map((t) => t.trim()).filter(Boolean);
    return {
      query: this.query,
      streamOnly: true,
      options: { ...this.options },
      scope: { authors: [...this.filters.authors], kinds: [...this.filters.kinds], tools, failedCalls: this.filters.failedCalls }
    };
  }

  /** One query to the engine: loaded sessions directly, or every cached session through the cache. */
  async #call(generation: number, request: SearchRequest, scope: AnyScope, onBatch: ((b: SearchBatch) => void) | undefined): Promise<SearchOutcome> {
    const { api, inWorker } = await engineClient();
    if (isHistory(scope)) return this.#history(generation, request, onBatch);
    if (scope !== 'cached') return api.search(generation, request, this.#keys(scope), onBatch);
    const cache = await this.#openCache();
    const cachedKeys = cache ? (await cache.list()).map((m) => m.key) : [];
    const keys = [...new Set([...this.viewer.sessions.map((s) => s.key), ...cachedKeys])];
    const getFiles = proxied(async (key: string) => {
      const hit = await cache?.peek(key);
      return hit ? hit.files.map((f) => ({ path: f.path, blob: f.blob })) : null;
    }, inWorker);
    return api.searchCached(generation, request, keys, getFiles, onBatch);
  }

  /** Starts the history index if it is not running, waits until it is ready, and says how much of
   *  the listing has a search index (window.__loupe.historySearchIndex()). */
  async historyReady() {
    const { api } = await engineClient();
    void api.historyStart();
    for (let s = await api.historyStatus(); s.listed && !s.ready; s = await api.historyStatus()) await new Promise((r) => setTimeout(r, 100));
    return api.historySearchStatus();
  }

  /** Every listed session (or those the facets pick, grouped by project, newest first), indexed
   *  ones answering from the history search index, which goes on being built in the background. */
  async #history(generation: number, request: SearchRequest, onBatch: ((b: SearchBatch) => void) | undefined): Promise<SearchOutcome> {
    const { api } = await engineClient();
    await this.withStored().catch(() => undefined);
    // The automation hook searches every listed session in list order (the scan's order), then the
    // stored ones; the field groups them and applies the facets.
    const listed = new Set(this.viewer.list.map((e) => e.key));
    const stored = this.storedRows().filter((r) => !listed.has(r.key));
    const keys = onBatch ? historyKeys(stored.length ? [...this.viewer.list, ...stored] : this.viewer.list, this.facets) : [];
    if (onBatch && !keys.length && this.viewer.list.length + stored.length) {
      const none = { ok: true as const, total: 0, hits: [], truncated: false, sessions: 0, ms: 0, firstMs: null, pooled: 0, pooledMs: 0 };
      return none;
    }
    return api.search(generation, { ...request, history: true }, keys, onBatch);
  }

  #openCache(): Promise<SessionCache | null> {
    this.#cache ??= openCache().catch(() => null);
    return this.#cache;
  }

  /** Session keys for a scope ([] = every loaded session). */
  #keys(scope: AnyScope = this.scope): string[] {
    const v = this.viewer;
    if (scope !== 'session' && scope !== 'project') return [];
    if (!v.currentKey) return [];
    if (scope === 'session') return [v.currentKey];
    const project = this.#projectOf(v.current);
    this.#project = project;
    return projectSessionKeys(project, v.list, v.sessions.map((x) => ({ key: x.key, folder: this.#projectOf(x) })));
  }

  /** The project a session belongs to, as the session list names it. */
  #projectOf(s: SessionSummary | null): string {
    if (!s) return '';
    const main = s.files.find((f) => f.kind === 'transcript') ?? s.files[0];
    return projectOfSession(s.key, this.viewer.list, main?.path ?? null);
  }
}

/** Everything (and its old name `history`) runs through the history search indexes. */
const isHistory = (scope: AnyScope) => scope === 'everything' || scope === 'history';

/** The line under a history search's count: how much of it the index answered. */
export function indexLine(h: HistoryRunInfo): string {
  const all = h.indexed + h.scanned;
  const parts = [h.scanned ? `${h.indexed.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} sessions indexed; the rest searched by scan.` : `All ${all.toLocaleString('en-US')} sessions indexed.`];
  if (h.scanAll) parts.push(h.scanAll);
  return parts.join(' ');
}
