// The scan index: what the head/tail scan of a big drop learned about each file, kept in its own
// IndexedDB database so that dropping the same ~/.claude/projects again lists it without reading
// the files again (a file is reused only when its identity — path, size, modification time and
// the model / scan versions — is unchanged; ingest/scan.ts defines it). The records are opaque
// here. One record per folder, so reading or writing never moves one big value through the page at
// once; the whole index is capped (MAX_ENTRIES files), oldest folders dropped first. Like the
// session cache it is an optimisation that fails quietly: errors resolve to [] / nothing.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface ScanRecord {
  identity: string;
  path: string;
}

interface FolderRecord<T> {
  folder: string;
  savedAt: number;
  entries: T[];
}

interface Schema<T> extends DBSchema {
  folders: { key: string; value: FolderRecord<T>; indexes: { savedAt: number } };
}

export const SCAN_DB_NAME = 'loupe-scan-index';
/** About 1 KB a file: 50,000 files is some tens of MB at most, far inside any origin's quota. */
export const MAX_ENTRIES = 50_000;

/** A drop's folders as the index groups them: the first two path segments of each file's folder. */
export function folderOf(path: string): string {
  const segs = path.split('/').filter(Boolean);
  return segs.slice(0, Math.min(2, segs.length - 1)).join('/');
}

export interface ScanIndex<T extends ScanRecord> {
  /** Stored records of these folders (one read per folder). */
  lookup(folders: Iterable<string>): Promise<T[]>;
  /** Replaces the folders these records belong to, then trims the index to its cap. */
  save(records: readonly T[]): Promise<void>;
  close(): void;
}

export async function openScanIndex<T extends ScanRecord>(opts: { dbName?: string; maxEntries?: number; now?: () => number } = {}): Promise<ScanIndex<T> | null> {
  const max = opts.maxEntries ?? MAX_ENTRIES;
  const now = opts.now ?? Date.now;
  let db: IDBPDatabase<Schema<T>>;
  try {
    if (typeof indexedDB === 'undefined') return null;
    db = await openDB<Schema<T>>(opts.dbName ?? SCAN_DB_NAME, 1, {
      upgrade(d) {
        d.createObjectStore('folders', { keyPath: 'folder' }).createIndex('savedAt', 'savedAt');
      }
    });
  } catch {
    return null;
  }
  return {
    async lookup(folders) {
      const out: T[] = [];
      try {
        for (const folder of new Set(folders)) {
          const rec = await db.get('folders', folder);
          if (rec) for (const e of rec.entries) out.push(e);
        }
      } catch {
        return [];
      }
      return out;
    },
    async save(records) {
      const by = new Map<string, T[]>();
      for (const r of records) {
        const f = folderOf(r.path);
        let list = by.get(f);
        if (!list) by.set(f, (list = []));
        list.push(r);
      }
      try {
        // One folder per transaction: each write serializes one folder's records, a short task.
        for (const [folder, entries] of by) await db.put('folders', { folder, savedAt: now(), entries });
        const all = await db.getAllKeysFromIndex('folders', 'savedAt');
        let total = 0;
        const sizes: [string, number][] = [];
        for (const key of all.reverse()) {
          const rec = await db.get('folders', key);
          const n = rec?.entries.length ?? 0;
          sizes.push([key, n]);
          total += n;
        }
        // Newest first in `sizes`: drop from the oldest end until under the cap.
        while (total > max && sizes.length > 1) {
          const [key, n] = sizes.pop() as [string, number];
          await db.delete('folders', key);
          total -= n;
        }
      } catch {
        // A full disk or a closed database costs the next drop its speed-up, nothing else.
      }
    },
    close() {
      db.close();
    }
  };
}
