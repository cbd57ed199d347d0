// The catalog: what the current load is and what it listed. It owns the load generation and its
// AbortController (a new load aborts the one in flight), the files staged ahead of a big load,
// the scan (ingest/scan.ts: heads and tails of every file), the listing of a big drop with its
// File handles, and the last scan's stats and stored records (the page's scan index). A big local
// drop's first scan reads its transcripts whole on lanes (view/history/file-pass.ts), and the
// catalog keeps each one's billed calls until the history's usage pass takes them. Other
// services read it through `Listing` (types.ts) and hear of every change through onChange.
import { loadListed } from '../../ingest/listed.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import { FIRST_LIST_PAUSE_MS, SCAN_MIN_BYTES, SCAN_MIN_SESSIONS, scanInputs, storedScans, type FileScan, type ScanListing, type ScannedSession, type StoredScan } from '../../ingest/scan.ts';
import { readsWhole, type FileCalls } from '../../view/history/file-pass.ts';
import type { ScanLanes } from '../scan-lanes.ts';
import { normPath } from '../../ingest/paths.ts';
import type { InputFile, ListSnapshot } from '../protocol.ts';
import { entryOfScan } from './summaries.ts';
import type { CatalogChange, Listing } from './types.ts';

/** How often a scan sends its listing after the first (ms). */
const LATER_LIST_MS = 1000;

export class Catalog implements Listing {
  #generation = 0;
  #abort: AbortController | null = null;
  /** Scan mode (big drops): every listed session and its files as Blob handles. */
  #listed = new Map<string, ScannedSession>();
  #blobs = new Map<string, Blob>();
  /** Files of the listing that no listed session uses, with the scan's reason. */
  #unused: ScanListing['unused'] = [];
  #listeners: ((change: CatalogChange) => void)[] = [];
  /** The last load's scan: wall time, files, and how many came from earlier scans. */
  #scanStats = { ms: 0, files: 0, reused: 0, whole: 0 };
  /** Files handed over in batches before a big load (see stage()). */
  #staged: { generation: number; files: InputFile[]; known: Map<string, StoredScan> } = { generation: -1, files: [], known: new Map() };
  /** The last load's scans, for the page to store (scanRecords) so a later drop reuses them. */
  #lastScan: { scans: FileScan[]; identities: Map<string, string>; stored: StoredScan[] | null } = { scans: [], identities: new Map(), stored: null };
  /** The billed calls of each transcript the last scan read whole, by path (takeFileCalls). */
  #fileCalls = new Map<string, FileCalls>();
  #scanLanes: (() => ScanLanes) | null;

  /** `scanLanes`: where a big local drop's transcripts are read whole (worker/scan-lanes.ts); none: heads and tails only. */
  constructor(opts: { scanLanes?: () => ScanLanes } = {}) {
    this.#scanLanes = opts.scanLanes ?? null;
  }

  get generation(): number {
    return this.#generation;
  }

  onChange(fn: (change: CatalogChange) => void): void {
    this.#listeners.push(fn);
  }

