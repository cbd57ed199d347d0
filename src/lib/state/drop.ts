// Reads what the person dropped or picked into input files with their relative paths, walking
// dropped folders (webkitGetAsEntry) so a whole ~/.claude/projects/<project> folder keeps its
// layout (<sid>/subagents/…, states/…, timeline/…), which classification uses.
import type { InputFile } from '../worker/protocol.ts';

/** Files from an <input type=file> (multiple or webkitdirectory). */
export function filesFromInput(list: FileList | null): InputFile[] {
  return [...(list ?? [])].map((f) => ({ path: f.webkitRelativePath || f.name, blob: f }));
}

/** Files from a drop: plain files, or folders walked recursively. */
export async function filesFromDrop(dt: DataTransfer): Promise<InputFile[]> {
  const entries = [...dt.items]
    .filter((i) => i.kind === 'file')
    .map((i) => i.webkitGetAsEntry?.())
    .filter((e): e is FileSystemEntry => !!e);
  if (!entries.length) return [...dt.files].map((f) => ({ path: f.name, blob: f }));
  const out: InputFile[] = [];
  for (const e of entries) await walk(e, out);
  return out;
}

async function walk(entry: FileSystemEntry, out: InputFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ path: entry.fullPath.replace(/^\//, ''), blob: file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns at most ~100 entries per call; call until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (!batch.length) break;
    for (const child of batch) await walk(child, out);
  }
}
