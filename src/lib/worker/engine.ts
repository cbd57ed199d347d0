// The parse engine: owns every loaded session and answers the page's questions about them
// (chat row index, rows by range, timeline layout, where an atom is). It runs inside the
// worker (parse.worker.ts exposes it with comlink) and, when a worker cannot start, on the
// main thread: the same code either way. A new load supersedes the one in flight: the older
// load's AbortController is aborted, so it stops between chunks and its result is dropped.
// Following a folder (followStart / followAppend) replaces the loaded sessions with the ones
// ingest/live.ts keeps current from appended bytes; their chat rows are rebuilt from the first
// changed turn on (view/chat/live.ts) and the page is told how many leading rows it keeps.
import { segmentsOf } from '../model/index.ts';
import { loadSessions } from '../ingest/load-files.ts';
import type { LoadedSession } from '../ingest/types.ts';
import { buildChatRows, rowIndexOf, type ChatRow } from '../view/chat/index.ts';
import { layoutTimeline, type TimelineLayout } from '../view/timeline/layout.ts';
import { PRICES, projectUsage, sessionUsage, type ProjectUsage, type SessionUsage } from '../view/usage/index.ts';
import { fieldsOfRows, runSearch, SessionTextCache, textChars, type FoldedTexts, type SearchBatch, type SearchField, type SearchOutcome, type SearchRequest } from '../view/search/index.ts';
import { exportFile, exportSessionText, redactSource, utf8Bytes, type ExportFormat, type ExportResult, type ExportSource, type OnExportProgress } from '../view/export/index.ts';
import { DEFAULT_REDACT, describeRedaction, makeRedactor, redactFileText, scanFiles, type Finding, type RedactOptions } from '../view/redact/index.ts';
import type { ChatIndex, InputFile, LoadOutcome, LoadProgress, SessionSummary } from './protocol.ts';
import { LiveProject } from '../ingest/live.ts';
import { firstChangedTurn, liveActivity, markLiveThought, rebuildTail, type LiveActivity } from '../view/chat/live.ts';
import type { FollowChange, FollowOutcome, LiveState } from './protocol.ts';

const ISSUES_SENT = 200;
/** Characters of cached (not loaded) sessions' searchable text kept between queries. */
const CACHED_SEARCH_CHARS = 200_000_000;

interface Entry {
  loaded: LoadedSession;
  rows: ChatRow[] | null;
  usage?: SessionUsage;
  /** A followed session: its open turn settles while it is quiet (view/chat/live.ts). */
  live?: { quiet: boolean; activity: LiveActivity | null };
}

export class Engine {
  #sessions = new Map<string, Entry>();
  #generation = 0;
  #abort: AbortController | null = null;
  #searchGeneration = 0;
  #searchAbort: AbortController | null = null;
  #searchData = new WeakMap<Entry, { fields: SearchField[]; folded: FoldedTexts }>();
  /** Searchable text of cached sessions that are not loaded, parsed on a search's way through them. */
  #cachedSearch = new SessionTextCache(CACHED_SEARCH_CHARS);
  /** The last redacted copy of a session (exports in several formats redact once). */
  #redacted: { key: string; sig: string; origin: object; src: ExportSource } | null = null;

