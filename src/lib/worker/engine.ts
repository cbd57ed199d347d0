// The parse engine: owns every loaded session and answers the page's questions about them
// (chat row index, rows by range, timeline layout, where an atom is). It runs inside the
// worker (parse.worker.ts exposes it with comlink) and, when a worker cannot start, on the
// main thread: the same code either way. A new load supersedes the one in flight: the older
// load's AbortController is aborted, so it stops between chunks and its result is dropped.
// Two-phase load: every load first scans heads and tails (ingest/scan.ts). A small drop is then
// parsed whole and kept, as before; a big one (prefersScan) stays a listing of File handles, and a
// session is built when first asked for. Every method that needs a built session goes through
// #built(key), which builds on demand and keeps at most BUILT_BUDGET source bytes built (LRU).
import { segmentsOf } from '../model/index.ts';
import { loadSessions } from '../ingest/load-files.ts';
import type { LoadedSession } from '../ingest/types.ts';
import { buildChatRows, rowIndexOf, type ChatRow } from '../view/chat/index.ts';
import { layoutTimeline, type TimelineLayout } from '../view/timeline/layout.ts';
import { withSubagentLanes } from '../view/timeline/subagent-lanes.ts';
import { prefersScan, scanInputs, storedScans, type FileScan, type ScanListing, type ScannedSession, type StoredScan } from '../ingest/scan.ts';
import { ByteLru } from '../ingest/lru.ts';
import { dirOf, normPath, stemOf } from '../ingest/paths.ts';
import type { ClassifiedFile } from '../ingest/types.ts';
import type { ListEntry } from '../view/sessions/list.ts';
import type { ChatIndex, InputFile, ListSnapshot, LoadOutcome, LoadProgress, SessionSummary } from './protocol.ts';

const ISSUES_SENT = 200;
/** Source bytes of built sessions kept besides the open one (a built session is several times its files). */
const BUILT_BUDGET = 96 * 1024 * 1024;

interface Entry {
  loaded: LoadedSession;
  rows: ChatRow[] | null;
}

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
  /** The last load's scan: wall time, files, and how many came from earlier scans. */
  #scanStats = { ms: 0, files: 0, reused: 0 };
  /** Files handed over in batches before a big load (see stage()). */
  #staged: { generation: number; files: InputFile[]; known: Map<string, StoredScan> } = { generation: -1, files: [], known: new Map() };
  /** The last load's scans, for the page to store (scanRecords) so a later drop reuses them. */
  #lastScan: { scans: FileScan[]; identities: Map<string, string>; stored: StoredScan[] | null } = { scans: [], identities: new Map(), stored: null };

  /** `builtBudget`: source bytes of built sessions a scanned drop keeps (the open one always stays). */
  constructor(opts: { builtBudget?: number } = {}) {
    this.#lru = new ByteLru<Entry>(opts.builtBudget ?? BUILT_BUDGET, 1);
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
    return rows ? { sessionKey: key, rows: rows.map(rowIndexOf) } : null;
  }

  /** Full rows [from, to) of one session's chat, for the rows about to be drawn. */
  async chatRows(key: string, from: number, to: number): Promise<ChatRow[]> {
    return (await this.#rows(key))?.slice(Math.max(0, from), Math.max(from, to)) ?? [];
  }

  /** The row holding an atom (a landing target), or -1 when no row holds it. */
  async findAtomRow(key: string, atomUuid: string): Promise<number> {
    const rows = await this.#rows(key);
    if (!rows) return -1;
    return rows.findIndex((r) => r.atomUuid === atomUuid || r.atomUuids.includes(atomUuid));
  }

  /** One shared timeline for the given sessions (all sessions of a full load when keys is empty). */
  async timeline(keys: string[]): Promise<TimelineLayout> {
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
    const files = listed.files.flatMap((path) => {
      const blob = this.#blobs.get(path);
      return blob ? [{ path, blob }] : [];
    });
    // A file that cannot be read again (moved, permission gone) makes this open fail, not the engine.
    const out = await loadSessions(files).catch(() => null);
    if (!out || generation !== this.#generation || this.#listed.get(listed.key) !== listed) return null;
    const leaf = listed.files.find((p) => stemOf(p) === listed.id && dirOf(p) === listed.project);
    const loaded = out.sessions.find((s) => s.files.at(-1) !== undefined && s.files.some((f) => f.path === leaf) && s.key.startsWith(`${listed.id}-`)) ?? out.sessions[0];
    if (!loaded) return null;
    // The listed key stays the session's identity, so the page's list and the built session agree.
    const entry: Entry = { loaded: { ...loaded, key: listed.key }, rows: null };
    this.#lru.set(listed.key, entry, listed.bytes);
    return entry;
  }

  /** Scan mode: keep the listing and the handles, build only the newest session. */
  async #scanned(generation: number, abort: AbortController, listing: ScanListing, files: InputFile[], started: number): Promise<LoadOutcome> {
    this.#forgetScan();
    this.#sessions = new Map();
    this.#listed = new Map(listing.sessions.map((s) => [s.key, s]));
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
    this.#listed = new Map();
    this.#blobs = new Map();
    this.#lru.clear();
    this.#building.clear();
  }

  async #rows(key: string): Promise<ChatRow[] | null> {
    const entry = await this.#built(key);
    if (!entry) return null;
    entry.rows ??= buildChatRows(entry.loaded.result.session, entry.loaded.children, {
      metadata: entry.loaded.result.metadata
    });
    return entry.rows;
  }
}

function entryOfScan(s: ScannedSession): ListEntry {
  return {
    key: s.key,
    project: s.project,
    harness: s.harness,
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
    harness: 'claude-code',
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

function mbPerSec(bytes: number, started: number): number {
  const s = (performance.now() - started) / 1000;
  return s > 0 ? bytes / 1e6 / s : 0;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
