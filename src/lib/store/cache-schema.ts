// The IndexedDB layout of the session cache: record types, the versioned schema and its
// upgrade, the guard for records read back, and the reference-counted blob helpers every write
// transaction uses. session-cache.ts holds the policy (budget, eviction, failures).

import type { DBSchema, IDBPDatabase, IDBPObjectStore, IDBPTransaction } from 'idb';

/** Schema history: 1 = stores `sessions` (keyPath key) and `blobs` (keyPath hash);
 *  2 = adds the `lastOpenedAt` index on `sessions` for the recent list and LRU eviction. */
export const DB_VERSION = 2;

export interface CachedFile { path: string; kind: string; hash: string; bytes: number }
export interface CachedMeta {
  key: string;
  title: string;
  startedAt: number | null;
  endedAt: number | null;
  /** Total bytes of the session's input files (duplicates within the session included). */
  bytes: number;
  turns: number;
  files: CachedFile[];
  addedAt: number;
  lastOpenedAt: number;
}

export interface BlobRecord { hash: string; blob: Blob; bytes: number; refs: number }
export interface CacheSchema extends DBSchema {
  sessions: { key: string; value: CachedMeta; indexes: { lastOpenedAt: number } };
  blobs: { key: string; value: BlobRecord };
}
export type Db = IDBPDatabase<CacheSchema>;
export type BlobStore = IDBPObjectStore<CacheSchema, ('sessions' | 'blobs')[], 'blobs', 'readwrite'>;

type UpgradeTx = IDBPTransaction<CacheSchema, ('sessions' | 'blobs')[], 'versionchange'>;

export function upgrade(db: Db, oldVersion: number, tx: UpgradeTx): void {
  if (oldVersion < 1) {
    db.createObjectStore('sessions', { keyPath: 'key' });
    db.createObjectStore('blobs', { keyPath: 'hash' });
  }
  if (oldVersion < 2) tx.objectStore('sessions').createIndex('lastOpenedAt', 'lastOpenedAt');
}

export function isCachedMeta(v: unknown): v is CachedMeta {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return typeof m.key === 'string' && typeof m.title === 'string' && typeof m.lastOpenedAt === 'number' &&
    typeof m.addedAt === 'number' && Array.isArray(m.files) &&
    m.files.every((f: unknown) => typeof f === 'object' && f !== null &&
      typeof (f as CachedFile).hash === 'string' && typeof (f as CachedFile).bytes === 'number');
}

/** Drops one session's reference to a blob, deleting the blob when nobody uses it any more. */
export async function release(blobs: BlobStore, hash: string): Promise<void> {
  const rec = await blobs.get(hash);
  if (!rec) return;
  if (rec.refs <= 1) await blobs.delete(hash);
  else await blobs.put({ ...rec, refs: rec.refs - 1 });
}

export const hashesOf = (files: readonly CachedFile[]) => new Set(files.map((f) => f.hash));

export type WriteTx = IDBPTransaction<CacheSchema, ('sessions' | 'blobs')[], 'readwrite'>;

/** Deletes a session record and its references to blobs, inside the caller's transaction. */
export async function drop(tx: WriteTx, meta: unknown): Promise<void> {
  const key = (meta as { key?: unknown }).key;
  if (typeof key !== 'string') return;
  for (const hash of hashesOf(isCachedMeta(meta) ? meta.files : [])) await release(tx.objectStore('blobs'), hash);
  await tx.objectStore('sessions').delete(key);
}
