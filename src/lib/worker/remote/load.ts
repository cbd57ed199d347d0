// A remote tree's load, in the worker: list it (list.ts), make a RemoteFile per listed file, and
// hand them to the engine's ordinary load as a dropped folder's Files, so the scan, the opened
// sessions and the history index read it through the same code. The page gets the files' paths,
// sizes and versions (to look up earlier scans of them) and one line per thing worth saying.
import { allowedOrigins, classifyAddress, GITHUB, type GithubBases } from '../../ingest/remote/address.ts';
import { baseName } from '../../ingest/paths.ts';
import { versionNumber } from '../../ingest/remote/names.ts';
import type { InputFile, LoadOutcome, ListSnapshot, LoadProgress } from '../protocol.ts';
import type { Engine } from '../engine.ts';
import { Http, RemoteError, RemoteFile } from './http.ts';
import { listRemote, type ListLimits } from './list.ts';

export type RemoteListing =
	| { ok: true; files: { path: string; size: number; lastModified: number }[]; notes: string[] }
	| { ok: false; message: string };

let current: { generation: number; abort: AbortController; http: Http; files: InputFile[]; notes: string[] } | null = null;

/** Lists `src` for load `generation` (a listing in flight for an older one is cancelled).
 *  `github` and `limits` are for tests (a local stand-in for GitHub, small caps). */
export async function remoteList(generation: number, src: string, onCount?: (files: number) => void, opts: { github?: GithubBases; limits?: ListLimits; fetch?: typeof fetch } = {}): Promise<RemoteListing> {
	current?.abort.abort();
	current = null;
	const address = classifyAddress(src);
	if (address.kind === 'invalid') return { ok: false, message: address.reason };
	const github = opts.github ?? GITHUB;
	const abort = new AbortController();
	const http = new Http({ origins: allowedOrigins(address, github), signal: abort.signal, fetch: opts.fetch });
	let listed;
	try {
		listed = await listRemote(address, http, { github, onCount, limits: opts.limits });
	} catch (e) {
		if (abort.signal.aborted) return { ok: false, message: 'Reading the address was cancelled.' };
		if (e instanceof RemoteError) return { ok: false, message: e.message };
		throw e;
	}
	const files: InputFile[] = listed.entries.map((e) => ({ path: e.path, blob: new RemoteFile(http, e.url, baseName(e.path), e.size ?? 0, versionNumber(e.version)) as unknown as Blob }));
	const notes = [...listed.notes, ...failureNotes(http)];
	if (!files.length) return { ok: false, message: [`No .jsonl or .json files were found at ${src}.`, ...notes].join(' ') };
	current = { generation, abort, http, files, notes };
	return { ok: true, files: files.map((f) => ({ path: f.path, size: f.blob.size, lastModified: (f.blob as unknown as RemoteFile).lastModified })), notes };
}

/** Loads what remoteList listed for `generation` (its earlier scans staged by the page first). */
export async function remoteLoad(engine: Pick<Engine, 'load'>, generation: number, onProgress?: (p: LoadProgress) => void, onList?: (s: ListSnapshot) => void): Promise<{ outcome: LoadOutcome; notes: string[] }> {
	const mine = current?.generation === generation ? current : null;
	if (!mine) return { outcome: { ok: false, generation, superseded: true, message: 'Superseded by a newer load.' }, notes: [] };
	const outcome = await engine.load(generation, { files: mine.files, staged: true }, onProgress, onList);
	if (mine.abort.signal.aborted && !outcome.ok) return { outcome: { ...outcome, message: 'Reading the address was cancelled.' }, notes: [] };
	return { outcome, notes: [...mine.notes.filter((n) => !n.includes('could not be read')), ...mine.http.notes, ...failureNotes(mine.http)] };
}

/** Stops every request of the current remote tree (its listing, its scan, its reads). */
export function remoteCancel(): void {
	current?.abort.abort();
}

/** Bytes and requests the current remote tree has cost so far. */
export function remoteStats(): { bytes: number; requests: number } {
	return { bytes: current?.http.bytes ?? 0, requests: current?.http.requests ?? 0 };
}

function failureNotes(http: Http): string[] {
	const n = http.failed.size;
	if (!n) return [];
	const first = [...http.failed.values()][0];
	return [n === 1 ? `1 file could not be read (${first.replace(/\.$/, '')}); everything else was opened.` : `${n} files could not be read (${first.replace(/\.$/, '')}, …); everything else was opened.`];
}
