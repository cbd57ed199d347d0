// The history index's storage: one entry per listed session (view/history/types.ts HistoryEntry),
// its own IndexedDB database, keyed by the listed key (which hashes the files' fingerprints) +
// MODEL_VERSION + HISTORY_FORMAT + the caller's `format` (what its bodies hold is versioned by
// the caller: the search index's text), so a re-dropped tree finds every unchanged session and reads
// only the changed ones. A head (digest, counts, the files' signature, bytes) is kept apart from
// the body (billed calls, search index): a re-drop reads the small heads only; reports read the
// bodies when asked. A search index's text, its bulk (~90 % of what is stored), is kept apart
// again ('texts', version 2): the stored history is read back without it, and a query reads the
// text of the sessions its filter does not rule out (texts). Version 1's bodies hold their text
// inline and still read. Bounded: its bytes are counted (JSON size of what is stored), capped at
// maxBytes, and under quota pressure the oldest history (by the session's last activity) goes
// first. A write that still fails reports it (`quota`), and the caller keeps the rest in memory.
// A summary of the whole store (version 3, 'meta': the history view's rows and the usage columns,
// written by the caller) lets the history view open after a reload with one read instead of every
// head and body; every change to the entries marks it out of date in the same transaction (a new
// `rev`), so a summary is only ever read for exactly the entries it was made of.
// Like the other stores it never throws: a blocked database opens as null.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MODEL_VERSION } from '../model/index.ts';

/** What is stored of one session (view/history/types.ts HistoryEntry; opaque here). */
export interface StoredEntry<D, C> {
  key: string;
  digest: D;
  calls: C[];
  search?: unknown;
}

export const HISTORY_DB_NAME = 'loupe-history-index';
/** Bump when what is stored changes shape (the digest, the call rows). */
/** 2: the search index's text format 2 (view/search/history-text.ts): stored entries of 1 are read again. */
export const HISTORY_FORMAT = 2;
/** Default cap on stored bytes (the 1 GB generated tree indexes in well under a tenth of it). */
export const HISTORY_MAX_BYTES = 512 * 1024 * 1024;

/** `format`: the version of what the caller stores inside an entry (view/history/entry.ts
 *  HISTORY_ENTRY_FORMAT): entries of another are not found, so their sessions are read again. */
export const historyId = (key: string, format = '') => `${key}|${MODEL_VERSION}|${HISTORY_FORMAT}${format ? `|${format}` : ''}`;

export interface HistoryHead<D> {
  id: string;
  key: string;
  /** The session's files as read (path, size, modification time): a subagent that grew misses. */
  sig: string;
  /** The session's last activity: eviction takes the oldest history first. */
  lastMs: number;
  /** Bytes of head + body as stored. */
  bytes: number;
  savedAt: number;
  digest: D;
  calls: number;
}

interface Body<C> {
  id: string;
  calls: C[];
  search?: unknown;
}

interface Schema<D, C> extends DBSchema {
  heads: { key: string; value: HistoryHead<D>; indexes: { lastMs: number } };
  bodies: { key: string; value: Body<C> };
  texts: { key: string; value: { id: string; text: Uint8Array } };
  /** 'rev': a token that changes with every change to the entries; 'summary': { rev, value }. */
  meta: { key: string; value: unknown };
}

const STORES = ['heads', 'bodies', 'texts'] as const;
/** The stores a change to the entries writes: the entries' own and meta (its new rev). */
const CHANGES = [...STORES, 'meta'] as const;
/** A new rev per change: unique within a page, and across reloads (time + a random tail). */
const nextRev = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/** A search index whose `text` (bytes) is kept in 'texts': the body holds the rest and the text's
 *  size (`textBytes`), its text null. Anything else is stored as it is. */
function splitText(search: unknown): { rest: unknown; text: Uint8Array | null } {
  const text = (search as { text?: unknown } | null)?.text;
  if (!(text instanceof Uint8Array)) return { rest: search, text: null };
  return { rest: { ...(search as object), text: null, textBytes: text.byteLength }, text };
}

export type PutOutcome = { ok: true; evicted: number; bytes: number; sizes: Map<string, number> } | { ok: false; quota: boolean; message: string; evicted: number };

