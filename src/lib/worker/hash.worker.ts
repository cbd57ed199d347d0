// The hash worker: content hashes (store/content-hash.ts `digestBlob`) of the files a load caches,
// off the page's thread. Chromium runs `crypto.subtle.digest` where it is called, so hashing a
// 100 MB file on the page made 40–76 ms tasks during its load; here it costs the page nothing.
// A thin comlink shell, started by state/hash-client.ts.
import * as Comlink from 'comlink';
import { digestBlob } from '../store/content-hash.ts';

const api = { hash: digestBlob };

export type HashWorkerApi = typeof api;

Comlink.expose(api);
