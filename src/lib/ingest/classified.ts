// The ClassifiedFile constructors classify.ts builds its answers with, and the entry for what a
// folder walk could not read. Apart from classify.ts (and the harness adapters it reaches) so
// the page, which only names unreadable entries, loads none of them at boot.
import type { ClassifiedFile } from './types.ts';
import { baseName, normPath } from './paths.ts';

export function make(path: string, bytes: number, kind: ClassifiedFile['kind'], extra: Partial<ClassifiedFile> = {}): ClassifiedFile {
	const p = normPath(path);
	return { path: p, name: baseName(p), kind, sessionId: null, bytes, ...extra };
}

export function unknown(path: string, bytes: number, reason: string): ClassifiedFile {
	return make(path, bytes, 'unknown', { reason });
}

/** What the browser would not hand over while a folder was walked (a folder's path ends in '/'):
 *  listed with the reason, so nothing is dropped silently. */
export function unreadableEntry(path: string): ClassifiedFile {
	return unknown(path, 0, path.endsWith('/') ? 'the browser would not list this folder; its files were not opened' : 'the browser would not hand this file over; the rest of the folder was opened');
}
