// For the worker clients' tests (hash-client, markdown-client): a stand-in for `Worker` that
// serves an API with comlink over a real MessageChannel, as the worker's shell would, so a client
// is tested through the same messages. Not used by the app.
import * as Comlink from 'comlink';

/** A Worker class serving `api` (one instance per `new`); `made` counts the workers started. */
export function servingWorker(api: object) {
  return class ServingWorker extends EventTarget {
    static made = 0;
    #port: MessagePort;
    constructor() {
      super();
      ServingWorker.made++;
      const { port1, port2 } = new MessageChannel();
      Comlink.expose(api, port1);
      this.#port = port2;
      port2.addEventListener('message', (e) => this.dispatchEvent(new MessageEvent('message', { data: e.data })));
      port2.start();
    }
    postMessage(message: unknown, transfer?: Transferable[]): void {
      this.#port.postMessage(message, transfer ?? []);
    }
    terminate(): void {
      this.#port.close();
    }
  };
}
