// Starts the search pool's lanes for the engine: one search worker (search.worker.ts) each, a
// share of the search text budget each. The workers are the page's, started at the engine's
// request and reached over a port (lane-worker.ts says why); the history index's lanes are
// search workers too (history-lanes.ts). Where none can start (Node: no page, no Worker) there
// is no pool and the engine searches those sessions itself, as before.
import * as Comlink from 'comlink';
import { LocalLane, readAhead, type LaneJob, type LaneResult, type SearchLane } from '../view/search/lane.ts';
import { SearchPool } from '../view/search/pool.ts';
import type { SearchRequest } from '../view/search/run.ts';
import type { InputFile } from '../ingest/types.ts';
import type { SearchWorkerApi } from './search.worker.ts';
import { startLaneWorker } from './lane-worker.ts';

/** Lanes: one per core, at least 2 (a build and a scan side by side), at most 4 (memory). A third
 *  lane on 2 cores was measured and bought nothing once a lane's reads moved to the engine's thread
 *  (`npm run bench:browser -- --case projects`: 9.0 s with three, 9.1 s with two, 60 MB more memory). */
export function poolSize(cores: number | undefined): number {
  return Math.min(4, Math.max(2, cores ?? 2));
}

/** Characters of history search text the lanes keep decoded, all lanes together (lane.ts
 *  `resident`): the whole searchable text of the generated 1 GB / 1,500-session tree (about
 *  250 M characters, one byte each in V8 for Latin-1 text) fits, so a broad query after the first
 *  scans kept text. Memory: see the commit (renderer PSS after the history queries). */
export const HISTORY_RESIDENT_CHARS = 320_000_000;
/** A lane lets its resident history text go after this long without a search (lane.ts). */
export const HISTORY_RESIDENT_IDLE_MS = 5 * 60_000;

/** A pool of search workers, or null where workers cannot be started here. */
export function startSearchPool(totalChars: number, residentChars = HISTORY_RESIDENT_CHARS): SearchPool | null {
  if (!canStartLanes()) return null;
  const n = poolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
  const perLane = Math.floor(totalChars / n);
  const residentPerLane = Math.floor(residentChars / n);
  const lanes: SearchLane[] = [];
  try {
    for (let i = 0; i < n; i++) lanes.push(workerLane(perLane, residentPerLane));
  } catch {
    for (const l of lanes) l.dispose?.();
    return null;
  }
  return new SearchPool(lanes, () => new LocalLane(perLane, residentPerLane, HISTORY_RESIDENT_IDLE_MS));
}

type SearchWorker = { api: Comlink.Remote<SearchWorkerApi>; guarded: <T>(call: () => Promise<T>) => Promise<T>; dispose(): void };

/** Where a lane's worker comes from: the page (useLanePorts, lane-worker.ts says why); without
 *  one, it is started on this thread (the engine on the page's thread). */
let pageLanes: (() => Promise<MessagePort>) | null = null;

/** The engine worker's lanes are started by the page: `source` answers with a port to a new one. */
export function useLanePorts(source: () => Promise<MessagePort>): void {
  pageLanes = source;
}

/** Whether lane workers can be had here: from the page, or started on this thread. */
export function canStartLanes(): boolean {
  return pageLanes !== null || typeof Worker !== 'undefined';
}

/** A search worker (search.worker.ts) whose calls fail instead of hanging once it failed: a worker
 *  whose module fails to load never answers, so its failure fails the calls in flight and every
 *  later one (the search pool then hands its jobs to the other lanes or to this thread; the
 *  history queue likewise). Used by the search pool and by the history lanes (history-lanes.ts).
 *  `dispose` asks it to close: a pool or pass that ends lets its workers' heaps go. */
export function startSearchWorker(name: string): SearchWorker {
  let failed: Error | null = null;
  const waiting = new Set<(e: Error) => void>();
  const port = (pageLanes ?? startLaneWorker)();
  port.catch((e: unknown) => {
    failed = new Error(`${name} failed: ${e instanceof Error ? e.message : String(e)}`);
    for (const reject of waiting) reject(failed);
    waiting.clear();
  });
  const api = Comlink.wrap<SearchWorkerApi>(deferredEndpoint(port));
  const guarded = <T>(call: () => Promise<T>): Promise<T> => {
    if (failed) return Promise.reject(failed);
    return new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      call()
        .then(resolve, reject)
        .finally(() => waiting.delete(reject));
    });
  };
  let disposed = false;
  return {
    api,
    guarded,
    dispose() {
      if (disposed || failed) return;
      disposed = true;
      // No answer comes: the worker is gone once it has read this.
      void api.close();
    }
  };
}

/** An endpoint for a port still on its way: what is posted, and every listener, waits for it, in order. */
function deferredEndpoint(port: Promise<MessagePort>): Comlink.Endpoint {
  const later = (f: (p: MessagePort) => void) => void port.then(f, () => undefined);
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => later((p) => p.postMessage(message, transfer ?? [])),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject, options?: object) => later((p) => p.addEventListener(type, listener, options)),
    removeEventListener: (type: string, listener: EventListenerOrEventListenerObject, options?: object) => later((p) => p.removeEventListener(type, listener, options)),
    start: () => later((p) => p.start())
  };
}

