// The history's folder, kept across reloads: the last dropped or picked folder's handle (Chromium's
// File System Access API) is stored in IndexedDB (store/follow-handles.ts, its own id), so a session
// listed in the history view can be opened from its files after a reload, with one permission
// prompt and without reading the rest of the tree: only the session's transcript and its
// `<id>/` folder (subagents) are read. Anything that fails (the permission refused, the folder
// moved or renamed, a file gone) comes back as one sentence, never thrown.
import { loadHandle, saveHandle } from '../store/follow-handles.ts';
import type { InputFile } from '../worker/protocol.ts';
import { walkHandle, type DirHandle, type FileHandle } from './drop.ts';

const ID = 'history';

export function rememberFolder(handle: DirHandle): void {
  void saveHandle(ID, handle as unknown as FileSystemDirectoryHandle);
}

export async function keptFolder(): Promise<DirHandle | null> {
  return (await loadHandle(ID)) as unknown as DirHandle | null;
}

/** The session's id: its key is `<leaf stem>-<hash>` (ingest/load-files.ts). */
export function sessionIdOf(key: string): string {
  const dash = key.lastIndexOf('-');
  return dash > 0 ? key.slice(0, dash) : key;
}

async function child(dir: DirHandle, name: string): Promise<DirHandle | FileHandle | null> {
  for await (const [n, h] of dir.entries()) if (n === name) return h;
  return null;
}

/** Asks for read permission on the kept folder (one prompt); false when refused. */
export async function allowed(dir: DirHandle): Promise<boolean> {
  try {
    if ((await dir.queryPermission?.({ mode: 'read' })) === 'granted') return true;
    return (await dir.requestPermission?.({ mode: 'read' })) === 'granted';
  } catch {
    return false;
  }
}

/**
 * One session's files out of the kept folder: `project` is its folder's path as listed (the kept
 * folder's name first), `key` its key. Returns the files, or a sentence saying why not.
 */
export async function sessionFiles(dir: DirHandle, project: string, key: string): Promise<InputFile[] | string> {
  const parts = project.split('/').filter(Boolean);
  const moved = `The folder ${dir.name} no longer holds this session (moved or removed): drop the folder that does.`;
  if (parts[0] !== dir.name) return `This session came from ${parts[0] ?? 'another folder'}, not ${dir.name}: drop that folder to open it.`;
  try {
    let at: DirHandle = dir;
    for (const name of parts.slice(1)) {
      const next = await child(at, name);
      if (next?.kind !== 'directory') return moved;
      at = next;
    }
    const id = sessionIdOf(key);
    const main = await child(at, `${id}.jsonl`);
    const files: InputFile[] = [];
    if (main?.kind === 'file') files.push({ path: `${project}/${id}.jsonl`, blob: await main.getFile() });
    const sub = await child(at, id);
    if (sub?.kind === 'directory') {
      const { files: inner } = await walkHandle(sub);
      // walkHandle names them from `sub`'s parent (`<id>/…`): inside the project's folder.
      for (const f of inner) files.push({ ...f, path: `${parts.join('/')}/${f.path}` });
    }
    return files.length ? files : moved;
  } catch {
    return `The folder ${dir.name} could not be read: drop it again to open this session.`;
  }
}

/** "Reopen" for a waiting session: its files from the kept folder after one permission prompt, or
 *  the line to show instead (null: nothing waits, or no folder is kept). */
export async function reopenWaiting(w: { key: string; project: string } | null): Promise<InputFile[] | string | null> {
  const dir = await keptFolder();
  if (!w || !dir) return null;
  if (!(await allowed(dir))) return `Loupe may not read ${dir.name} (permission refused): drop the folder instead.`;
  return sessionFiles(dir, w.project, w.key);
}