  #emit(change: CatalogChange): void {
    for (const fn of this.#listeners) fn(change);
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

  /** A load's input (its staged files first when it says so) and the stored scans staged with it; clears the stage. */
  takeStaged(generation: number, given: { files: InputFile[]; staged?: boolean }): { files: InputFile[]; known: Map<string, StoredScan> } {
    const mine = this.#staged.generation === generation;
    const files = given.staged && mine ? [...this.#staged.files, ...given.files] : given.files;
    const known = mine ? this.#staged.known : new Map<string, StoredScan>();
    this.#staged = { generation: -1, files: [], known: new Map() };
    return { files, known };
  }

  /** Starts load `generation`: the load in flight is aborted, and every service hears `load`. */
  begin(generation: number): AbortController {
    this.#abort?.abort();
    const abort = new AbortController();
    this.#abort = abort;
    this.#generation = generation;
    this.#emit('load');
    return abort;
  }

  /** Aborts the load in flight without starting one (following takes over). */
  abortLoad(): void {
    this.#abort?.abort();
  }

  /** True when `generation`'s load was aborted or a newer one began. */
  superseded(generation: number, abort: AbortController): boolean {
    return abort.signal.aborted || generation !== this.#generation;
  }

  /** Phase one of every load: the head and tail of every file (a big local drop's transcripts
   *  whole, on lanes), its listing streamed to `onList`. */
  async scan(files: InputFile[], signal: AbortSignal, known: Map<string, StoredScan>, onList?: (snapshot: ListSnapshot) => void): Promise<ScanListing> {
    const started = performance.now();
    const fileCalls = new Map<string, FileCalls>();
    this.#fileCalls = fileCalls;
    const lanes = this.#wholeReads(files) ? this.#scanLanes!() : null;
    const scanOne = lanes && (async (f: InputFile, path: string): Promise<FileScan | null> => {
      if (!readsWhole(path, f.blob.size)) return null;
      const r = await lanes.scanWhole(f, path);
      // No lane, or the whole read failed (a file moved since the drop): its head and tail here,
      // and the index names it when it reads the session.
      if (!r || 'error' in r) return null;
      if (r.calls) fileCalls.set(path, r.calls);
      return r.scan;
    });
    const { listing, scans, identities, reused } = await scanInputs(files, {
      signal,
      known,
      scanOne: scanOne ?? undefined,
      onBatch: onList && ((l, filesDone, filesTotal) => onList({ entries: l.sessions.map(entryOfScan), filesDone, filesTotal })),
      firstListPauseMs: FIRST_LIST_PAUSE_MS,
      // Then a listing a second: each is the whole list (1,500 entries of a 1 GB tree), and its
      // receipt was a 50-140 ms task now and then on a busy 2-core machine (--case projects --profile).
      laterBatchMs: LATER_LIST_MS
    }).finally(() => lanes?.dispose());
    this.#scanStats = { ms: performance.now() - started, files: files.length, reused, whole: fileCalls.size };
    this.#lastScan = { scans, identities, stored: null };
    return listing;
  }

  /** Whether a scan reads its files whole: a big drop (the files a listing is kept for, not
   *  parsed whole: prefersScan) of local files. A remote tree's reads are requests: heads and tails. */
  #wholeReads(files: InputFile[]): boolean {
    if (!this.#scanLanes || !files.every((f) => f.blob instanceof Blob)) return false;
    const transcripts = files.filter((f) => f.path.endsWith('.jsonl')).length;
    return transcripts > SCAN_MIN_SESSIONS || files.reduce((n, f) => n + f.blob.size, 0) > SCAN_MIN_BYTES;
  }

  /** These transcripts' billed calls, read by the last scan, in order; null when it read one of
   *  them not (then none is taken). Taken once: the usage pass keeps them. */
  takeFileCalls(paths: readonly string[]): FileCalls[] | null {
    const out: FileCalls[] = [];
    for (const p of paths) {
      const calls = this.#fileCalls.get(p);
      if (!calls) return null;
      out.push(calls);
    }
    for (const p of paths) this.#fileCalls.delete(p);
    return out;
  }

  /** Scan mode: the listing and its handles replace what was listed (and built) before. */
  setListing(listing: ScanListing, files: InputFile[]): void {
    this.clearListing();
    this.#listed = new Map(listing.sessions.map((s) => [s.key, s]));
    this.#blobs = new Map(files.map((f) => [normPath(f.path), f.blob]));
    this.#unused = listing.unused;
  }

  /** Forgets the listing; every service drops what it built or cached from it. */
  clearListing(): void {
    this.#listed = new Map();
    this.#blobs = new Map();
    this.#unused = [];
    this.#emit('listing');
  }

  /** Files in the listing that no listed session uses (tool-result side files, foreign files), with why. */
  unused(): ScanListing['unused'] {
    return this.#unused;
  }

  listed(key: string): ScannedSession | undefined {
    return this.#listed.get(key);
  }

  sessions(): ScannedSession[] {
    return [...this.#listed.values()];
  }

  listedFiles(listed: ScannedSession): InputFile[] {
    return listed.files.flatMap((path) => {
      const blob = this.#blobs.get(path);
      return blob ? [{ path, blob }] : [];
    });
  }

  /** The size of a listed file (0: not in the listing). */
  fileSize(path: string): number {
    return this.#blobs.get(path)?.size ?? 0;
  }

  parse(listed: ScannedSession): Promise<LoadedSession | null> {
    return loadListed(listed, this.listedFiles(listed));
  }

  /** The last load's scan: wall time (ms), files, files whose earlier scan was reused, and
   *  transcripts read whole and priced (view/history/file-pass.ts). */
  scanStats(): { ms: number; files: number; reused: number; whole: number } {
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
}
