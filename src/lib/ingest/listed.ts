// A session of a big drop's listing (scan.ts), built from its File handles: the files are parsed
// together and the session the listing named is picked out of what they hold. The engine opens a
// listed session this way and the search workers build one for its text the same way, so both
// see the same session.
import { loadSessions } from './load-files.ts';
import { dirOf, stemOf } from './paths.ts';
import type { ScannedSession } from './scan.ts';
import type { InputFile, LoadedSession } from './types.ts';

/** What picking needs of a listed session (small enough to cross to a worker with its files). */
export type ListedRef = Pick<ScannedSession, 'key' | 'id' | 'project' | 'harness' | 'files' | 'mainMissing'>;

/** Parses a listed session's files (null: unreadable, e.g. a file moved since the drop). */
export async function loadListed(listed: ListedRef, files: InputFile[], signal?: AbortSignal): Promise<LoadedSession | null> {
	// A file that cannot be read again (moved, permission gone) makes this session fail, nothing else.
	const out = await loadSessions(files, { signal }).catch(() => null);
	if (!out) return null;
	// Another harness lists its main file first (its id is the harness's own, not a file stem).
	const other = listed.harness !== 'claude-code';
	const leaf = other ? listed.files[0] : listed.files.find((p) => stemOf(p) === listed.id && dirOf(p) === listed.project);
	// An orphaned subagent folder has no leaf: it is the session the load marked as such.
	const mine = (s: LoadedSession) => (listed.mainMissing ? s.meta.mainMissing === true && s.meta.project === listed.project : s.files.some((f) => f.path === leaf));
	const loaded = out.sessions.find((s) => s.files.at(-1) !== undefined && mine(s) && s.key.startsWith(`${listed.id}-`)) ?? out.sessions[0];
	// The listed key stays the session's identity, so the page's list and the built session agree.
	return loaded ? { ...loaded, key: listed.key } : null;
}
