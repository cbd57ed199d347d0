// Reads what the person dropped or picked into input files with their relative paths, walking
// dropped or picked folders so a whole ~/.claude/projects/<project> folder keeps its layout
// (<sid>/subagents/…, states/…, timeline/…), which classification uses. Folders are walked by
// walk.ts in small asynchronous steps: through File System Access handles where the browser has
// them (Chromium: a dropped item's getAsFileSystemHandle, showDirectoryPicker; no long task, and
// no FileList built in one task as <input webkitdirectory> does), else through the dropped
// entries (webkitGetAsEntry: Firefox, Safari). The same handle walk serves a followed folder.
import type { InputFile } from '../worker/protocol.ts';
import type { LoadSource } from './sources.ts';
import { walkTree, type WalkDir, type WalkFile, type WalkOptions } from './walk.ts';

/** The parts of the File System Access API used here (not all are in TypeScript's DOM types yet). */
export interface DirHandle {
  kind: 'directory';
  name: string;
  entries(): AsyncIterable<[string, DirHandle | FileHandle]>;
  queryPermission?(d: { mode: 'read' }): Promise<PermissionState>;
  requestPermission?(d: { mode: 'read' }): Promise<PermissionState>;
}
export interface FileHandle {
  kind: 'file';
  name: string;
  getFile(): Promise<File>;
}
type Picker = (opts?: { id?: string; mode?: 'read' }) => Promise<DirHandle>;
type HandleItem = DataTransferItem & { getAsFileSystemHandle?: () => Promise<DirHandle | FileHandle | null> };

/** Files from an <input type=file> (multiple or webkitdirectory). */
export function filesFromInput(list: FileList | null): InputFile[] {
  return [...(list ?? [])].map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
}

/** What a drop holds. Taken synchronously in the drop handler: the DataTransfer is emptied after it. */
export interface Dropped {
  /** The dropped files and folders, to walk. */
  roots: Promise<(WalkFile | WalkDir)[]>;
  /** The first dropped folder's handle, where the browser gives one (to follow it live). */
  folder: Promise<DirHandle | null>;
}

export function takeDrop(dt: DataTransfer): Dropped | null {
  const items = [...dt.items].filter((i) => i.kind === 'file') as HandleItem[];
  if (!items.length) {
    const files = [...dt.files];
    if (!files.length) return null;
    return { roots: Promise.resolve(files.map(plainFile)), folder: Promise.resolve(null) };
  }
  // Both are asked for now, while the items are readable; the handle is preferred when it comes.
  const entries = items.map((i) => i.webkitGetAsEntry?.() ?? null);
  const files = items.map((i) => i.getAsFile());
  const handles = items.map((i) => (i.getAsFileSystemHandle ? i.getAsFileSystemHandle().catch(() => null) : Promise.resolve(null)));
  const roots = Promise.all(handles).then((hs) =>
    hs.flatMap((h, i): (WalkFile | WalkDir)[] => {
      if (h) return [handleNode(h)];
      const e = entries[i];
      if (e) return [entryNode(e)];
      const f = files[i];
      return f ? [plainFile(f)] : [];
    })
  );
  const folder = (handles[0] ?? Promise.resolve(null)).then((h) => (h?.kind === 'directory' ? h : null));
  return { roots, folder };
}

/** Every file of a drop, and what could not be read (see walkTree for batches, progress and cancelling). */
export async function walkDrop(d: Dropped, opts: WalkOptions = {}): Promise<{ files: InputFile[]; unreadable: string[] }> {
  return walkTree(await d.roots, opts);
}

/** Every file under a folder handle, by path from the folder's parent (`<name>/…`, as a dropped folder names them). */
export function walkHandle(dir: DirHandle, opts: WalkOptions = {}): Promise<{ files: InputFile[]; unreadable: string[] }> {
  return walkTree([handleNode(dir)], opts);
}

/** Whether the browser has a folder picker that gives handles (File System Access API). */
export function canPickDirectory(): boolean {
  return typeof window !== 'undefined' && typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** The browser's folder picker; null when the person cancelled it (other failures throw). */
export async function pickDirectory(id: string): Promise<DirHandle | null> {
  try {
    return await (window as unknown as { showDirectoryPicker: Picker }).showDirectoryPicker({ id, mode: 'read' });
  } catch (e) {
    if ((e as { name?: string })?.name === 'AbortError') return null;
    throw e;
  }
}

function plainFile(f: File): WalkFile {
  return { kind: 'file', name: f.name, file: () => Promise.resolve(f) };
}

function handleNode(h: DirHandle | FileHandle): WalkFile | WalkDir {
  if (h.kind === 'file') return { kind: 'file', name: h.name, file: () => h.getFile() };
  return {
    kind: 'directory',
    name: h.name,
    list: async () => {
      const out: (WalkFile | WalkDir)[] = [];
      for await (const [, child] of h.entries()) out.push(handleNode(child));
      return out;
    }
  };
}

function entryNode(e: FileSystemEntry): WalkFile | WalkDir {
  if (e.isFile) return { kind: 'file', name: e.name, file: () => new Promise<File>((resolve, reject) => (e as FileSystemFileEntry).file(resolve, reject)) };
  return {
    kind: 'directory',
    name: e.name,
    list: async () => {
      const reader = (e as FileSystemDirectoryEntry).createReader();
      const out: (WalkFile | WalkDir)[] = [];
      // readEntries returns at most ~100 entries per call; call until it returns none.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
        if (!batch.length) return out;
        for (const child of batch) out.push(entryNode(child));
      }
    }
  };
}

/** A drop as a load source: walked once the load starts, so the page says "loading" from the drop on. */
export function dropSource(d: Dropped, name = 'dropped files'): LoadSource {
  return { kind: 'folder', name, walk: (opts) => walkDrop(d, opts) };
}

/** A picked folder as a load source. */
export function folderSource(dir: DirHandle): LoadSource {
  return { kind: 'folder', name: dir.name, walk: (opts) => walkHandle(dir, opts) };
}
