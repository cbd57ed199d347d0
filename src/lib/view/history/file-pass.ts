// One read per transcript, for a big drop's first scan. Reading a file costs the browser about as
// much per read as per byte (a 1 GB tree of 1,900 transcripts: its heads and tails alone took
// 8.6 s to scan, every byte of it 9 s to read), so a lane reads each transcript up to WHOLE_MAX
// whole, once, and answers both what the scan needs (ingest/scan.ts scanOfBytes: the same head and
// tail) and the file's billed calls (calls.ts callsOfFiles of that one file). Once the tree is
// listed, the history's usage pass merges each Claude Code session's files' calls (mergeFileCalls)
// instead of reading them again; only sessions with a bigger file are read for their calls then.
// The lanes are worker/scan-lanes.ts; the catalog keeps the calls until the usage pass takes them.
import { scanOfBytes, type FileScan } from '../../ingest/scan.ts';
import type { InputFile } from '../../ingest/types.ts';
import { callsOfFiles, type CallWhere } from './calls.ts';
import type { BilledCall } from './types.ts';

/** One transcript's calls, merged within the file (mergeFileCalls merges a session's). */
export interface FileCalls {
  calls: BilledCall[];
  problems: { file: string; line: number; reason: string }[];
}

/** A file read whole: its scan, and its calls when it is a Claude Code transcript (or why it could not be read). */
export type WholeScan = { scan: FileScan; calls: FileCalls | null } | { error: string };

/** A scan reads a file whole when it is a transcript (`.jsonl`) no bigger than this; a bigger one's
 *  head and tail are read as ever, and its session is priced by reading it in the usage pass
 *  after the tree is listed. Measured on the generated 1 GB tree (one drop each; heads and tails
 *  only: listed 11.9-12.4 s, usage complete 25.8 s): up to 256 KB whole (877 of 1,898 files,
 *  12 % of the bytes) listed in 9.4 s, the lanes sharing the scan's parsing, usage 20.1 s; up to
 *  512 KB 11.7 s, 20.1 s; up to 1 MB 12.5 s, 17.8 s; every file whole 15.0-18.6 s, 15.2-18.8 s. */
export const WHOLE_MAX = 256 * 1024;

export const readsWhole = (path: string, size: number): boolean => path.endsWith('.jsonl') && size <= WHOLE_MAX;

/** Calls of one file are merged without a session (mergeFileCalls sets where they count). */
const NO_SESSION: CallWhere = { sessionKey: '', project: '', harness: 'claude-code' };

/** Reads `file` whole (its bytes, when given) and scans and prices it. */
export async function scanWhole(file: InputFile, path: string): Promise<WholeScan> {
  let bytes: Uint8Array;
  try {
    bytes = file.bytes ?? new Uint8Array(await file.blob.arrayBuffer());
  } catch (e) {
    return { error: e instanceof Error ? e.message || e.name : String(e) };
  }
  const scan = scanOfBytes(path, bytes);
  // Another harness's file: its calls come from its session's build (lane.ts), as ever.
  return { scan, calls: scan.other === null ? callsOfFiles([{ path, bytes }], NO_SESSION) : null };
}
