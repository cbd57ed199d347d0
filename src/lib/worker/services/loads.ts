// The load funnel: a drop (or a cached reopen) replaces what is loaded. Every load first scans
// heads and tails (catalog.scan); a small drop is then parsed whole and kept (sessions.setLoaded),
// a big one (prefersScan) stays the catalog's listing of File handles and only its newest session
// is built. A cached reopen is served from the persisted row index when it has these exact files
// (sessions.restore), else it is a full load. A newer load supersedes this one: catalog.begin
// aborts the older load's AbortController, so it stops between chunks and its result is dropped.
import { loadSessions } from '../../ingest/load-files.ts';
import { prefersScan, type ScanListing } from '../../ingest/scan.ts';
import type { ClassifiedFile } from '../../ingest/types.ts';
import type { InputFile, ListSnapshot, LoadOutcome, LoadProgress } from '../protocol.ts';
import type { Catalog } from './catalog.ts';
import type { Sessions } from './sessions.ts';
import { entryOfScan, entryOfSummary, ISSUES_SENT, summarize } from './summaries.ts';

const SUPERSEDED = 'A newer load replaced this one.';

export class Loads {
  #catalog: Catalog;
  #sessions: Pick<Sessions, 'built' | 'setLoaded' | 'restore' | 'rowStore'>;

  constructor(catalog: Catalog, sessions: Pick<Sessions, 'built' | 'setLoaded' | 'restore' | 'rowStore'>) {
    this.#catalog = catalog;
    this.#sessions = sessions;
  }

  /** Parses files into sessions, replacing what was loaded before (pasted text arrives as a Blob). */
  async load(
    generation: number,
    given: { files: InputFile[]; staged?: boolean },
    onProgress?: (p: LoadProgress) => void,
    onList?: (snapshot: ListSnapshot) => void
  ): Promise<LoadOutcome> {
    const catalog = this.#catalog;
    const { files, known } = catalog.takeStaged(generation, given);
    const abort = catalog.begin(generation);
    const started = performance.now();
    try {
      // Phase one: the head and tail of every file. A big drop stops here (see #scanned).
      const listing = await catalog.scan(files, abort.signal, known, onList);
      const totalBytes = files.reduce((n, f) => n + f.blob.size, 0);
      if (prefersScan(listing, totalBytes)) return await this.#scanned(generation, abort, listing, files, started);
      const out = await loadSessions(files, {
        signal: abort.signal,
        onProgress: onProgress && ((p) => onProgress({ ...p, mbPerSec: mbPerSec(p.overallRead ?? p.bytesRead, started) }))
      });
      if (catalog.superseded(generation, abort)) return { ok: false, generation, superseded: true, message: SUPERSEDED };
      // A load that found no session leaves the open ones in place (the page says why).
      if (out.sessions.length) {
        this.#sessions.setLoaded(new Map(out.sessions.map((s) => [s.key, { loaded: s, rows: null }])));
        catalog.clearListing();
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
      const superseded = catalog.superseded(generation, abort);
      return { ok: false, generation, superseded, message: superseded ? SUPERSEDED : e instanceof Error ? e.message : String(e) };
    }
  }

  /** Scan mode: keep the listing and the handles, build only the newest session. */
  async #scanned(generation: number, abort: AbortController, listing: ScanListing, files: InputFile[], started: number): Promise<LoadOutcome> {
    const catalog = this.#catalog;
    catalog.setListing(listing, files);
    this.#sessions.setLoaded(new Map());
    const first = listing.sessions[0] ? await this.#sessions.built(listing.sessions[0].key) : null;
    if (catalog.superseded(generation, abort)) return { ok: false, generation, superseded: true, message: SUPERSEDED };
    const unknown: ClassifiedFile[] = listing.unused.slice(0, ISSUES_SENT).map((u) => ({
      path: u.path,
      name: u.path.split('/').at(-1) ?? u.path,
      kind: 'unknown',
      sessionId: null,
      bytes: catalog.fileSize(u.path),
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
    const store = await this.#sessions.rowStore();
    const hit = store ? await store.read(given.contentHash) : null;
    if (!hit || hit.sessionKey !== given.key || hit.summary.key !== given.key) {
      return this.load(generation, { files: given.files }, onProgress, onList);
    }
    const abort = this.#catalog.begin(generation);
    this.#catalog.clearListing();
    this.#sessions.restore(given.key, hit, given.files, generation, abort.signal);
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
}

function mbPerSec(bytes: number, started: number): number {
  const s = (performance.now() - started) / 1000;
  return s > 0 ? bytes / 1e6 / s : 0;
}
