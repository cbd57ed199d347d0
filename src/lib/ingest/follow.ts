// Following a folder, the pure part: given what was read of each file so far and what a poll of
// the folder sees now (sizes, modification times), say what to read. Claude Code only appends to
// its .jsonl files, so a file that grew is read from where the last read stopped; a file that
// shrank, or whose first bytes differ from the ones read before (rewritten in place), is re-read
// whole with a notice. .json files (subagent .meta.json, web exports) are written whole, so any
// change re-reads them, silently. The browser part (handles, timers) is state/Live.svelte.ts.

/** What a poll sees of one file. */
export interface FileStat {
	/** Path relative to the followed folder's parent ('/'-separated), as ingest names files. */
	path: string;
	size: number;
	/** lastModified, ms. */
	mtime: number;
}

/** What was read of one file so far. */
export interface Tracked {
	/** Bytes read (the next read starts here). */
	size: number;
	mtime: number;
	/** The file's first bytes as read (up to HEAD_CHECK), to notice a file replaced in place. */
	head: Uint8Array;
}

export type FollowStep =
	/** A file not seen before: read it whole. */
	| { kind: 'add'; path: string; size: number }
	/** Read [from, to) and append it. */
	| { kind: 'append'; path: string; from: number; to: number }
	/** Same size, new time: compare the head; re-read only if it changed. */
	| { kind: 'check'; path: string; size: number }
	/** Forget what was read and read the file whole; `notice` is the sentence to show (or null). */
	| { kind: 'reread'; path: string; size: number; notice: string | null }
	/** The file is no longer in the folder. */
	| { kind: 'gone'; path: string };

/** Bytes compared to notice a file replaced in place. */
export const HEAD_CHECK = 256;

/** Only files ingest can classify are followed. */
export function isFollowed(path: string): boolean {
	return /\.(jsonl|json)$/i.test(path);
}

const wholeFile = (path: string) => /\.json$/i.test(path);
const nameOf = (path: string) => path.split('/').at(-1) ?? path;

/** The reads that bring what was read up to what the folder holds now. */
export function planFollow(known: ReadonlyMap<string, Tracked>, now: readonly FileStat[]): FollowStep[] {
	const steps: FollowStep[] = [];
	const seen = new Set<string>();
	for (const f of now) {
		if (!isFollowed(f.path)) continue;
		seen.add(f.path);
		const k = known.get(f.path);
		if (!k) {
			steps.push({ kind: 'add', path: f.path, size: f.size });
			continue;
		}
		if (f.size === k.size && f.mtime === k.mtime) continue;
		if (wholeFile(f.path)) steps.push({ kind: 'reread', path: f.path, size: f.size, notice: null });
		else if (f.size < k.size) steps.push({ kind: 'reread', path: f.path, size: f.size, notice: `${nameOf(f.path)} got shorter (${k.size} → ${f.size} bytes), so it was read again from the start.` });
		else if (f.size > k.size) steps.push({ kind: 'append', path: f.path, from: k.size, to: f.size });
		else steps.push({ kind: 'check', path: f.path, size: f.size });
	}
	for (const path of known.keys()) if (!seen.has(path)) steps.push({ kind: 'gone', path });
	return steps;
}

/** Whether the file's current first bytes differ from those read before (it was replaced). */
export function headChanged(before: Uint8Array, now: Uint8Array): boolean {
	const n = Math.min(before.length, now.length);
	if (now.length < before.length) return true;
	for (let i = 0; i < n; i++) if (before[i] !== now[i]) return true;
	return false;
}

/** How many first bytes to re-read for the head comparison of a file read up to `size`. */
export function headBytes(size: number): number {
	return Math.min(HEAD_CHECK, size);
}

/** The notice for a file found replaced (same or larger size, different beginning). */
export function replacedNotice(path: string): string {
	return `${nameOf(path)} was replaced, so it was read again from the start.`;
}
