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
import type { ChatIndex, InputFile, LoadOutcome, LoadProgress, SessionSummary } from './protocol.ts';
import { LiveProject } from '../ingest/live.ts';
import { firstChangedTurn, liveActivity, markLiveThought, rebuildTail, type LiveActivity } from '../view/chat/live.ts';
import type { FollowChange, FollowOutcome, LiveState } from './protocol.ts';

const ISSUES_SENT = 200;

interface Entry {
  loaded: LoadedSession;
  rows: ChatRow[] | null;
  /** A followed session: its open turn settles while it is quiet (view/chat/live.ts). */
  live?: { quiet: boolean; activity: LiveActivity | null };
}

export class Engine {
  #sessions = new Map<string, Entry>();
  #generation = 0;
  #abort: AbortController | null = null;

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
    return rows.findIndex((r) => r.atomUuid === atomUuid || r.atomUuids.includes(atomUuid));
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

  #rows(key: string): ChatRow[] | null {
    const entry = this.#sessions.get(key);
    if (!entry) return null;
    entry.rows ??= buildChatRows(entry.loaded.result.session, entry.loaded.children, {
      metadata: entry.loaded.result.metadata,
      ...(entry.live ? { sessionOver: entry.live.quiet } : {})
    });
    if (entry.live) entry.rows = markLiveThought(entry.loaded.result.session, entry.rows);
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
        const fromTurn = firstChangedTurn(old.rows, old.loaded.result.session.turns.length, up.grownChildren[key] ?? []);
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

function mbPerSec(bytes: number, started: number): number {
  const s = (performance.now() - started) / 1000;
  return s > 0 ? bytes / 1e6 / s : 0;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
