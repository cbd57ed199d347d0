// Search: the query, its options and scope, the hits streaming back from the worker, and which
// hit is current. Every keystroke starts a new query with a higher generation; the worker drops
// the older one between slices and batches of a stale generation are ignored here. Landing on a
// hit goes through the Navigator (opens the session, writes `#s=…&a=…&q=…`), then opens what
// holds the hit (group, call, subagent, "show all") and asks the chat to mark the match.
import type { FieldAuthor, FieldKind, SearchBatch, SearchHit, SearchOptions, SearchOutcome } from '../view/search/index.ts';
import type { SessionSummary } from '../worker/protocol.ts';
import type { ChatUi } from './ChatUi.svelte.ts';
import { engineClient, proxied } from './engine-client.ts';
import type { Navigator } from './Navigator.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

export type SearchScopeName = 'session' | 'project' | 'loaded';
export type { FieldAuthor, FieldKind, SearchHit };

export interface SearchFilters {
  authors: FieldAuthor[];
  kinds: FieldKind[];
  /** Tool names, comma separated as typed. */
  tools: string;
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
}

const AUTOMATION_MAX_HITS = 1_000_000;

export class Search {
  open = $state(false);
  query = $state('');
  options = $state<Required<SearchOptions>>({ caseSensitive: false, wholeWord: false, regex: false, ignoreDiacritics: false });
  scope = $state<SearchScopeName>('session');
  filters = $state<SearchFilters>({ authors: [], kinds: [], tools: '' });
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
  #markSeq = 0;
  private viewer: Viewer;
  private nav: Navigator;
  private ui: ChatUi;

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
    if (!this.query.trim()) {
      this.#reset();
      const { api } = await engineClient();
      await api.cancelSearch(generation);
      return;
    }
    this.running = true;
    this.error = null;
    let hits: SearchHit[] = [];
    let first = true;
    const { api, inWorker } = await engineClient();
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
    const out = await api.search(generation, this.#request(), this.#keys(), onBatch);
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
    this.hits = out.hits;
    this.total = out.total;
    this.truncated = out.truncated;
    this.ms = out.ms;
  }

  /** The automation hook (window.__loupe.search): same engine, every hit, no UI change. */
  async automation(query: string, opts: SearchOptions & { scope?: SearchScopeName } = {}): Promise<AutomationResult> {
    const started = performance.now();
    const { api } = await engineClient();
    const { scope, ...options } = opts;
    // Its own generation space would cancel the field's query; it runs as the newest query instead.
    const generation = ++this.#generation;
    const out: SearchOutcome = await api.search(generation, { query, options, maxHits: AUTOMATION_MAX_HITS }, this.#keys(scope ?? 'session'), undefined);
    if (this.query.trim()) queueMicrotask(() => void this.run());
    if (!out.ok) throw new Error(out.error);
    return {
      total: out.total,
      hits: out.hits.map((h) => ({ sessionKey: h.sessionKey, atomUuid: h.atomUuid })),
      ms: performance.now() - started,
      firstMs: out.firstMs
    };
  }

  setQuery(q: string): void {
    this.query = q;
    void this.run();
  }

  setOption(name: keyof SearchOptions, value: boolean): void {
    this.options = { ...this.options, [name]: value };
    void this.run();
  }

  setScope(scope: SearchScopeName): void {
    this.scope = scope;
    void this.run();
  }

  setFilters(f: Partial<SearchFilters>): void {
    this.filters = { ...this.filters, ...f };
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
    const ok = await this.nav.land(hit.sessionKey, hit.atomUuid, how);
    if (ok) this.#reveal(i);
    return ok;
  }

  /** After Back / Forward (the Navigator has landed): follow the URL's query, reveal its hit. */
  async followFragment(q: string | undefined, atom: string | undefined): Promise<void> {
    if (q && q !== this.query) {
      this.open = true;
      this.query = q;
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
      options: { ...this.options },
      scope: { authors: [...this.filters.authors], kinds: [...this.filters.kinds], tools }
    };
  }

  /** Session keys for a scope ([] = every loaded session). */
  #keys(scope: SearchScopeName = this.scope): string[] {
    const v = this.viewer;
    if (scope === 'loaded') return [];
    if (!v.currentKey) return [];
    if (scope === 'session') return [v.currentKey];
    const dir = projectOf(v.current);
    return v.sessions.filter((s) => projectOf(s) === dir).map((s) => s.key);
  }
}

/** The folder a session's main transcript was dropped from (its project folder). */
function projectOf(s: SessionSummary | null): string {
  const main = s?.files.find((f) => f.kind === 'transcript') ?? s?.files[0];
  if (!main) return '';
  const at = main.path.lastIndexOf('/');
  return at >= 0 ? main.path.slice(0, at) : '';
}
