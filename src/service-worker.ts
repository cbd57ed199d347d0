// Offline support: precaches the built app so that after one visit Loupe loads with the network
// off (cached sessions then reopen from IndexedDB, see src/lib/store). SvelteKit bundles this file
// to <base>/service-worker.js and registers it from index.html.
//
// Strategy, kept deliberately small:
// - install: cache this version's app shell (JS/CSS chunks and the index) — it must all arrive —
//   and, best effort, the static files (the sample); other prerendered pages (the benchmark) are
//   not needed offline, and a plain static host may not serve them without their ".html";
// - activate: delete caches of older versions of *this* deployment only (a shared origin such as
//   user.github.io may host other apps' caches), then take control of open pages;
// - fetch: same-origin GETs of precached files are served cache-first (their names are content-
//   hashed or versioned with the cache; page scripts as a copy, see cacheFirst); page navigations
//   go network-first and fall back to the cached index offline. Everything else, above all
//   cross-origin `?src=` transcripts and any non-GET, is left to the browser and never cached.
//
// The cached index is never replaced by a live navigation response: it must stay the one that
// names the chunks in this same cache, or an offline load would reference files we do not have.

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
  } else if (PRECACHED.has(url.pathname)) {
    event.respondWith(cacheFirst(request, url.pathname));
  }
});

async function cacheFirst(request: Request, pathname: string): Promise<Response> {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(pathname);
  if (!hit) return fetch(request);
  // A page script answered with the Cache Storage's own response makes Chromium build V8's code
  // cache for it the first time it runs there, in one main-thread task for the whole module tree:
  // for the boot chunk, compiled whole (scripts/vite/compile-hints.ts), 60–130 ms at 4× CPU on the
  // first visit served from here (issue 25). A copy is not marked as coming from the Cache Storage,
  // so no code cache is made, and the chunk compiles off the main thread while it streams, as on a
  // first load. Later visits measured no slower without the cache. Worker scripts keep the cached
  // response: their code cache is made on their own thread.
  if (request.destination !== 'script') return hit;
  return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
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
