// Starts the history index's lanes: search workers (search.worker.ts `index`), one per core as
// the search pool sizes itself. A session's files are read here, on the engine's thread, and
// their bytes moved to the lane (a read's data arrives only while its thread is free, and a
// lane's thread is busy building). Where a worker cannot start there are none, and the queue
// builds on the engine's own thread (view/history/queue.ts).
import type { HistoryJob, HistoryLane, HistoryResult } from '../view/history/lane.ts';
import { canStartLanes, poolSize, startSearchWorker, transferable, withBytes } from './search-pool.ts';

export function startHistoryLanes(): HistoryLane[] {
  if (!canStartLanes()) return [];
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
  const { api, guarded, dispose } = startSearchWorker('history worker');
  return {
    index: (job: HistoryJob): Promise<HistoryResult> => guarded(() => withBytes(job).then((j) => api.index(transferable(j)) as Promise<HistoryResult>)),
    dispose
  };
}