/** A job with its files' bytes read on this thread (as it is when they are too big to read whole,
 *  or a read failed: the lane reads them then, and names a file it cannot read), and moved to the
 *  lane: a read's data arrives only while its thread is free, and a lane's thread is busy building. */
export async function withBytes<J extends { files: InputFile[] }>(job: J): Promise<J> {
  const files = await readAhead(job.files);
  if (files) return { ...job, files };
  // A remote tree's file (worker/remote/http.ts) cannot be cloned to the lane: read it here, whatever its size.
  if (job.files.some((f) => !(f.blob instanceof Blob))) return { ...job, files: await Promise.all(job.files.map(async (f) => ({ ...f, bytes: f.bytes ?? new Uint8Array(await f.blob.arrayBuffer()) }))) };
  return job;
}

/** Search jobs as they go to a lane, with what to transfer: their files' bytes, and each index
 *  text copied into a buffer of its own (the engine keeps its copy for the next query; one copy
 *  here and a transfer cost the engine's thread less than the structured clone's, and a history's
 *  first query sends ~150 MB of index text to the lanes). */
export function outgoing(jobs: LaneJob[]): { jobs: LaneJob[]; transfer: ArrayBuffer[] } {
  const out = jobs.map((job) => (job.indexText ? { ...job, indexText: job.indexText.slice(), files: cloneable(job.files) } : { ...job, files: cloneable(job.files) }));
  return { jobs: out, transfer: out.flatMap((j) => [...buffersOf(j.files), ...(j.indexText ? [j.indexText.buffer as ArrayBuffer] : [])]) };
}

/** The buffers of a job's read files, to transfer with it (not copy). */
export const transferable = <J extends { files: InputFile[] }>(job: J): J => Comlink.transfer({ ...job, files: cloneable(job.files) }, buffersOf(job.files));

/** Files as they can be posted: a remote tree's file (worker/remote/http.ts) holds its reader and
 *  cannot be cloned, so it goes as its size only (a lane reads the bytes withBytes took). */
function cloneable(files: InputFile[]): InputFile[] {
  return files.some((f) => !(f.blob instanceof Blob)) ? files.map((f) => (f.blob instanceof Blob ? f : { ...f, blob: { size: (f.blob as { size: number }).size, type: '' } as Blob })) : files;
}

const buffersOf = (files: InputFile[]) => files.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : []));

function workerLane(maxChars: number, residentChars: number): SearchLane {
  const { api, guarded, dispose } = startSearchWorker('search worker');
  void api.init(maxChars, residentChars, HISTORY_RESIDENT_IDLE_MS);
  return {
    run(job: LaneJob): Promise<LaneResult> {
      // The files are read here, on the engine's thread (withBytes); not for a session the lane
      // keeps the text of, or decodes from its index: a repeated query reads nothing.
      return guarded(() =>
        (job.kept || job.indexed ? Promise.resolve(job) : withBytes(job)).then((j) => {
          const sent = outgoing([j]);
          return api.run(Comlink.transfer(sent.jobs[0], sent.transfer));
        })
      );
    },
    // Batches are of kept sessions and of sessions decoded from their index (pool.ts): nothing to read.
    runBatch(jobs: LaneJob[]): Promise<LaneResult[]> {
      return guarded(() => {
        const sent = outgoing(jobs);
        return api.runBatch(Comlink.transfer(sent.jobs, sent.transfer));
      });
    },
    skipBefore(generation: number) {
      void api.skipBefore(generation);
    },
    clear() {
      void api.clear();
    },
    dispose
  };
}

type PoolSession = Pick<LaneJob, 'cacheKey' | 'key' | 'files' | 'listed' | 'indexText'>;

/** A source's `scan` (view/search/run.ts) that searches one session in the pool (from its history
 *  search index's text when it has one: decoded, not built). */
export function scanInPool(pool: SearchPool, request: SearchRequest, session: PoolSession) {
  return (budget: () => number) =>
    submitTo(pool, session, () => ({ query: request.query, options: request.options, scope: request.scope, ids: request.ids, maxHits: budget() })).then((r) => (r?.ok ? r : null));
}

function submitTo(pool: SearchPool, session: PoolSession, rest: () => Omit<LaneJob, 'generation' | keyof PoolSession>) {
  const size = session.indexText?.byteLength ?? session.files.reduce((n, f) => n + f.blob.size, 0);
  // Only what picking needs crosses to the lane (a listing entry also carries its title and more).
  const { key, id, project, harness, files } = session.listed;
  const listed = { key, id, project, harness, files };
  // A session decoded from its index needs no files read, and its bytes only where the lane has
  // not kept its text (`kept`: the lane said it has; if it let it go since, it asks again).
  const indexed = session.indexText !== undefined;
  return pool.submit(session.cacheKey, size, (kept) => ({ ...session, indexText: kept ? undefined : session.indexText, indexed, files: indexed ? [] : session.files, listed, ...rest() }), indexed);
}
