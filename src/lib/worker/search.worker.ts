// A search worker: one lane of the engine's search pool (view/search/pool.ts), started by the
// engine worker. A thin comlink shell over view/search/lane.ts: it builds the searchable text of
// the sessions it is handed (their File handles) and keeps some of it for the next query. The
// history index uses the same worker for its lanes (index: one session's digest and calls), and
// a big drop's first scan for its whole-file reads (scanWhole, worker/scan-lanes.ts).
import * as Comlink from 'comlink';
import { LaneState, type LaneJob } from '../view/search/lane.ts';
import { indexSession, serially, type HistoryJob } from '../view/history/lane.ts';
import { scanWhole } from '../view/history/file-pass.ts';
import type { InputFile } from '../ingest/types.ts';

let state: LaneState | null = null;
/** History jobs run one after another (a job sent early waits with its bytes, not half built). */
const indexOne = serially(indexSession);

const api = {
  /** Sets this lane's text budgets (characters: built sessions, history-decoded ones, and how long
   *  the latter stay without a job); called once, before the first job. */
  init(maxChars: number, residentChars: number, residentIdleMs: number): void {
    state = new LaneState(maxChars, residentChars, residentIdleMs);
  },
  run(job: LaneJob) {
    // init() is the pool's first message to the lane, so it has run (comlink keeps the order).
    if (!state) throw new Error('search worker used before init()');
    return state.run(job);
  },
  runBatch(jobs: LaneJob[]) {
    if (!state) throw new Error('search worker used before init()');
    return state.runBatch(jobs);
  },
  skipBefore(generation: number): void {
    state?.skipBefore(generation);
  },
  clear(): void {
    state?.clear();
  },
  /** One session of the history index (view/history/lane.ts): built here, only its entry goes back. */
  index(job: HistoryJob) {
    return indexOne(job);
  },
  /** One file of a big drop's first scan, read whole here: its scan and its billed calls (view/history/file-pass.ts). */
  scanWhole(file: InputFile, path: string) {
    return scanWhole(file, path);
  },
  /** Ends this worker (a pool or a history pass let it go); no answer comes. */
  close(): void {
    // Its starter lets go of it (lane-worker.ts); the word leaves before the worker ends.
    post('closed');
    self.close();
  }
};

export type SearchWorkerApi = typeof api;

/** A word to whoever started this worker (lane-worker.ts), beside the API's port. */
function post(word: 'loaded' | 'closed'): void {
  (self as unknown as { postMessage(message: unknown): void }).postMessage(word);
}

// Served on the port its starter sends (lane-worker.ts), after a first word that the module loaded.
self.addEventListener('message', function serve(e: MessageEvent) {
  if (!(e.data?.lanePort instanceof MessagePort)) return;
  self.removeEventListener('message', serve);
  Comlink.expose(api, e.data.lanePort);
});
post('loaded');
