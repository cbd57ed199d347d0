// The files of the two links the page can open with that need nothing of the page: the bundled
// sample (fetched from the app's own origin) and a `#z=` share payload. Read here, in the worker
// layer, so the parse worker can load a linked session itself before the page has mounted
// (state/early-load.ts, parse.worker.ts `loadLink`); the page reads them through the same function
// (state/sources.ts), so both say the same thing when one cannot be read.
import { decodeShare } from '../view/links/share.ts';
import type { ChatIndex, ChatRow, InputFile } from './protocol.ts';
import type { Engine } from './engine.ts';

export type LinkSource =
  /** `dir`: the absolute URL of the sample's folder, ending in `/` (a worker resolves relative URLs against its script). */
  | { kind: 'sample'; dir: string }
  | { kind: 'share'; payload: string };

/** A link whose files cannot be read, in one sentence for the page. */
export class LinkError extends Error {}

export async function linkFiles(link: LinkSource): Promise<InputFile[]> {
  if (link.kind === 'share') {
    const decoded = await decodeShare(link.payload);
    if (!decoded.ok) throw new LinkError(decoded.message);
    return decoded.files.map((f) => ({ path: f.name, blob: new Blob([f.text]) }));
  }
  const manifest = (await (await sampleFetch(new URL('manifest.json', link.dir))).json()) as { files: string[] };
  return Promise.all(manifest.files.map(async (p) => ({ path: p, blob: await (await sampleFetch(new URL(p, link.dir))).blob() })));
}

async function sampleFetch(url: URL): Promise<Response> {
  const res = await fetch(url).catch(() => null);
  if (!res?.ok) throw new LinkError(`Could not fetch the bundled sample (${url.pathname}): ${res ? `the server answered ${res.status}` : 'the request failed'}.`);
  return res;
}

/** Rows of the opened session sent with a link's load: the chat's first batch (ChatList asks 40). */
export const FIRST_ROWS = 40;

/** What a link's first screen needs from the worker, sent with its load (`first`): the opened
 *  session's chat index and its first rows, which the page would otherwise ask for in two round
 *  trips after the load, each waiting for the main thread's turn (a linked session's first row
 *  at 4× CPU). */
export interface FirstScreen {
  key: string;
  index: ChatIndex | null;
  rows: ChatRow[];
}

/** The link's files, loaded by the engine under `generation` (what the page's first load then
 *  takes over), with the opened session's first screen; a link that cannot be read is a value,
 *  so its sentence crosses the worker intact. */
export async function loadLink(engine: Pick<Engine, 'load' | 'chatIndex' | 'chatRows'>, generation: number, link: LinkSource) {
  let files: InputFile[];
  try {
    files = await linkFiles(link);
  } catch (e) {
    return { ok: false as const, message: e instanceof Error ? e.message : String(e) };
  }
  const outcome = await engine.load(generation, { files });
  const key = outcome.ok ? outcome.sessions[0]?.key : undefined;
  const first: FirstScreen | null = key ? { key, index: await engine.chatIndex(key), rows: await engine.chatRows(key, 0, FIRST_ROWS) } : null;
  return { ok: true as const, files, outcome, first };
}
