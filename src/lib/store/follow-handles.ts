// The folder being followed, kept across reloads: a FileSystemDirectoryHandle is structured-
// cloneable, so IndexedDB can hold it, and after a reload the page offers "Resume following"
// (the browser asks for permission again). Its own small database, apart from the session cache,
// so neither schema has to know the other. Failures (private mode, no IndexedDB) mean no resume.
// The last dropped or picked history folder is kept here too, under its own id (saveHandle), so
// the history view can read one session's files from it after a reload.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

interface FollowSchema extends DBSchema {
	folders: { key: string; value: { id: string; handle: FileSystemDirectoryHandle; name: string; savedAt: number } };
}

const DB_NAME = 'loupe-follow';
const ID = 'last';

let db: Promise<IDBPDatabase<FollowSchema>> | null = null;
function open(): Promise<IDBPDatabase<FollowSchema>> {
	db ??= openDB<FollowSchema>(DB_NAME, 1, { upgrade: (d) => void d.createObjectStore('folders', { keyPath: 'id' }) });
	return db;
}

export async function saveHandle(id: string, handle: FileSystemDirectoryHandle): Promise<void> {
	try {
		await (await open()).put('folders', { id, handle, name: handle.name, savedAt: Date.now() });
	} catch {
		// Not kept: the next visit simply offers no resume.
	}
}

export async function loadHandle(id: string): Promise<FileSystemDirectoryHandle | null> {
	try {
		return (await (await open()).get('folders', id))?.handle ?? null;
	} catch {
		return null;
	}
}

export const saveFollowed = (handle: FileSystemDirectoryHandle) => saveHandle(ID, handle);
export const loadFollowed = () => loadHandle(ID);

export async function forgetFollowed(): Promise<void> {
	try {
		await (await open()).delete('folders', ID);
	} catch {
		// Nothing kept, nothing to forget.
	}
}
