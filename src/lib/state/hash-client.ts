// The page's side of the hash worker (worker/hash.worker.ts): content hashes of the files a load
// caches are computed there instead of on the page's thread (store/content-hash.ts says why).
// The worker is started on the first hash, never at module load (prerendering has no Worker),
// and kept for the next load. A worker whose script cannot load never answers, so its 'error'
// event rejects every hash it was asked for, and every later one: content-hash.ts then computes
// them on this thread instead.
import * as Comlink from 'comlink';
import { useOffThreadHasher } from '../store/content-hash.ts';
import type { HashWorkerApi } from '../worker/hash.worker.ts';

let api: Comlink.Remote<HashWorkerApi> | null = null;
let failed = false;
let hashed = 0;
const waiting = new Set<(e: Error) => void>();

function start(): Comlink.Remote<HashWorkerApi> {
  const worker = new Worker(new URL('../worker/hash.worker.ts', import.meta.url), { type: 'module' });
  worker.addEventListener(
    'error',
    () => {
      failed = true;
      worker.terminate();
      for (const reject of waiting) reject(new Error('hash worker failed'));
      waiting.clear();
    },
    { once: true }
  );
  return Comlink.wrap<HashWorkerApi>(worker);
}

/** A blob's content hash from the hash worker; rejects where that worker cannot run. */
export function hashInWorker(blob: Blob): Promise<string> {
  if (failed || typeof Worker === 'undefined') return Promise.reject(new Error('no hash worker'));
  try {
    api ??= start();
  } catch {
    failed = true;
    return Promise.reject(new Error('no hash worker'));
  }
  const remote = api;
  return new Promise<string>((resolve, reject) => {
    waiting.add(reject);
    remote
      .hash(blob)
      .then((hash) => {
        hashed++;
        resolve(hash);
      }, reject)
      .finally(() => waiting.delete(reject));
  });
}

/** Hashes the worker has answered, and whether it failed (`window.__loupe.hashes()`). */
export const hashStats = (): { inWorker: number; failed: boolean } => ({ inWorker: hashed, failed });

/** Content hashes go to the hash worker from now on (the Viewer calls this once). */
export function hashOffThread(): void {
  useOffThreadHasher(hashInWorker);
}
