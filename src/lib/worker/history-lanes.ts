// Starts the history index's lanes: search workers (search.worker.ts `index`), one per core as
// the search pool sizes itself. A session's files are read here, on the engine's thread, and
// their bytes moved to the lane (a read's data arrives only while its thread is free, and a
// lane's thread is busy building). Where a worker cannot start there are none, and the queue
// builds on the engine's own thread (view/history/queue.ts).
import * as Comlink from 'comlink';
import { readAhead } from '../view/search/lane.ts';
import type { HistoryJob, HistoryLane, HistoryResult } from '../view/history/lane.ts';
import { poolSize } from './search-pool.ts';
import type { SearchWorkerApi } from './search.worker.ts';

export function startHistoryLanes(): HistoryLane[] {
  if (typeof Worker === 'undefined') return [];
  const n = poolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
  const lanes: HistoryLane[] = [];
  try {
    for (let i = 0; i < n; i++) lanes.push(workerLane());
  } catch {
    for (const l of lanes) l.dispose?.();
    return [];
  }
  return lanes;
}

function workerLane(): HistoryLane {
  const worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
  const api = Comlink.wrap<SearchWorkerApi>(worker);
  let failed: Error | null = null;
  const waiting = new Set<(e: Error) => void>();
  worker.addEventListener('error', (e) => {
    failed = new Error(`history worker failed: ${e.message ?? 'no message'}`);
    for (const reject of waiting) reject(failed);
    waiting.clear();
  });
  return {
    index(job: HistoryJob): Promise<HistoryResult> {
      if (failed) return Promise.reject(failed);
      return new Promise<HistoryResult>((resolve, reject) => {
        waiting.add(reject);
        withBytes(job)
          .then((j): Promise<HistoryResult> => api.index(Comlink.transfer(j, j.files.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : [])))) as Promise<HistoryResult>)
          .then(resolve, reject)
          .finally(() => waiting.delete(reject));
      });
    },
    dispose() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  };
}

/** The job with its files read (as it is when they are too big to read whole, or a read failed: the lane reads them and names what failed). */
async function withBytes(job: HistoryJob): Promise<HistoryJob> {
  const files = await readAhead(job.files);
  return files ? { ...job, files } : job;
}
