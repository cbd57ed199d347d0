// The persisted row index of cached sessions: what the page needs to show a session without its
// model (the session summary, the chat rows, the timeline layout), so a session reopened from
// "Recent sessions" is on screen before it is parsed again. Keyed by the session's content hash
// (content-hash.ts sessionContentHash over its cached files) together with MODEL_VERSION and
// INDEX_FORMAT: a changed file, a new model or a new row shape simply misses, and the caller
// falls back to a full parse. Its own database, written and read by the parse worker (so the rows
// never cross the page); the rows go in chunks of CHUNK_ROWS, one short transaction each. The
// session cache decides what stays: prune() drops every index whose session is no longer cached.
// Like the other stores it fails quietly: errors resolve to null / false / nothing.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MODEL_VERSION } from '../model/index.ts';

/** Bump when the shape of what is stored changes (the rows, the summary, the timeline). */
export const INDEX_FORMAT = 1;
export const ROW_INDEX_DB_NAME = 'loupe-row-index';
/** Schema history: 1 = stores `heads` (keyPath id, index contentHash) and `chunks` ([id, n]). */
export const ROW_INDEX_DB_VERSION = 1;
/** Rows per stored chunk: each write clones one chunk in the worker; at 500 a chunk of the 100 MB
 *  benchmark session took 86 ms to clone, a wait for the page's row requests, so fewer. */
export const CHUNK_ROWS = 100;

/** What identifies a persisted index: the content, the model that built it, the stored format. */
export const indexId = (contentHash: string) => `${contentHash}|${MODEL_VERSION}|${INDEX_FORMAT}`;

interface Head<S, T> {
  id: string;
  contentHash: string;
  sessionKey: string;
  summary: S;
  timeline: T;
  rowCount: number;
  chunks: number;
  savedAt: number;
}
interface Chunk<R> { id: string; n: number; rows: R[] }

interface Schema<S, R, T> extends DBSchema {
  heads: { key: string; value: Head<S, T>; indexes: { contentHash: string } };
  chunks: { key: [string, number]; value: Chunk<R> };
}

export interface PersistedIndex<S, R, T> { sessionKey: string; summary: S; rows: R[]; timeline: T }

export interface WriteStats { chunks: number; ms: number; longestPutMs: number }

export interface RowIndexStore<S, R, T> {
  has(contentHash: string): Promise<boolean>;
  /** The persisted index, or null when it is missing, of another model / format, or incomplete. */
  read(contentHash: string): Promise<PersistedIndex<S, R, T> | null>;
  /** Writes the index chunk by chunk (the head last, so a half-written index is never read). */
  write(contentHash: string, index: PersistedIndex<S, R, T>, pause?: () => Promise<void>): Promise<WriteStats | null>;
  /** Deletes every index whose content hash is not in `keep`, and every index of an older model / format. */
  prune(keep: ReadonlySet<string>): Promise<number>;
  close(): void;
}

export async function openRowIndex<S, R, T>(opts: { dbName?: string; now?: () => number } = {}): Promise<RowIndexStore<S, R, T> | null> {
  const now = opts.now ?? Date.now;
  type Db = IDBPDatabase<Schema<S, R, T>>;
  let db: Db;
  try {
    if (typeof indexedDB === 'undefined' || indexedDB === null) return null;
    db = await openDB<Schema<S, R, T>>(opts.dbName ?? ROW_INDEX_DB_NAME, ROW_INDEX_DB_VERSION, {
      upgrade(d, oldVersion) {
        if (oldVersion < 1) {
          d.createObjectStore('heads', { keyPath: 'id' }).createIndex('contentHash', 'contentHash');
          d.createObjectStore('chunks', { keyPath: ['id', 'n'] });
        }
      },
      // A newer Loupe in another tab wants to upgrade: let it (this tab then re-parses on reopen).
      blocking: () => db?.close()
    });
  } catch {
    return null;
  }

  const chunkRange = (id: string) => IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]);

  async function remove(id: string): Promise<void> {
    const tx = db.transaction(['heads', 'chunks'], 'readwrite');
    await Promise.all([tx.objectStore('heads').delete(id), tx.objectStore('chunks').delete(chunkRange(id)), tx.done]);
  }

  return {
    async has(contentHash) {
      try {
        return (await db.getKey('heads', indexId(contentHash))) !== undefined;
      } catch {
        return false;
      }
    },
    async read(contentHash) {
      const id = indexId(contentHash);
      try {
        const head = await db.get('heads', id);
        if (!isHead(head) || head.contentHash !== contentHash) return null;
        const chunks = await db.getAll('chunks', chunkRange(id));
        if (chunks.length !== head.chunks) return null;
        const rows: R[] = [];
        for (const [i, c] of chunks.entries()) {
          if (c?.n !== i || !Array.isArray(c.rows)) return null;
          for (const r of c.rows) rows.push(r);
        }
        if (rows.length !== head.rowCount) return null;
        return { sessionKey: head.sessionKey, summary: head.summary, rows, timeline: head.timeline };
      } catch {
        return null;
      }
    },
    async write(contentHash, index, pause) {
      const id = indexId(contentHash);
      const started = performance.now();
      let longestPutMs = 0;
      try {
        // An earlier, possibly partial write of the same id goes first.
        await remove(id);
        const chunks = Math.ceil(index.rows.length / CHUNK_ROWS);
        for (let n = 0; n < chunks; n++) {
          const t = performance.now();
          // put() clones the value synchronously: that is the task this chunking keeps short.
          const done = db.put('chunks', { id, n, rows: index.rows.slice(n * CHUNK_ROWS, (n + 1) * CHUNK_ROWS) });
          longestPutMs = Math.max(longestPutMs, performance.now() - t);
          await done;
          if (pause) await pause();
        }
        const t = performance.now();
        const done = db.put('heads', {
          id, contentHash, sessionKey: index.sessionKey, summary: index.summary, timeline: index.timeline,
          rowCount: index.rows.length, chunks, savedAt: now()
        });
        longestPutMs = Math.max(longestPutMs, performance.now() - t);
        await done;
        return { chunks, ms: performance.now() - started, longestPutMs };
      } catch {
        // A full disk costs the next reopen its speed-up, nothing else; drop what was half written.
        await remove(id).catch(() => undefined);
        return null;
      }
    },
    async prune(keep) {
      let removed = 0;
      try {
        const heads = await db.getAll('heads');
        for (const h of heads) {
          const current = isHead(h) && h.id === indexId(h.contentHash);
          if (current && keep.has(h.contentHash)) continue;
          await remove(h.id);
          removed++;
        }
        // Chunks without a head (a write cut short by a closed tab) go too, unless their session is
        // still cached: that may be a write in flight, and the next write of it clears them anyway.
        const orphans = new Set<string>();
        for (const [id] of await db.getAllKeys('chunks')) {
          const hash = id.split('|')[0];
          if (!keep.has(hash) || id !== indexId(hash)) orphans.add(id);
        }
        for (const id of orphans) await remove(id);
      } catch {
        /* the next prune tries again */
      }
      return removed;
    },
    close() {
      db.close();
    }
  };
}

function isHead(v: unknown): v is Head<unknown, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const h = v as Record<string, unknown>;
  return typeof h.id === 'string' && typeof h.contentHash === 'string' && typeof h.sessionKey === 'string' &&
    typeof h.rowCount === 'number' && typeof h.chunks === 'number' && typeof h.summary === 'object' && h.summary !== null;
}
