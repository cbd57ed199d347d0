// The IndexedDB cache of loaded sessions ("Recent sessions", reopen without the files, offline).
// A session is stored as its raw input files (Blobs keyed by SHA-256, shared between sessions that
// dropped the same file) plus a small metadata record; the parsed tree is never stored, because
// re-parsing in the worker is cheap and spares us migrating it (what a reopen shows before that
// re-parse — rows, summary, timeline — is row-index.ts, pruned to the sessions cached here). The cache is an optimisation that
// may fail quietly: no method throws, failures resolve to undefined / false / [] and show up as
// `status` + a one-line `notice` the page can display while the viewer keeps working.

import { openDB } from 'idb';
import {
  DB_VERSION, drop, hashesOf, isCachedMeta, release, upgrade,
  type CacheSchema, type CachedFile, type CachedMeta, type Db
} from './cache-schema';
import { canHash, hashBlob } from './content-hash';
import { distinctBytes, planEviction } from './eviction';

export { DB_VERSION, type CachedFile, type CachedMeta } from './cache-schema';

export const DEFAULT_DB_NAME = 'loupe-cache';
export const DEFAULT_BUDGET_BYTES = 500 * 1024 * 1024;
/** Share of the origin's free quota the cache may fill; the rest is left for the offline app
 *  shell (Cache Storage) and for headroom, since `estimate()` is only approximate. */
const QUOTA_SHARE = 0.8;
/** An open request that neither succeeds nor fails (seen in some private modes) must not hang the page. */
const OPEN_TIMEOUT_MS = 5_000;
const MB = 1024 * 1024;

export type CacheStatus = 'ok' | 'unavailable' | 'quota';

/** What the caller knows about a session when caching it; files, addedAt, lastOpenedAt are filled in. */
export type SessionSummary = Pick<CachedMeta, 'key' | 'title' | 'startedAt' | 'endedAt' | 'bytes' | 'turns'>;
/** `kind` is the ingest FileKind ('transcript', 'subagent', …), kept as a plain string here. */
export interface CacheFile { path: string; kind: string; blob: Blob }
export interface CachedSession { meta: CachedMeta; files: CacheFile[] }

export interface SessionCache {
  readonly status: CacheStatus;
  /** One line for the page when caching is (partly) off, else null. */
  readonly notice: string | null;
  /** Stores the session (replacing one with the same key); false if it was not cached. */
  put(meta: SessionSummary, files: CacheFile[]): Promise<boolean>;
  /** Cached sessions, most recently opened first. */
  list(): Promise<CachedMeta[]>;
  /** The session's metadata and files, or undefined; marks it as just opened. */
  open(key: string): Promise<CachedSession | undefined>;
  /** Like open, without marking it opened (search reads every cached session). */
  peek(key: string): Promise<CachedSession | undefined>;
  /** Forgets the session and every blob no other session uses. */
  remove(key: string): Promise<void>;
  /** Bytes of distinct cached file content. */
  usage(): Promise<number>;
  close(): void;
}

export interface OpenCacheOptions {
  budgetBytes?: number;
  dbName?: string;
  /** Clock for addedAt / lastOpenedAt (tests pin it). */
  now?: () => number;
  /** Called whenever status or notice changes, so a rune class can mirror them. */
  onStatus?: (status: CacheStatus, notice: string | null) => void;
}

export const NOTICES = {
  unavailable: 'Caching is off: this browser does not allow storage here.',
  insecure: 'Caching is off: this page is not served over HTTPS or from localhost.',
  blocked: 'Caching is off: another Loupe tab holds an older cache open; close it and reload.',
  superseded: 'Caching is off in this tab: a newer Loupe opened in another tab; reload to use it.',
  quota: 'Caching is off: the browser has no storage space left for Loupe.',
  tooLarge: (bytes: number, budget: number) =>
    `Not cached: this session (${Math.ceil(bytes / MB)} MB) is larger than the cache allows (${Math.floor(budget / MB)} MB).`
} as const;

/** A file on its way in: its catalogue entry plus the bytes. */
interface Entry extends CachedFile { blob: Blob }

/** Opens (creating or upgrading) the cache. Always resolves; check `status`. */
export async function openCache(opts: OpenCacheOptions = {}): Promise<SessionCache> {
  const cache = new IdbSessionCache(opts);
  await cache.connect(opts.dbName ?? DEFAULT_DB_NAME);
  return cache;
}

export function isQuotaError(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const { name, code } = e as { name?: unknown; code?: unknown };
  // Firefox used its own name for the same condition; code 22 is the legacy DOMException code.
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22;
}


