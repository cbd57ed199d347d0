// Offline support: precaches the built app, so after one visit Loupe loads with the network off
// (cached sessions reopen from IndexedDB). Bundled to <base>/service-worker.js; the page registers
// it once its first screen is drawn (state/offline.ts).
// - install: this version's app shell (every chunk, the workers' too) must all arrive; the static
//   files (the sample) are best effort; the benchmark page is left out.
// - activate: delete older caches of this deployment only (a shared origin may host other apps),
//   then take control of open pages.
// - fetch: precached same-origin GETs cache-first; navigations network-first, falling back to the
//   cached index. Cross-origin `?src=` transcripts and non-GETs are never cached. The cached index
//   is never replaced by a live one: it must name the chunks in this same cache.

/// <reference types="@sveltejs/kit" />
/// <reference no-default-lib="true"/>
/// <reference lib="esnext" />
/// <reference lib="webworker" />

import { base, build, files, version } from '$service-worker';

const sw = self as unknown as ServiceWorkerGlobalScope;

/** Scoped by base path so two deployments on one origin never delete each other's caches. */
const CACHE_PREFIX = `loupe-${base}-`;
const CACHE = `${CACHE_PREFIX}${version}`;
const INDEX = `${base}/`;
/** The app shell: without every one of these the app cannot start offline. */
const SHELL = [...new Set([...build, INDEX])];
const PRECACHED = new Set([...SHELL, ...files]);

sw.addEventListener('install', (event) => {
  // skipWaiting: a static viewer has no server state to keep in step, so the new version may take
  // over at once; pages already open keep their loaded code and fetch anything else from the network.
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL);
      await precacheWorkerChunks(cache);
      // A static file that fails to arrive must not cost the whole offline install.
      await Promise.allSettled(files.map((f) => cache.add(f)));
      await sw.skipWaiting();
    })()
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith(CACHE_PREFIX) && key !== CACHE) await caches.delete(key);
      }
      // Control the first-visit page too, so its later chunk loads are already served offline-safe.
      await sw.clients.claim();
    })()
  );
});

sw.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin) return; // ?src= transcripts and other hosts: never cached

  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(request));
  } else if (PRECACHED.has(url.pathname) || url.pathname.startsWith(WORKER_CHUNKS)) {
    event.respondWith(cacheFirst(request, url.pathname));
  }
});

/** Where the chunks that workers import lazily are built (highlight.js for the Markdown worker,
 *  the renderer for the parse worker's HTML export, …). SvelteKit's `build` list names the worker
 *  scripts but not these, so an offline visit could not load them: a code block stayed plain text. */
const WORKER_CHUNKS = `${base}/_app/immutable/workers/chunks/`;
/** A relative module specifier in an import or a dynamic import() of a built script. */
const IMPORT_RE = /(?:\bimport\s*\(\s*|\bfrom\s*)(["'`])(\.{1,2}\/[^"'`]+?\.js)\1/g;

/** Caches the chunks the precached worker scripts import, and those they import in turn, read from
 *  the scripts themselves. Names are content-hashed, so what is cached once stays right. */
async function precacheWorkerChunks(cache: Cache): Promise<void> {
  const seen = new Set<string>();
  let next = SHELL.filter((p) => p.startsWith(`${base}/_app/immutable/workers/`) && p.endsWith('.js'));
  while (next.length) {
    const found: string[] = [];
    for (const path of next) {
      const text = await (await cache.match(path))?.text();
      for (const m of text?.matchAll(IMPORT_RE) ?? []) {
        const chunk = new URL(m[2], new URL(path, sw.location.origin)).pathname;
        if (chunk.startsWith(WORKER_CHUNKS) && !seen.has(chunk)) {
          seen.add(chunk);
          found.push(chunk);
        }
      }
    }
    // A specifier the pattern read wrongly must not cost the install; a real chunk arrives as the shell did.
    await Promise.allSettled(found.map((c) => cache.add(c)));
    next = found;
  }
}

async function cacheFirst(request: Request, pathname: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(pathname);
  if (!hit) return fetch(request);
  // Chromium builds V8's code cache for a script the first time it runs from a Cache Storage
  // response, in one main-thread task for its whole module tree. For a script V8 compiles whole
  // (scripts/vite/compile-hints.ts marks the boot's), that cache holds every function: for the
  // boot chunk, a task of 60–130 ms at 4× CPU, for nothing: such a script compiles off the main
  // thread while it streams. So it is answered with a copy, which makes no code cache. Lazy chunks
  // keep their response and the cache that spares work on later visits.
  if (request.destination !== 'script' || !(await compiledWhole(pathname, hit))) return hit;
  return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
}

/** The first line compile-hints.ts (HINT) puts on the scripts V8 is to compile whole (e2e boot.spec
 *  fails if the two differ: no boot script would come as a copy). */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
/** Per precached path: whether its script starts with COMPILE_HINT (read once per worker start). */
const wholeScripts = new Map<string, Promise<boolean>>();

function compiledWhole(pathname: string, hit: Response): Promise<boolean> {
  let known = wholeScripts.get(pathname);
  if (!known) {
    known = startsWith(hit.clone(), COMPILE_HINT).catch(() => false);
    wholeScripts.set(pathname, known);
  }
  return known;
}

async function startsWith(response: Response, prefix: string): Promise<boolean> {
  const reader = response.body?.getReader();
  if (!reader) return false;
  const { value } = await reader.read();
  void reader.cancel();
  return !!value && new TextDecoder().decode(value.subarray(0, prefix.length)) === prefix;
}

/** Online: the live page (fresh deploys show up at once). Offline: the cached shell, whatever the
 *  query string (`?src=…`) or the path under base, since the app is a single page. */
async function networkFirstPage(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (err) {
    const cache = await caches.open(CACHE);
    const cached = (await cache.match(request, { ignoreSearch: true })) ?? (await cache.match(INDEX));
    if (cached) return cached;
    throw err;
  }
}
