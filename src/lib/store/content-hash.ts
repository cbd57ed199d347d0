// Content hashes for cached files, so identical files dropped in two sessions are stored once.
//
// Scheme: split the bytes into 4 MiB chunks, SHA-256 each chunk (Web Crypto), then SHA-256 the
// concatenated chunk digests; lowercase hex. Not the plain SHA-256 of the file, on purpose:
// `crypto.subtle.digest` copies its whole input on the calling thread, which for a 100 MB file
// blocked Chromium's main thread for about 150 ms (measured); 4 MiB chunks keep each step short
// and never hold the whole file in memory. Every file uses the same scheme, so equal bytes always
// give equal hashes.

export const HASH_CHUNK_BYTES = 4 * 1024 * 1024;
const DIGEST_BYTES = 32;

/** True where Web Crypto's digest exists (it is missing on plain-http pages other than localhost). */
export function canHash(): boolean {
  return typeof globalThis.crypto?.subtle?.digest === 'function';
}

/** Hashes computed (or under way) per Blob: a Blob's bytes never change, so a hash started while
 *  the worker parses (Viewer.load) is the one the cache write then awaits. */
const memo = new WeakMap<Blob, Promise<string>>();

/** Hashes a blob on another thread (state/hash-client.ts: a worker running digestBlob), or null. */
export type OffThreadHasher = (blob: Blob) => Promise<string>;
let offThread: OffThreadHasher | null = null;

/** Where hashes are computed: Chromium runs `crypto.subtle.digest` on the calling thread, and a
 *  100 MB file's 25 chunks came back as 40–76 ms tasks on the page's thread during its load;
 *  the page hands them to a worker instead. Null: this thread. */
export function useOffThreadHasher(hasher: OffThreadHasher | null): void {
  offThread = hasher;
}

/** The content hash of the blob's bytes as 64 hex characters. Rejects if Web Crypto is unavailable. */
export function hashBlob(blob: Blob): Promise<string> {
  let h = memo.get(blob);
  if (!h) {
    // A hasher that fails (its worker could not start) leaves the hash to this thread: same scheme.
    const away = offThread;
    h = away ? away(blob).catch(() => digestBlob(blob)) : digestBlob(blob);
    memo.set(blob, h);
    h.catch(() => memo.delete(blob)); // a failed read may succeed later: not remembered
  }
  return h;
}

/** The scheme above, on this thread (the hash worker runs this too). */
export async function digestBlob(blob: Blob): Promise<string> {
  const chunks = Math.max(1, Math.ceil(blob.size / HASH_CHUNK_BYTES));
  const digests = new Uint8Array(chunks * DIGEST_BYTES);
  for (let i = 0; i < chunks; i++) {
    const bytes = await blob.slice(i * HASH_CHUNK_BYTES, (i + 1) * HASH_CHUNK_BYTES).arrayBuffer();
    digests.set(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), i * DIGEST_BYTES);
  }
  return toHex(await crypto.subtle.digest('SHA-256', digests));
}

function toHex(buf: ArrayBuffer): string {
  let hex = '';
  for (const byte of new Uint8Array(buf)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** One hash for a session's whole input: its files' paths and content hashes, in a fixed order.
 *  The persisted row index is keyed by it, so any changed, added or removed file misses the index. */
export async function sessionContentHash(files: readonly { path: string; hash: string }[]): Promise<string> {
  const line = files.map((f) => `${f.path}\u0000${f.hash}`).sort().join('\n');
  return toHex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(line)));
}
