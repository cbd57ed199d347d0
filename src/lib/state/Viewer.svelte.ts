// The viewer's load funnel and open-session state. Every source (drop, picker, paste, ?src=,
// cache, sample, share link) goes through load(), which alone owns the loading / progress /
// error state and mirrors it on html[data-state]. Each load gets a generation number; results
// of a superseded load are dropped (the engine also aborts its reading). A load that yields no
// session keeps whatever was open before and says why.
import type { ClassifiedFile } from '../ingest/types.ts';
import type { Issue } from '../model/index.ts';
import type { CachedMeta, SessionCache } from '../store/session-cache.ts';
import { openCache } from '../store/session-cache.ts';
import type { ChatRow, FollowOutcome, LoadProgress, RowIndexEntry, SessionSummary, TimelineLayout } from '../worker/protocol.ts';
import { engineClient, proxied, type EngineApi } from './engine-client.ts';
import { LoadError, resolveSource, type LoadSource } from './sources.ts';

export type ViewState = 'empty' | 'loading' | 'ready' | 'error';

/** Least time between two timeline redraws while following a folder. */
const LIVE_TIMELINE_MS = 3000;

export class Viewer {
  /** Mirrors html[data-state]: the automation contract's one signal of what the page is doing. */
  state = $state<ViewState>('empty');
  /** Latest progress of the load in flight. */
  progress = $state.raw<LoadProgress | null>(null);
  /** One sentence saying why the last load failed (the previous session stays open). */
  error = $state<string | null>(null);
  /** Sessions of the current load, newest first. */
  sessions = $state.raw<SessionSummary[]>([]);
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

  /** Leading rows of `chatIndex` unchanged since the chat last fetched them (following a folder). */
  chatKeep = $state(0);

  current = $derived(this.sessions.find((s) => s.key === this.currentKey) ?? null);

  #generation = 0;
  #cache: Promise<SessionCache | null> | null = null;
  #base: string;

  constructor(base = '') {
    this.#base = base;
  }

  /** Loads a source, superseding any load in flight. Resolves when it is shown or has failed. */
  async load(source: LoadSource): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#setState('loading');
    this.progress = null;
    this.error = null;
    const started = performance.now();
    try {
      // Only a cached source waits for IndexedDB; everything else loads without it.
      const cache = source.kind === 'cached' ? await this.#openCache() : null;
      const files = await resolveSource(source, cache, this.#base);
      if (!current()) return;
      const { api, inWorker } = await engineClient();
      const onProgress = proxied((p: LoadProgress) => {
        if (current()) this.progress = p;
      }, inWorker);
      const outcome = await api.load(generation, { files }, onProgress);
      if (!current()) return;
      if (!outcome.ok) throw new LoadError(outcome.message);
      if (!outcome.sessions.length) throw new LoadError(noSessionMessage(outcome.unknown, files.length));
      this.sessions = outcome.sessions;
      this.unknown = outcome.unknown;
      this.loadIssues = outcome.issues;
      this.source = source;
      this.files = files;
      await this.#show(api, outcome.sessions[0].key, true);
      if (!current()) return;
      this.loadMs = performance.now() - started;
      this.#setState('ready');
      if (source.kind !== 'cached') void this.#remember(outcome.sessions, files);
      else void this.refreshRecent();
    } catch (e) {
      if (!current()) return;
      this.error = e instanceof LoadError ? e.message : `Loupe could not open this: ${e instanceof Error ? e.message : String(e)}`;
      this.#setState('error');
    }
  }

  /** Opens another loaded session in the chat. */
  async select(key: string): Promise<void> {
    const { api } = await engineClient();
    await this.#show(api, key, false);
  }

  /** Full rows [from, to) of the open chat. */
  async rows(from: number, to: number): Promise<ChatRow[]> {
    if (!this.currentKey) return [];
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
  }

  /** Counts for the open view (window.__loupe.stats()). */
  stats() {
    const s = this.sessions;
    const sum = (f: (x: SessionSummary) => number) => s.reduce((n, x) => n + f(x), 0);
    return {
      sessions: s.length,
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

  async #show(api: EngineApi, key: string, withTimeline: boolean): Promise<void> {
    const [index, layout] = await Promise.all([
      api.chatIndex(key),
      withTimeline ? api.timeline([]) : Promise.resolve(this.timeline)
    ]);
    this.currentKey = key;
    this.chatKeep = 0;
    this.chatIndex = index?.rows ?? [];
    this.timeline = layout;
  }

  /** A followed folder changed (state/Live.svelte.ts): the session list, the open chat if it
   *  changed (keeping its unchanged rows), the timeline. The first sessions open the newest. */
  async applyLive(api: EngineApi, outcome: FollowOutcome): Promise<void> {
    this.#generation++; // a load in flight is superseded by the followed folder
    this.sessions = outcome.sessions;
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
    const tail = mine ? await api.chatIndexFrom(current, keep) : null;
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
  #timelineAt = 0;
  #timelineDue: ReturnType<typeof setTimeout> | null = null;
  #liveTimeline(api: EngineApi): void {
    if (this.#timelineDue !== null) return;
    const wait = Math.max(0, this.#timelineAt + LIVE_TIMELINE_MS - performance.now());
    this.#timelineDue = setTimeout(() => {
      this.#timelineAt = performance.now();
      void api.timeline([]).then(
        (layout) => {
          this.#timelineDue = null;
          this.timeline = layout;
        },
        () => (this.#timelineDue = null)
      );
    }, wait);
  }

  /** The open chat's rows changed in place (a followed session went quiet or resumed). */
  async refreshChat(api: EngineApi): Promise<void> {
    const key = this.currentKey;
    if (!key) return;
    const index = await api.chatIndex(key);
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

  /** Caches each loaded session as its own raw files (best effort; never fails the load). */
  async #remember(sessions: SessionSummary[], files: { path: string; blob: Blob }[]): Promise<void> {
    const cache = await this.#openCache();
    if (!cache) return;
    const byPath = new Map(files.map((f) => [f.path, f.blob]));
    for (const s of sessions) {
      const own = s.files.flatMap((f) => {
        const blob = byPath.get(f.path);
        return blob ? [{ path: f.path, kind: f.kind, blob }] : [];
      });
      const { title, startedAt, endedAt, bytes, turns } = s.meta;
      await cache.put({ key: s.key, title, startedAt, endedAt, bytes, turns }, own);
    }
    await this.refreshRecent();
  }
}

function noSessionMessage(unknown: ClassifiedFile[], fileCount: number): string {
  if (!fileCount) return 'Nothing to open: no files were given.';
  if (unknown.length === 1) return `${unknown[0].name}: ${unknown[0].reason ?? 'not a Claude Code transcript.'}`;
  const reasons = unknown.slice(0, 3).map((f) => `${f.name}: ${f.reason ?? 'not a transcript'}`);
  return `No Claude Code transcript found among ${fileCount} files (${reasons.join('; ')}${unknown.length > 3 ? '; …' : ''}).`;
}
