// The page's side of the hash worker (worker/hash.worker.ts): content hashes of the files a load
// caches are computed there instead of on the page's thread (store/content-hash.ts says why).
// The worker is started on the first hash, never at module load (prerendering has no Worker),
// and kept for the next load. Where it cannot start, or fails, every hash it was asked for, and
// every later one, is rejected, and content-hash.ts computes it on this thread instead.
import { useOffThreadHasher } from '../store/content-hash.ts';
import type { HashAnswer, HashRequest } from '../worker/hash.worker.ts';

let worker: Worker | null = null;
let failed = false;
let nextId = 1;
const waiting = new Map<number, { resolve: (hash: string) => void; reject: (e: Error) => void }>();

function fail(why: string): void {
  failed = true;
  worker?.terminate();
  worker = null;
  for (const w of waiting.values()) w.reject(new Error(why));
  waiting.clear();
}

function start(): Worker {
  const w = new Worker(new URL('../worker/hash.worker.ts', import.meta.url), { type: 'module' });
  w.addEventListener('error', () => fail('hash worker failed'), { once: true });
  w.addEventListener('message', (e: MessageEvent<HashAnswer>) => {
    const a = e.data;
    const w = waiting.get(a.id);
    if (!w) return;
    waiting.delete(a.id);
    if ('hash' in a) w.resolve(a.hash);
    else w.reject(new Error(a.error));
  });
  return w;
}

/** A blob's content hash from the hash worker; rejects where that worker cannot run. */
export function hashInWorker(blob: Blob): Promise<string> {
  if (failed || typeof Worker === 'undefined') return Promise.reject(new Error('no hash worker'));
  try {
    worker ??= start();
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
    return Promise.reject(new Error('no hash worker'));
  }
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker!.postMessage({ id, blob } satisfies HashRequest);
  });
}

/** Content hashes go to the hash worker from now on (the Viewer calls this once). */
export function hashOffThread(): void {
  useOffThreadHasher(hashInWorker);
}
