// The scan index: what the head/tail scan of a big drop learned about each file, kept in its own
// IndexedDB database so that dropping the same ~/.claude/projects again lists it without reading
// the files again (a file is reused only when its identity — path, size, modification time and
// the model / scan versions — is unchanged; ingest/scan.ts defines it). The records are opaque
// here. They are grouped by folder (one lookup per folder) and stored in parts of at most
// PART_ENTRIES records, each written in its own transaction: a page writes them after a drop is
// shown, and one folder of ~400 files cloned at once was a 50-70 ms task. A small
// record per folder (when it was saved, how many parts and files) is all the cap reads: the whole
// index is capped (MAX_ENTRIES files), oldest folders dropped first. Like the session cache it is
// an optimisation that fails quietly: errors resolve to [] / nothing.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

export interface ScanRecord {
  identity: string;
  path: string;
}

/** One folder's save: its parts are `[folder, 0]` … `[folder, parts - 1]` in `parts`. */
interface FolderRecord {
  folder: string;
  savedAt: number;
  parts: number;
  entries: number;
}

interface PartRecord<T> {
  folder: string;
  part: number;
  entries: T[];
}

interface Schema<T> extends DBSchema {
  folders: { key: string; value: FolderRecord; indexes: { savedAt: number } };
  parts: { key: [string, number]; value: PartRecord<T> };
}

export const SCAN_DB_NAME = 'loupe-scan-index';
/** About 1 KB a file: 50,000 files is some tens of MB at most, far inside any origin's quota. */
export const MAX_ENTRIES = 50_000;
/** Records per stored part: about 64 KB to clone per write, a few ms. */
export const PART_ENTRIES = 64;

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
    // Version 2 stores folders in parts; version 1's whole-folder records are dropped (a cache).
    db = await openDB<Schema<T>>(opts.dbName ?? SCAN_DB_NAME, 2, {
      upgrade(d) {
        for (const name of [...d.objectStoreNames]) d.deleteObjectStore(name);
        d.createObjectStore('folders', { keyPath: 'folder' }).createIndex('savedAt', 'savedAt');
        d.createObjectStore('parts', { keyPath: ['folder', 'part'] });
      }
    });
  } catch {
    return null;
  }
  // Every part of a folder, this one's and any a longer earlier save left.
  const partsOf = (folder: string) => IDBKeyRange.bound([folder, 0], [folder, Infinity]);
  return {
    async lookup(folders) {
      const out: T[] = [];
      try {
        for (const folder of new Set(folders)) {
          const rec = await db.get('folders', folder);
          for (let part = 0; rec && part < rec.parts; part++) {
            const stored = await db.get('parts', [folder, part]);
            if (stored) for (const e of stored.entries) out.push(e);
          }
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
        for (const [folder, entries] of by) {
          // The folder's record goes first and its old parts with it: a save cut short leaves
          // the folder out of the index, never an older save's parts read as this one's.
          await db.delete('folders', folder);
          await db.delete('parts', partsOf(folder));
          const parts = Math.ceil(entries.length / PART_ENTRIES);
          for (let part = 0; part < parts; part++) {
            await db.put('parts', { folder, part, entries: entries.slice(part * PART_ENTRIES, (part + 1) * PART_ENTRIES) });
          }
          await db.put('folders', { folder, savedAt: now(), parts, entries: entries.length });
        }
        // Newest first: drop from the oldest end until under the cap.
        const sizes = (await db.getAllFromIndex('folders', 'savedAt')).reverse();
        let total = sizes.reduce((n, r) => n + r.entries, 0);
        while (total > max && sizes.length > 1) {
          const old = sizes.pop() as FolderRecord;
          await db.delete('folders', old.folder);
          await db.delete('parts', partsOf(old.folder));
          total -= old.entries;
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