export interface HistoryStore<D = unknown, C = unknown> {
  /** Stored heads of these listed keys whose signature matches (a changed file misses). */
  heads(wanted: ReadonlyMap<string, string>): Promise<Map<string, HistoryHead<D>>>;
  /** The billed calls and search index of these keys (absent: not stored); a search index's text
   *  is not in it (null, its size in `textBytes`) unless version 1 wrote it. */
  bodies(keys: readonly string[]): Promise<Map<string, { calls: C[]; search?: unknown }>>;
  /** The search index texts of these keys (absent: none stored). */
  texts(keys: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** Stores entries (one transaction); over the cap or on a full disk the oldest history (by
   *  `lastMs`, the session's last activity) is evicted first. */
  put(entries: readonly { entry: StoredEntry<D, C>; sig: string; lastMs: number }[]): Promise<PutOutcome>;
  /** Every stored head of this model and format (the history read back without its files), and
   *  how many sessions only another Loupe model or format wrote (rebuilt on the next drop). */
  all(): Promise<{ heads: HistoryHead<D>[]; stale: number }>;
  remove(keys: readonly string[]): Promise<void>;
  stats(): Promise<{ sessions: number; bytes: number }>;
  /** The summary written for the entries as they are now (null: none, or entries changed since). */
  summary<S>(): Promise<S | null>;
  /** The entries' current rev: read it, make a summary of the entries, then putSummary. */
  rev(): Promise<string>;
  /** Keeps `value` as the summary of the entries at `rev`; false (nothing kept) when they changed since. */
  putSummary(rev: string, value: unknown): Promise<boolean>;
  clear(): Promise<void>;
  close(): void;
}

export function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || (e as { inner?: unknown } | null)?.inner !== undefined && isQuotaError((e as { inner: unknown }).inner);
}

/**
 * The bytes a stored value takes, near enough for a budget: binary data (a search index's
 * compressed text) by its byte length, strings by their length, numbers as 8. JSON's length was
 * used before, and it counts a Uint8Array as `{"0":31,"1":139,…}`: about eight times its
 * bytes, so the cap evicted sessions that would have fit and a reload read them again.
 */
export function storedSize(v: unknown): number {
  if (v === null || v === undefined) return 4;
  switch (typeof v) {
    case 'string':
      return v.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 4;
    case 'object':
      break;
    default:
      return 0;
  }
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (v instanceof ArrayBuffer) return v.byteLength;
  let n = 2;
  if (Array.isArray(v)) {
    for (const x of v) n += storedSize(x) + 1;
    return n;
  }
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) n += k.length + 3 + storedSize(x);
  return n;
}
const sizeOf = storedSize;