  /** Parses files into sessions, replacing what was loaded before (pasted text arrives as a Blob). */
  async load(generation: number, input: { files: InputFile[] }, onProgress?: (p: LoadProgress) => void): Promise<LoadOutcome> {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#generation = generation;
    const started = performance.now();
    try {
      const out = await loadSessions(input.files, {
        signal: abort.signal,
        onProgress: onProgress && ((p) => onProgress({ ...p, mbPerSec: mbPerSec(p.overallRead ?? p.bytesRead, started) }))
      });
      if (abort.signal.aborted || generation !== this.#generation) {
        return { ok: false, generation, superseded: true, message: 'A newer load replaced this one.' };
      }
      // A load that found no session leaves the open ones in place (the page says why).
      if (out.sessions.length) this.#sessions = new Map(out.sessions.map((s) => [s.key, { loaded: s, rows: null }]));
      return {
        ok: true,
        generation,
        sessions: out.sessions.map(summarize),
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
  chatIndex(key: string): ChatIndex | null {
    const rows = this.#rows(key);
    return rows ? { sessionKey: key, rows: rows.map(indexEntryOf) } : null;
  }

  /** The index entries from row `from` on (a followed chat's changed tail; the page keeps the rest). */
  chatIndexFrom(key: string, from: number): ChatIndex | null {
    const rows = this.#rows(key);
    return rows ? { sessionKey: key, rows: rows.slice(Math.max(0, from)).map(indexEntryOf) } : null;
  }

  /** Full rows [from, to) of one session's chat, for the rows about to be drawn. */
  chatRows(key: string, from: number, to: number): ChatRow[] {
    return this.#rows(key)?.slice(Math.max(0, from), Math.max(from, to)) ?? [];
  }

  /** The row holding an atom (a landing target), or -1 when no row holds it. */
  findAtomRow(key: string, atomUuid: string): number {
    const rows = this.#rows(key);
    if (!rows) return -1;
    const index = rows.findIndex((r) => r.atomUuid === atomUuid || r.atomUuids.includes(atomUuid));
    // An atom of a subagent transcript sits inside its delegation row (search lands there).
    return index >= 0 ? index : (this.#searchFields(key)?.fields.find((f) => f.atomUuid === atomUuid)?.row ?? -1);
  }

  /** One shared timeline for the given sessions (all loaded sessions when keys is empty). */
  timeline(keys: string[]): TimelineLayout {
    const picked = keys.length ? keys.map((k) => this.#sessions.get(k)).filter((e) => !!e) : [...this.#sessions.values()];
    return layoutTimeline(
      picked.map(({ loaded }) => ({
        key: loaded.key,
        label: loaded.title,
        session: loaded.result.session,
        children: loaded.children
      }))
    );
  }

  /** Issues of one session, for the issues panel (all of them, capped for sanity). */
  issues(key: string, limit = 5000) {
    return this.#sessions.get(key)?.loaded.issues.slice(0, limit) ?? [];
  }

  /**
   * Searches the given sessions (all loaded ones when `keys` is empty). A newer search (a higher
   * generation) or cancelSearch stops this one between slices; hits stream to `onBatch`.
   */
  async search(generation: number, request: SearchRequest, keys: string[], onBatch?: (b: SearchBatch) => void): Promise<SearchOutcome> {
    this.#newSearch(generation);
    const picked = keys.length ? keys.filter((k) => this.#sessions.has(k)) : [...this.#sessions.keys()];
    return runSearch(
      request,
      picked.map((key) => ({ key, fields: () => this.#searchFields(key) })),
      { cancelled: () => generation !== this.#searchGeneration, pause: yieldToEvents, onBatch }
    );
  }

  /** Builds the searchable fields of these sessions ahead of the first keystroke (the field got focus). */
  prepareSearch(keys: string[]): { fields: number; chars: number; ms: number } {
    const started = performance.now();
    let fields = 0;
    let chars = 0;
    for (const key of keys.length ? keys : [...this.#sessions.keys()]) {
      const data = this.#searchFields(key);
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
    const loadedFirst = [...keys.filter((k) => this.#sessions.has(k)), ...keys.filter((k) => !this.#sessions.has(k))];
    const sources = loadedFirst.map((key) => ({
      key,
      fields: () => (this.#sessions.has(key) ? this.#searchFields(key) : this.#cachedFields(key, getFiles, signal))
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
      return this.#cachedSearch.set(key, fieldsOfRows(rowsOf(loaded)));
    } catch {
      return null; // an aborted or unreadable cached session is skipped, never fatal
    }
  }

  #searchFields(key: string): { fields: SearchField[]; folded: FoldedTexts } | null {
    // Search reads the chat rows: build them first (once, kept on the entry).
    if (!this.#rows(key)) return null;
    const entry = this.#builtEntry(key);
    if (!entry?.rows) return null;
    let data = this.#searchData.get(entry);
    if (!data) this.#searchData.set(entry, (data = { fields: fieldsOfRows(entry.rows), folded: [] }));
    return data;
  }

  /** Accounting, chart series and insights of one session with its subagents (computed once, kept). */
  usage(key: string): SessionUsage | null {
    const entry = this.#builtEntry(key);
    if (!entry) return null;
    entry.usage ??= sessionUsage(entry.loaded);
    return entry.usage;
  }

  /** Usage of every loaded session side by side, and their sum (the project view). */
  projectUsage(): ProjectUsage {
    const picked = [...this.#sessions.keys()].flatMap((key) => {
      const usage = this.usage(key);
      const loaded = this.#builtEntry(key)?.loaded;
      return usage && loaded ? [{ key, title: loaded.title, startedAt: loaded.startedAt, usage }] : [];
    });
    return projectUsage(picked, PRICES.sourceDate);
  }

  /** The one way usage reaches a built session (sessions built on demand swap this). */
  /** What redaction finds in one session's input files: each distinct string once, with where. */
  async scanSecrets(key: string, options: Partial<RedactOptions>, onProgress?: OnExportProgress): Promise<Finding[] | null> {
    const entry = this.#builtEntry(key);
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
    const entry = this.#builtEntry(key);
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
    const entry = this.#builtEntry(key);
    if (!entry) return null;
    const r = options ? makeRedactor({ ...DEFAULT_REDACT, ...options }) : null;
    return (await inputTexts(entry.loaded.inputs)).map((f) => ({ name: f.path, text: r ? redactFileText(f.text, r) : f.text }));
  }

  /** The one door to a built session for exports and sharing (sessions may be built on demand). */
  #builtEntry(key: string): Entry | null {
    return this.#sessions.get(key) ?? null;
  }

  #rows(key: string): ChatRow[] | null {
    const entry = this.#sessions.get(key);
    if (!entry) return null;
    if (entry.rows) return entry.rows;
    // A followed session's open turn settles while it is quiet, and its live thought is marked.
    entry.rows = entry.live
      ? markLiveThought(entry.loaded.result.session, rowsOf(entry.loaded, { sessionOver: entry.live.quiet }))
      : rowsOf(entry.loaded);
    return entry.rows;
  }

  // ── following a folder (ingest/live.ts) ──────────────────────────────────

  #live: LiveProject | null = null;
  #liveGeneration = 0;

  /** Starts following: the loaded sessions give way to the followed ones as their bytes arrive. */
  followStart(generation: number): void {
    this.#abort?.abort();
    this.#live = new LiveProject();
    this.#liveGeneration = generation;
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
    return { generation, sessions: sessions.map(summarize), changed, removed: up.removed, unknown: live.unknown(), active };
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
