// A linked session's load, started before the page mounts: for `?sample` and a `#z=`
// share link, SvelteKit's client init (src/hooks.client.ts) asks the parse worker to read the
// files and load them at once (worker/links.ts), so the worker fetches and parses while the main
// thread hydrates and mounts the page; the Viewer's first load of the same source then takes this one over instead of
// starting its own (`takeEarlyLoad`). Only those two: their files need nothing the page holds (no
// IndexedDB, no folder handle, no cross-origin fetch whose error the page words itself). The load
// uses generation 1, the Viewer's first: a later load replaces it as any load replaces another.
import type { InputFile } from '../worker/protocol.ts';
import type { FirstScreen } from '../worker/links.ts';
import { engineClient, workerApiNow, type EngineApi } from './engine-client.ts';
import { LoadError, linkOf, type LoadSource } from './sources.ts';

type Outcome = Awaited<ReturnType<EngineApi['load']>>;

/** The generation the early load runs under: the Viewer's first. */
export const EARLY_GENERATION = 1;

/** `first`: the opened session's chat index and first rows, sent with the load (worker/links.ts). */
type Early = { files: Promise<InputFile[]>; outcome: Promise<Outcome>; first: Promise<FirstScreen | null> };

let early: ({ source: LoadSource } & Early) | null = null;

/** Starts loading the page's linked source in the worker now (a sample or a share link only). */
export function startEarlyLoad(source: LoadSource | null, base: string): void {
  if (!source || (source.kind !== 'sample' && source.kind !== 'share')) return;
  // The worker reads the files itself: a fetch answered on the main thread would wait for the mount.
  const loaded = loadLink(linkOf(source, base)).then((r) => {
    if (!r.ok) throw new LoadError(r.message);
    return r;
  });
  const files = loaded.then((r) => r.files);
  const outcome = loaded.then((r) => r.outcome);
  const first = loaded.then((r) => r.first);
  // Failures are the Viewer's to report when it takes the load over; none goes unhandled here.
  files.catch(() => undefined);
  outcome.catch(() => undefined);
  first.catch(() => undefined);
  early = { source, files, outcome, first };
}

/** The link's load, sent to the worker at once (workerApiNow); should the worker not start, the
 *  engine the client falls back to loads it instead. */
function loadLink(link: ReturnType<typeof linkOf>): ReturnType<EngineApi['loadLink']> {
  const now = workerApiNow();
  const later = () => engineClient().then(({ api }) => api.loadLink(EARLY_GENERATION, link));
  if (!now) return later();
  return new Promise((resolve, reject) => {
    now.loadLink(EARLY_GENERATION, link).then(resolve, reject);
    engineClient().then(({ api }) => {
      if (api !== now) later().then(resolve, reject);
    }, reject);
  });
}

/** The early load of this source, once: the Viewer's first load takes it instead of loading
 *  again. `replaced`: an early load runs under this generation but the Viewer's first load is of
 *  something else (it then takes the next generation, which replaces the early one in the worker). */
export function takeEarlyLoad(source: LoadSource, generation: number): Early | 'replaced' | null {
  const e = early;
  early = null;
  if (!e || generation !== EARLY_GENERATION) return null;
  return sameSource(e.source, source) ? { files: e.files, outcome: e.outcome, first: e.first } : 'replaced';
}

function sameSource(a: LoadSource, b: LoadSource): boolean {
  if (a.kind === 'share' && b.kind === 'share') return a.payload === b.payload;
  return a.kind === 'sample' && b.kind === 'sample';
}
