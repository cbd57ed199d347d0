// The hash worker: content hashes (store/content-hash.ts `digestBlob`) of the files a load caches,
// off the page's thread. Chromium runs `crypto.subtle.digest` where it is called, so hashing a
// 100 MB file on the page made 40–76 ms tasks during its load; here it costs the page nothing.
// A thin shell: one message in ({ id, blob }), one out ({ id, hash } or { id, error }).
import { digestBlob } from '../store/content-hash.ts';

export interface HashRequest {
  id: number;
  blob: Blob;
}
export type HashAnswer = { id: number; hash: string } | { id: number; error: string };

/** The answer to one request (exported for its test; the worker runs nothing else). */
export async function answer(req: HashRequest): Promise<HashAnswer> {
  try {
    return { id: req.id, hash: await digestBlob(req.blob) };
  } catch (e) {
    return { id: req.id, error: e instanceof Error ? e.message : String(e) };
  }
}

// Served only in a worker (its test imports `answer` in Node, where there is no `self`).
if (typeof self !== 'undefined') {
  self.addEventListener('message', (e: MessageEvent<HashRequest>) => {
    void answer(e.data).then((a) => (self as unknown as { postMessage(m: HashAnswer): void }).postMessage(a));
  });
}
