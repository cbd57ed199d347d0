// Content hashes for cached files: SHA-256 (Web Crypto) of the bytes, as lowercase hex.
// Identical files dropped in two sessions get the same hash, so the cache stores them once.

/** True where Web Crypto's digest exists (it is missing on plain-http pages other than localhost). */
export function canHash(): boolean {
  return typeof globalThis.crypto?.subtle?.digest === 'function';
}

/** SHA-256 of the blob's bytes as 64 hex characters. Rejects if Web Crypto is unavailable. */
export async function hashBlob(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