export async function openHistoryStore<D, C>(opts: { dbName?: string; maxBytes?: number; now?: () => number; format?: string } = {}): Promise<HistoryStore<D, C> | null> {
  const maxBytes = opts.maxBytes ?? HISTORY_MAX_BYTES;
  const idOf = (key: string) => historyId(key, opts.format);
  const now = opts.now ?? Date.now;
  let db: IDBPDatabase<Schema<D, C>>;
  try {
    if (typeof indexedDB === 'undefined') return null;
    db = await openDB<Schema<D, C>>(opts.dbName ?? HISTORY_DB_NAME, 3, {
      upgrade(d, from) {
        if (from < 1) {
          d.createObjectStore('heads', { keyPath: 'id' }).createIndex('lastMs', 'lastMs');
          d.createObjectStore('bodies', { keyPath: 'id' });
        }
        if (from < 2) d.createObjectStore('texts', { keyPath: 'id' });
        if (from < 3) d.createObjectStore('meta');
      }
    });
  } catch {
    return null;
  }
  // Sizes of what is stored, read once (heads are small), then kept current by put / remove.
  let sizes: Map<string, { bytes: number; lastMs: number }> | null = null;
  const known = async () => {
    if (sizes) return sizes;
    const next = new Map<string, { bytes: number; lastMs: number }>();
    try {
      let cursor = await db.transaction('heads').store.openCursor();
      while (cursor) {
        next.set(cursor.value.id, { bytes: cursor.value.bytes, lastMs: cursor.value.lastMs });
        cursor = await cursor.continue();
      }
    } catch {
      // unreadable: counted as empty
    }
    return (sizes = next);
  };
  const total = (m: Map<string, { bytes: number }>) => {
    let n = 0;
    for (const v of m.values()) n += v.bytes;
    return n;
  };
  /** Deletes the oldest entries (not `keep`) until `free` more bytes fit under the cap; returns how many went. */
  const evict = async (need: number, keep: ReadonlySet<string>): Promise<number> => {
    const m = await known();
    const victims = [...m].filter(([id]) => !keep.has(id)).sort((a, b) => a[1].lastMs - b[1].lastMs);
    let over = total(m) + need - maxBytes;
    const gone: string[] = [];
    for (const [id, v] of victims) {
      if (over <= 0) break;
      gone.push(id);
      over -= v.bytes;
    }
    if (gone.length) await removeIds(gone);
    return gone.length;
  };
  const removeIds = async (ids: readonly string[]) => {
    const tx = db.transaction(CHANGES, 'readwrite');
    for (const id of ids) for (const name of STORES) void tx.objectStore(name).delete(id);
    void tx.objectStore('meta').put(nextRev(), 'rev');
    await tx.done;
    const m = await known();
    for (const id of ids) m.delete(id);
  };
  const write = async (rows: { head: HistoryHead<D>; body: Body<C>; text: Uint8Array | null }[]) => {
    const tx = db.transaction(CHANGES, 'readwrite');
    void tx.objectStore('meta').put(nextRev(), 'rev').catch(() => undefined);
    for (const r of rows) {
      void tx.objectStore('heads').put(r.head).catch(() => undefined);
      void tx.objectStore('bodies').put(r.body).catch(() => undefined);
      if (r.text) void tx.objectStore('texts').put({ id: r.head.id, text: r.text }).catch(() => undefined);
      else void tx.objectStore('texts').delete(r.head.id).catch(() => undefined);
    }
    await tx.done;
    const m = await known();
    for (const r of rows) m.set(r.head.id, { bytes: r.head.bytes, lastMs: r.head.lastMs });
  };

  return {
    async heads(wanted) {
      const out = new Map<string, HistoryHead<D>>();
      try {
        const tx = db.transaction('heads');
        const got = await Promise.all([...wanted.keys()].map((key) => tx.store.get(idOf(key))));
        for (const h of got) if (h && wanted.get(h.key) === h.sig) out.set(h.key, h);
      } catch {
        // a blocked read indexes the sessions again
      }
      return out;
    },
    async bodies(keys) {
      const out = new Map<string, { calls: C[]; search?: unknown }>();
      try {
        const tx = db.transaction('bodies');
        const got = await Promise.all(keys.map((key) => tx.store.get(idOf(key))));
        got.forEach((b, i) => {
          if (b) out.set(keys[i], { calls: b.calls, search: b.search });
        });
      } catch {
        // missing bodies read as not stored
      }
      return out;
    },
    async texts(keys) {
      const out = new Map<string, Uint8Array>();
      try {
        const tx = db.transaction('texts');
        const got = await Promise.all(keys.map((key) => tx.store.get(idOf(key))));
        got.forEach((t, i) => {
          if (t) out.set(keys[i], t.text);
        });
      } catch {
        // a text that cannot be read is not stored: its session is searched as unindexed
      }
      return out;
    },
    async put(entries) {
      const savedAt = now();
      const rows = entries.map(({ entry, sig, lastMs }) => {
        const id = idOf(entry.key);
        const { rest, text } = splitText(entry.search);
        const body: Body<C> = entry.search === undefined ? { id, calls: entry.calls } : { id, calls: entry.calls, search: rest };
        const head: HistoryHead<D> = { id, key: entry.key, sig, lastMs, bytes: 0, savedAt, digest: entry.digest, calls: entry.calls.length };
        head.bytes = sizeOf(head) + sizeOf(body) + (text?.byteLength ?? 0);
        return { head, body, text };
      });
      const need = rows.reduce((n, r) => n + r.head.bytes, 0);
      const keep = new Set(rows.map((r) => r.head.id));
      let evicted = 0;
      const done = () => ({ ok: true as const, evicted, bytes: need, sizes: new Map(rows.map((r) => [r.head.key, r.head.bytes])) });
      try {
        evicted += await evict(need, keep);
        await write(rows);
        return done();
      } catch (e) {
        if (!isQuotaError(e)) return { ok: false, quota: false, message: messageOf(e), evicted };
      }
      // A full disk: make room from the oldest history (as much again as this write) and try once more.
      try {
        const m = await known();
        const victims = [...m].filter(([id]) => !keep.has(id)).sort((a, b) => a[1].lastMs - b[1].lastMs);
        const gone: string[] = [];
        let freed = 0;
        for (const [id, v] of victims) {
          if (freed >= need) break;
          gone.push(id);
          freed += v.bytes;
        }
        if (gone.length) await removeIds(gone);
        evicted += gone.length;
        await write(rows);
        return done();
      } catch (e) {
        return { ok: false, quota: isQuotaError(e), message: messageOf(e), evicted };
      }
    },
    async all() {
      const heads: HistoryHead<D>[] = [];
      const old = new Set<string>();
      try {
        for (const h of await db.getAll('heads')) {
          if (h.id === idOf(h.key)) heads.push(h);
          else old.add(h.key);
        }
      } catch {
        // unreadable: nothing stored
      }
      // A session read again since (its head of this format is there) is not stale.
      for (const h of heads) old.delete(h.key);
      return { heads, stale: old.size };
    },
    async remove(keys) {
      try {
        await removeIds(keys.map(idOf));
      } catch {
        // left for the next clear
      }
    },
    async stats() {
      const m = await known();
      return { sessions: m.size, bytes: total(m) };
    },
    async summary<S>() {
      try {
        const tx = db.transaction('meta');
        const [rev, summary] = await Promise.all([tx.store.get('rev'), tx.store.get('summary')]);
        const s = summary as { rev: unknown; value: S } | undefined;
        return s && s.rev === (rev ?? '') ? s.value : null;
      } catch {
        return null; // unreadable: the caller reads the entries themselves
      }
    },
    async rev() {
      try {
        return String((await db.get('meta', 'rev')) ?? '');
      } catch {
        return nextRev(); // unreadable: a rev no summary will match
      }
    },
    async putSummary(rev, value) {
      try {
        const tx = db.transaction('meta', 'readwrite');
        if (String((await tx.store.get('rev')) ?? '') !== rev) return false;
        await tx.store.put({ rev, value }, 'summary');
        await tx.done;
        return true;
      } catch {
        return false;
      }
    },
    async clear() {
      try {
        const tx = db.transaction(CHANGES, 'readwrite');
        for (const name of CHANGES) void tx.objectStore(name).clear();
        await tx.done;
      } catch {
        // nothing more to do
      }
      sizes = new Map();
    },
    close() {
      db.close();
    }
  };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}
