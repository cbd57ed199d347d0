// What the history service is fed: the catalog's listing (a big drop's listed sessions and their
// File handles) or a full load's built sessions, as HistorySource rows, and the files inside the
// tree that no session holds (with the scan's reason). The files' signature is what a stored entry
// must match besides the listed key: every file of the session (subagents too) by path, size and
// modification time, hashed short.
import { cyrb53 } from '../../ingest/load-files.ts';
import { dirOf, stemOf } from '../../ingest/paths.ts';
import type { ScanListing, ScannedSession } from '../../ingest/scan.ts';
import type { InputFile, LoadedSession } from '../../ingest/types.ts';
import type { FileNotIndexed } from '../../view/history/types.ts';
import type { HistorySource } from './history.ts';

export function filesSig(files: readonly { path: string; blob: Blob }[]): string {
  const parts = files.map((f) => `${f.path}|${f.blob.size}|${(f.blob as Partial<File>).lastModified ?? ''}`).sort();
  return cyrb53(new TextEncoder().encode(parts.join('\n'))).toString(36);
}

/** A big drop's listed sessions (files looked up in `blobs` when a lane takes them). */
export function sourcesOfListing(listing: ScanListing, blobs: ReadonlyMap<string, Blob>): { sources: HistorySource[]; notIndexed: FileNotIndexed[] } {
  const filesOf = (s: ScannedSession): InputFile[] => s.files.flatMap((path) => {
    const blob = blobs.get(path);
    return blob ? [{ path, blob }] : [];
  });
  const sources = listing.sessions.map((s): HistorySource => {
    const { key, id, project, harness, files, bytes, title } = s;
    return { key, listed: { key, id, project, harness, files, bytes, title }, sig: filesSig(filesOf(s)), files: () => filesOf(s) };
  });
  return { sources, notIndexed: listing.unused.map((u) => ({ path: u.path, reason: u.reason })) };
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
