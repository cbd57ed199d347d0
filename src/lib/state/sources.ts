// Turns each kind of load source into input files for the engine: dropped or picked files,
// pasted text, a `?src=` URL, a cached session, the bundled sample, a `#z=` share payload.
// Each failure becomes one human sentence (LoadError), never a stack trace.
import type { InputFile } from '../worker/protocol.ts';
import type { CachedMeta, SessionCache } from '../store/session-cache.ts';
import { LinkError, linkFiles, type LinkSource } from '../worker/links.ts';
import type { WalkOptions } from './walk.ts';

export type LoadSource =
  | { kind: 'files'; files: InputFile[] }
  | { kind: 'text'; name: string; text: string }
  | { kind: 'url'; url: string }
  | { kind: 'cached'; key: string }
  | { kind: 'sample' }
  | { kind: 'share'; payload: string }
  /** A dropped or picked folder, walked when loaded (state/walk.ts): progress and cancelling come from the load. */
  | { kind: 'folder'; name: string; walk: (opts: WalkOptions) => Promise<{ files: InputFile[]; unreadable: string[] }> };

/** A failure the person should read, as one sentence. */
export class LoadError extends Error {}

/** The bundled sample session: a synthetic project folder in static/sample/ (see its README). */
const SAMPLE_DIR = 'sample';

/** The files of a source (a folder is walked by the Viewer: its count shows and what cannot be read is listed). */
export async function resolveSource(source: Exclude<LoadSource, { kind: 'folder' }>, cache: SessionCache | null, base: string): Promise<InputFile[]> {
  switch (source.kind) {
    case 'files':
      return source.files;
    case 'text':
      return [{ path: source.name, blob: new Blob([source.text], { type: 'application/jsonl' }) }];
    case 'url':
      return [await fetchFile(source.url)];
    case 'cached':
      return (await resolveCached(cache, source.key)).files;
    case 'sample':
    case 'share':
      return linkFiles(linkOf(source, base)).catch((e: unknown) => {
        throw e instanceof LinkError ? new LoadError(e.message) : e;
      });
  }
}

/** The sample or a share link as the worker reads it (worker/links.ts). */
export function linkOf(source: { kind: 'sample' } | { kind: 'share'; payload: string }, base: string): LinkSource {
  return source.kind === 'share' ? { kind: 'share', payload: source.payload } : { kind: 'sample', dir: new URL(`${base}/${SAMPLE_DIR}/`, location.href).href };
}

/** A cached session's files with the catalogue entry they came from (its file hashes key the row index). */
export async function resolveCached(cache: SessionCache | null, key: string): Promise<{ files: InputFile[]; meta: CachedMeta }> {
  const hit = cache ? await cache.open(key) : undefined;
  if (!hit) throw new LoadError('That session is no longer in this browser’s cache; drop its files again.');
  return { files: hit.files.map((f) => ({ path: f.path, blob: f.blob })), meta: hit.meta };
}

async function fetchFile(url: string): Promise<InputFile> {
  let parsed: URL;
  try {
    parsed = new URL(url, location.href);
  } catch {
    throw new LoadError(`“${url}” is not a web address Loupe can open.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new LoadError(`Loupe only opens http(s) addresses, not “${parsed.protocol}”.`);
  }
  let res: Response;
  try {
    res = await fetch(parsed, { mode: 'cors', credentials: 'omit' });
  } catch {
    throw new LoadError(
      `Could not fetch ${parsed.host}: the host refused the request or does not allow cross-origin reads (CORS). Try a raw gist URL.`
    );
  }
  if (!res.ok) throw new LoadError(`Could not fetch ${parsed.href}: the server answered ${res.status} ${res.statusText}.`);
  const name = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).pop() ?? 'transcript.jsonl');
  return { path: name, blob: await res.blob() };
}
