// Starts one search worker (search.worker.ts) and hands back a port to its API. The page calls it
// for the engine (state/engine-client.ts passes it to the engine worker), so the lanes are workers
// of the page, not workers started by a worker: in Firefox, while something watches its workers
// (WebDriver BiDi, as in the Firefox smoke; the developer tools watch them the same way), a worker
// that starts or ends workers of its own sometimes waits on the page's thread for good, and the
// engine then answered nothing ("no answer in 30 s" right after a drop). Firefox with no watcher,
// and Chromium, never showed it. Where the engine runs on the page's thread it calls this itself.

/** Workers started here and not closed: a worker whose object is dropped may be collected, and its
 *  lane with it. A worker says "closed" as it closes itself (search.worker.ts `close`). */
const started = new Set<Worker>();

/** A port to a new search worker's API, once its module has loaded; rejects when it cannot load. */
export function startLaneWorker(): Promise<MessagePort> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('error', (e) => reject(new Error(`search worker failed: ${e.message ?? 'no message'}`)), { once: true });
    // The module says it has loaded, then serves on the port it is given.
    worker.addEventListener('message', (e) => {
      if (e.data === 'loaded') {
        const { port1, port2 } = new MessageChannel();
        worker.postMessage({ lanePort: port1 }, [port1]);
        started.add(worker);
        resolve(port2);
      } else if (e.data === 'closed') started.delete(worker);
    });
  });
}

/** Lane workers started here and not closed yet. */
export const openLaneWorkers = (): number => started.size;
