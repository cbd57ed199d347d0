// What the history service is fed: the catalog's listing (a big drop's listed sessions and their
// File handles) or a full load's built sessions, as HistorySource rows, and the files inside the
// tree that no session holds (with the scan's reason). The files' signature is what a stored entry
// must match besides the listed key: every file of the session (subagents too) by path, size and
// modification time, hashed short.
import { cyrb53 } from '../../ingest/load-files.ts';
import { dirOf, stemOf } from '../../ingest/paths.ts';
import type { ScannedSession } from '../../ingest/scan.ts';
import type { InputFile, LoadedSession } from '../../ingest/types.ts';
import type { ListedRef } from '../../ingest/listed.ts';

/** One listed session as the catalog hands it over. */
export interface HistorySource {
  key: string;
  listed: ListedRef & { bytes: number; title: string };
  /** Its files' signature (path, size, modification time each): a file that changed misses the stored entry. */
  sig: string;
  /** Its File handles, taken when a lane gets it. */
  files: () => InputFile[];
}

/** A followed session as the history service takes it (live): its rebuilt model and where it sits. */
export interface LiveSource {
  loaded: LoadedSession;
  listed: { key: string; project: string; harness: LoadedSession['meta']['harness'] };
}

/** The followed sessions `keys` out of the loaded ones (their project: the leaf transcript's folder). */
export function liveSources(loaded: ReadonlyMap<string, { loaded: LoadedSession }>, keys: readonly string[]): LiveSource[] {
  return keys.flatMap((key) => {
    const l = loaded.get(key)?.loaded;
    const leaf = l?.files.findLast((f) => f.kind === 'transcript') ?? l?.files[0];
    return l ? [{ loaded: l, listed: { key, project: leaf ? dirOf(leaf.path) : '', harness: l.meta.harness } }] : [];
  });
}

/** A followed session as a source of its own (no files: its entry comes from its rebuilt model). */
export function sourceOfLive({ loaded, listed }: LiveSource, harness: HistorySource['listed']['harness']): HistorySource {
  return { key: listed.key, listed: { key: listed.key, id: listed.key, project: listed.project, harness, files: [], bytes: loaded.bytes, title: loaded.title }, sig: '', files: () => [] };
}

/** Which sessions' calls cover rows [from, to) of all of them in order (`counts`: each session's call count). */
export function callPages(counts: readonly [string, number][], from: number, to: number): { total: number; wanted: { key: string; skip: number; take: number }[] } {
  const wanted: { key: string; skip: number; take: number }[] = [];
  let total = 0;
  for (const [key, n] of counts) {
    if (total + n > from && total < to) wanted.push({ key, skip: Math.max(0, from - total), take: Math.min(n, to - total) });
    total += n;
  }
  return { total, wanted };
}

export function filesSig(files: readonly { path: string; blob: Blob }[]): string {
  const parts = files.map((f) => `${f.path}|${f.blob.size}|${(f.blob as Partial<File>).lastModified ?? ''}`).sort();
  return cyrb53(new TextEncoder().encode(parts.join('\n'))).toString(36);
}

/** A big drop's listed sessions (their File handles taken from the catalog when a lane takes them). */
export function sourcesOfListing(listed: readonly ScannedSession[], filesOf: (s: ScannedSession) => InputFile[]): HistorySource[] {
  return listed.map((s): HistorySource => {
    const { key, id, project, harness, files, bytes, title } = s;
    return { key, listed: { key, id, project, harness, files, bytes, title }, sig: filesSig(filesOf(s)), files: () => filesOf(s) };
  });
}

/** A full load's sessions (small drops): each rebuilt by a lane from its own files, like a listed one. */
export function sourcesOfLoaded(sessions: readonly LoadedSession[]): HistorySource[] {
  return sessions.map((s): HistorySource => {
    const leaf = s.files.findLast((f) => f.kind === 'transcript') ?? s.files[0];
    const harness = s.meta.harness ?? 'claude-code';
    const path = leaf?.path ?? '';
    // loadListed picks the session by its leaf and id (another harness: its first file).
    const files = harness === 'claude-code' ? s.files.map((f) => f.path) : [path, ...s.files.map((f) => f.path).filter((p) => p !== path)];
    const listed = { key: s.key, id: s.key.slice(0, Math.max(0, s.key.lastIndexOf('-'))) || stemOf(path), project: dirOf(path), harness, files, bytes: s.bytes, title: s.title };
    return { key: s.key, listed, sig: filesSig(s.inputs), files: () => s.inputs };
  });
}
