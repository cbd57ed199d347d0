// Starts the parse worker and hands out its API. If a worker cannot start (an old browser, a
// blocked worker URL), the same engine runs on the main thread instead: slower for big files,
// but the viewer keeps working. Created lazily, never at module load: prerendering has no Worker.
import * as Comlink from 'comlink';
import type { ParseWorkerApi } from '../worker/parse.worker.ts';
import { startLaneWorker } from '../worker/lane-worker.ts';

export { openLaneWorkers } from '../worker/lane-worker.ts';

export type EngineApi = {
  [K in keyof ParseWorkerApi]: (...args: Parameters<ParseWorkerApi[K]>) => Promise<Awaited<ReturnType<ParseWorkerApi[K]>>>;
};

let client: Promise<{ api: EngineApi; inWorker: boolean }> | null = null;

export function engineClient(): Promise<{ api: EngineApi; inWorker: boolean }> {
  client ??= start();
  return client;
}

/** The worker's API from the moment the worker is created, before it has answered: calls made
 *  on it wait in the worker's queue and run as soon as its module has loaded. A linked session's
 *  early load (early-load.ts) is sent this way instead of after the liveness round trip, whose
 *  answer waited for the main thread's mount (~190 ms of idle worker at 4× CPU).
 *  Null where no worker was created; a worker that then fails to start never answers such a call. */
let workerApi: EngineApi | null = null;

export function workerApiNow(): EngineApi | null {
  void engineClient();
  return workerApi;
}

async function start(): Promise<{ api: EngineApi; inWorker: boolean }> {
  let worker: Worker | null = null;
  try {
    worker = new Worker(new URL('../worker/parse.worker.ts', import.meta.url), { type: 'module' });
    const api = Comlink.wrap<ParseWorkerApi>(worker) as unknown as EngineApi;
    workerApi = api;
    // A worker that fails to load its module (a blocked or missing script) never answers: its
    // 'error' event says so at once, else the page waited the whole timeout before falling back.
    // A cheap call proves a loaded one alive.
    let failed = () => {};
    const loadError = new Promise<never>((_, reject) => (failed = () => reject(new Error('worker failed to load'))));
    worker.addEventListener('error', failed, { once: true });
    try {
      await Promise.race([
        api.chatRows('', 0, 0),
        loadError,
        new Promise((_, reject) => setTimeout(() => reject(new Error('worker did not start')), 10_000))
      ]);
    } finally {
      worker.removeEventListener('error', failed);
    }
    // The engine's search and history lanes are workers of this page, started when it asks.
    const lanePort = async () => {
      const port = await startLaneWorker();
      return Comlink.transfer(port, [port]);
    };
    void api.useLanePorts(Comlink.proxy(lanePort) as unknown as () => Promise<MessagePort>);
    return { api, inWorker: true };
  } catch {
    worker?.terminate();
    workerApi = null;
    const { Engine } = await import('../worker/engine.ts');
    const { openRowIndex } = await import('../store/row-index.ts');
    const { openHistoryStore } = await import('../store/history-index.ts');
    const { HISTORY_ENTRY_FORMAT } = await import('../view/history/entry.ts');
    const { historyUsage } = await import('../worker/services/history-usage.ts');
    const engine = new Engine({ rowIndex: () => openRowIndex(), historyStore: () => openHistoryStore({ format: HISTORY_ENTRY_FORMAT }) });
    const api: EngineApi = {
      load: async (...a) => engine.load(...a),
      loadLink: async (...a) => (await import('../worker/links.ts')).loadLink(engine, ...a),
      remoteList: async (generation, src, onCount) => (await import('../worker/remote/load.ts')).remoteList(generation, src, onCount),
      remoteLoad: async (...a) => (await import('../worker/remote/load.ts')).remoteLoad(engine, ...a),
      remoteCancel: async () => (await import('../worker/remote/load.ts')).remoteCancel(),
      remoteStats: async () => (await import('../worker/remote/load.ts')).remoteStats(),
      stage: async (...a) => engine.stage(...a),
      chatIndex: async (...a) => engine.chatIndex(...a),
      chatRows: async (...a) => engine.chatRows(...a),
      findAtomRow: async (...a) => engine.findAtomRow(...a),
      timeline: async (...a) => engine.timeline(...a),
      issues: async (...a) => engine.issues(...a),
      usage: async (...a) => engine.usage(...a),
      projectUsage: async () => engine.projectUsage(),
      search: async (...a) => engine.search(...a),
      cancelSearch: async (...a) => engine.cancelSearch(...a),
      prepareSearch: async (...a) => engine.prepareSearch(...a),
      searchCached: async (...a) => engine.searchCached(...a),
      historySearchStatus: async () => engine.historySearch.status(),
      scanSecrets: (...a) => engine.scanSecrets(...a),
      exportText: (...a) => engine.exportText(...a),
      exportBlob: (...a) => engine.exportBlob(...a),
      shareFiles: (...a) => engine.shareFiles(...a),
      followStart: async (...a) => engine.followStart(...a),
      followAppend: async (...a) => engine.followAppend(...a),
      followStop: async (...a) => engine.followStop(...a),
      liveState: async (...a) => engine.liveState(...a),
      open: async (...a) => engine.open(...a),
      prefetch: async (...a) => engine.prefetch(...a),
      builtKeys: async () => engine.builtKeys(),
      scanStats: async () => engine.scanStats(),
      scanRecords: async (...a) => engine.scanRecords(...a),
      loadPersisted: async (...a) => engine.loadPersisted(...a),
      persistIndex: async (...a) => engine.persistIndex(...a),
      pruneIndexes: async (...a) => engine.pruneIndexes(...a),
      historyStart: async () => engine.startHistory(),
      historyStatus: async () => engine.history.status(),
      historyDigests: async (...a) => engine.history.digests(...a),
      historyFailures: async () => engine.history.failures(),
      historyCalls: async (...a) => engine.history.calls(...a),
      historyUsage: async (...a) => historyUsage(engine.history, ...a),
      historyCancel: async () => engine.history.cancel(),
      historyClear: async () => engine.history.clear(),
      historyStored: async () => engine.history.stored(),
      historyOpenStored: async () => engine.openStoredHistory(),
      historyRows: async () => engine.history.kept.rows(),
      historyClearRoot: async (root) => engine.history.kept.clearRoot(root),
      // On this thread the engine starts its lanes itself (lane-worker.ts).
      useLanePorts: async () => undefined
    };
    return { api, inWorker: false };
  }
}

/** Wraps a progress callback so the worker can call it across the thread boundary. */
export function proxied<T extends (...args: never[]) => unknown>(fn: T, inWorker: boolean): T {
  return inWorker ? (Comlink.proxy(fn) as unknown as T) : fn;
}