class IdbSessionCache implements SessionCache {
  #db: Db | null = null;
  #status: CacheStatus = 'unavailable';
  #notice: string | null = null;
  #budget: number;
  #now: () => number;
  #onStatus?: (status: CacheStatus, notice: string | null) => void;
  /** Writes run one at a time so eviction plans and ref counts never race each other. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: OpenCacheOptions) {
    this.#budget = opts.budgetBytes ?? DEFAULT_BUDGET_BYTES;
    this.#now = opts.now ?? Date.now;
    this.#onStatus = opts.onStatus;
  }

  get status(): CacheStatus { return this.#status; }
  get notice(): string | null { return this.#notice; }

  #set(status: CacheStatus, notice: string | null): void {
    if (status === this.#status && notice === this.#notice) return;
    this.#status = status;
    this.#notice = notice;
    this.#onStatus?.(status, notice);
  }

  #off(notice: string): void {
    this.#db?.close();
    this.#db = null;
    this.#set('unavailable', notice);
  }

  async connect(name: string): Promise<void> {
    if (typeof indexedDB === 'undefined' || indexedDB === null) return this.#off(NOTICES.unavailable);
    if (!canHash()) return this.#off(NOTICES.insecure);
    const result = await new Promise<Db | string>((resolve) => {
      let settled = false;
      const finish = (r: Db | string) => {
        if (!settled) { settled = true; clearTimeout(timer); resolve(r); }
        else if (typeof r !== 'string') r.close(); // opened after we gave up: don't keep it
      };
      const timer = setTimeout(() => finish(NOTICES.unavailable), OPEN_TIMEOUT_MS);
      try {
        openDB<CacheSchema>(name, DB_VERSION, {
          upgrade: (db, oldVersion, _newVersion, tx) => upgrade(db, oldVersion, tx),
          blocked: () => finish(NOTICES.blocked),
          // A newer version wants to upgrade in another tab: step aside instead of blocking it.
          blocking: () => this.#off(NOTICES.superseded),
          terminated: () => this.#off(NOTICES.unavailable)
        }).then(finish, () => finish(NOTICES.unavailable));
      } catch {
        finish(NOTICES.unavailable); // e.g. SecurityError thrown synchronously in sandboxed frames
      }
    });
    if (typeof result === 'string') return this.#off(result);
    this.#db = result;
    this.#set('ok', null);
  }

  close(): void {
    this.#db?.close();
    this.#db = null;
  }

  /** Runs fn against the open database; any failure becomes `fallback` (never a throw). */
  async #guard<T>(fallback: T, fn: (db: Db) => Promise<T>, serial = false): Promise<T> {
    const run = async () => {
      const db = this.#db;
      if (!db) return fallback;
      try {
        return await fn(db);
      } catch (e) {
        // InvalidStateError: the connection was closed under us (versionchange, browser shutdown).
        if ((e as { name?: unknown })?.name === 'InvalidStateError') this.#off(NOTICES.unavailable);
        return fallback;
      }
    };
    if (!serial) return run();
    const next = this.#queue.then(run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  list(): Promise<CachedMeta[]> {
    return this.#guard([], async (db) => (await db.getAllFromIndex('sessions', 'lastOpenedAt')).filter(isCachedMeta).reverse());
  }

  usage(): Promise<number> {
    return this.#guard(0, async (db) => distinctBytes((await db.getAll('sessions')).filter(isCachedMeta)));
  }

  remove(key: string): Promise<void> {
    return this.#guard(undefined, (db) => this.#removeTx(db, key), true);
  }

  open(key: string): Promise<CachedSession | undefined> {
    return this.#guard(undefined, (db) => this.#openTx(db, key), true);
  }

  peek(key: string): Promise<CachedSession | undefined> {
    return this.#guard(undefined, (db) => this.#openTx(db, key, false), true);
  }

  put(summary: SessionSummary, files: CacheFile[]): Promise<boolean> {
    return this.#guard(false, (db) => this.#put(db, summary, files), true);
  }

  async #removeTx(db: Db, key: string): Promise<void> {
    const tx = db.transaction(['sessions', 'blobs'], 'readwrite');
    tx.done.catch(() => undefined); // failures surface through the awaited requests below
    const meta = await tx.objectStore('sessions').get(key);
    if (meta) await drop(tx, meta);
    await tx.done;
  }

  async #openTx(db: Db, key: string, touch = true): Promise<CachedSession | undefined> {
    const tx = db.transaction(['sessions', 'blobs'], 'readwrite');
    tx.done.catch(() => undefined);
    const meta = await tx.objectStore('sessions').get(key);
    if (!isCachedMeta(meta)) return undefined;
    const files: CacheFile[] = [];
    for (const f of meta.files) {
      const rec = await tx.objectStore('blobs').get(f.hash);
      if (!rec) {
        // A blob vanished (storage cleared under us): the entry can never reopen, so forget it.
        await drop(tx, meta);
        await tx.done;
        return undefined;
      }
      files.push({ path: f.path, kind: f.kind, blob: rec.blob });
    }
    if (!touch) return { meta, files };
    const touched = { ...meta, lastOpenedAt: this.#now() };
    await tx.objectStore('sessions').put(touched);
    await tx.done;
    return { meta: touched, files };
  }

  async #put(db: Db, summary: SessionSummary, files: CacheFile[]): Promise<boolean> {
    const entries: Entry[] = [];
    for (const f of files) entries.push({ path: f.path, kind: f.kind, hash: await hashBlob(f.blob), bytes: f.blob.size, blob: f.blob });
    const all = (await db.getAll('sessions')).filter(isCachedMeta);
    const previous = all.find((m) => m.key === summary.key);
    const now = this.#now();
    const meta: CachedMeta = {
      key: summary.key, title: summary.title, startedAt: summary.startedAt, endedAt: summary.endedAt,
      bytes: summary.bytes, turns: summary.turns,
      files: entries.map(({ path, kind, hash, bytes }) => ({ path, kind, hash, bytes })),
      addedAt: previous?.addedAt ?? now, lastOpenedAt: now
    };
    const budget = await this.#effectiveBudget(distinctBytes(all));
    const size = distinctBytes([meta]);
    if (size > budget) {
      this.#set('quota', NOTICES.tooLarge(size, budget));
      return false;
    }
    for (const key of planEviction(all, meta, budget)) await this.#removeTx(db, key);
    try {
      await this.#writeTx(db, meta, entries);
    } catch (e) {
      if (!isQuotaError(e)) throw e;
      if (!(await this.#evictForRetry(db, meta)) || !(await this.#retryWrite(db, meta, entries))) {
        this.#set('quota', NOTICES.quota);
        return false;
      }
    }
    this.#set('ok', null);
    return true;
  }

  /** After a QuotaExceededError the real limit is below our estimate: free as many bytes as the
   *  write adds, oldest sessions first. False if there is nothing left to evict. */
  async #evictForRetry(db: Db, meta: CachedMeta): Promise<boolean> {
    const all = (await db.getAll('sessions')).filter(isCachedMeta);
    const stored = new Set(all.flatMap((m) => m.files.map((f) => f.hash)));
    const adding = distinctBytes([{ ...meta, files: meta.files.filter((f) => !stored.has(f.hash)) }]);
    const victims = planEviction(all, meta, Math.max(0, distinctBytes([...all, meta]) - adding));
    for (const key of victims) await this.#removeTx(db, key);
    return victims.length > 0;
  }

  async #retryWrite(db: Db, meta: CachedMeta, entries: Entry[]): Promise<boolean> {
    try {
      await this.#writeTx(db, meta, entries);
      return true;
    } catch (e) {
      if (isQuotaError(e)) return false;
      throw e;
    }
  }

  /** One transaction: blobs gain/lose a reference as the session's file set changes, then the record. */
  async #writeTx(db: Db, meta: CachedMeta, entries: Entry[]): Promise<void> {
    const tx = db.transaction(['sessions', 'blobs'], 'readwrite');
    tx.done.catch(() => undefined);
    try {
      const blobs = tx.objectStore('blobs');
      const old = await tx.objectStore('sessions').get(meta.key);
      const oldHashes = hashesOf(isCachedMeta(old) ? old.files : []);
      const newEntries = new Map(entries.map((e) => [e.hash, e]));
      for (const [hash, e] of newEntries) {
        if (oldHashes.has(hash)) continue;
        const rec = await blobs.get(hash);
        await blobs.put(rec ? { ...rec, refs: rec.refs + 1 } : { hash, blob: e.blob, bytes: e.bytes, refs: 1 });
      }
      for (const hash of oldHashes) if (!newEntries.has(hash)) await release(blobs, hash);
      await tx.objectStore('sessions').put(meta);
      await tx.done;
    } catch (e) {
      try { tx.abort(); } catch { /* already finished or aborted */ }
      throw e;
    }
  }

  /** The budget, lowered to a share of what the origin may still store when the browser says. */
  async #effectiveBudget(ourUsage: number): Promise<number> {
    try {
      const est = await globalThis.navigator?.storage?.estimate?.();
      if (est && typeof est.quota === 'number' && typeof est.usage === 'number') {
        const available = Math.max(0, est.quota - est.usage) + ourUsage;
        return Math.min(this.#budget, Math.floor(available * QUOTA_SHARE));
      }
    } catch {
      /* no estimate: the configured budget alone applies */
    }
    return this.#budget;
  }
}
