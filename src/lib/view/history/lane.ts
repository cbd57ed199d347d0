// What one history lane does with one listed session: build it from its files (the bytes read
// on the engine's thread, as the search lanes get theirs: worker/history-lanes.ts) the way the
// engine opens it (ingest/listed.ts loadListed), and send back only its compact entry (entry.ts),
// or why it could not be read. A lane is a search worker (worker/search.worker.ts `index`) or,
// where workers cannot start, the engine's own thread; both run indexSession.
//
// A job may ask for its calls only (`usageOnly`: the usage pass, ahead of the index). A Claude
// Code session's calls are then read from its transcripts' text (calls.ts callsOfFiles), with no
// build; the index reads them the same way and adds which ones its built session shows, so both
// hold the same calls whatever the listing grouped (a resumed file's subagents included).
import { loadListed, type ListedRef } from '../../ingest/listed.ts';
import type { InputFile } from '../../ingest/types.ts';
import { entryAndFields, withSearch } from './entry.ts';
import type { SearchField } from '../search/fields.ts';
import { callsFromText, callsOfBytes, onPathIds, type CallWhere } from './calls.ts';
import type { BilledCall, HistoryEntry } from './types.ts';

export interface HistoryJob {
  listed: ListedRef & { bytes?: number };
  files: InputFile[];
  /** The usage pass: the session's billed calls only, no entry. */
  usageOnly?: boolean;
  /** The index: the calls the usage pass read (from the same files' text, by the same rule), so
   *  only which of them the build shows is added (onPath); absent: read here. */
  calls?: BilledCall[];
}

/** A session's calls from the usage pass, with the lines whose usage fields were not numbers. */
export interface SessionCalls {
  calls: BilledCall[];
  problems: { file: string; line: number; reason: string }[];
}

export type HistoryResult =
  | { ok: true; entry: HistoryEntry; ms: number }
  | { ok: true; usage: SessionCalls; ms: number }
  | { ok: false; reason: string; ms: number };

export interface HistoryLane {
  index(job: HistoryJob): Promise<HistoryResult>;
  dispose?(): void;
}

export async function indexSession(job: HistoryJob): Promise<HistoryResult> {
  const started = performance.now();
  const fail = (reason: string): HistoryResult => ({ ok: false, reason, ms: performance.now() - started });
  const files = await readFiles(job);
  if (typeof files === 'string') return fail(files);
  if (job.usageOnly) {
    const usage = fromText(job.listed, files);
    if (usage) return { ok: true, usage, ms: performance.now() - started };
  }
  const built = await build(job, files);
  if (typeof built === 'string') return fail(built);
  // The files' bytes go with the build (the job is this lane's own: a worker's copy, or made for the call).
  job.files = [];
  if (job.usageOnly) return { ok: true, usage: { calls: built.entry.calls, problems: [] }, ms: performance.now() - started };
  try {
    return { ok: true, entry: withSearch(built.entry, built.fields), ms: performance.now() - started };
  } catch (e) {
    return fail(`its digest failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The job's files with their bytes (read here when not read ahead), or why they cannot be read. */
async function readFiles(job: HistoryJob): Promise<InputFile[] | string> {
  const missing = job.listed.files.filter((p) => !job.files.some((f) => f.path === p));
  if (missing.length === job.listed.files.length) return 'its files are no longer in the drop';
  // A read that fails names the file (moved, permission gone).
  const files: InputFile[] = [];
  for (const f of job.files) {
    if (f.bytes) {
      files.push(f);
      continue;
    }
    try {
      files.push({ ...f, bytes: new Uint8Array(await f.blob.arrayBuffer()) });
    } catch (e) {
      return `${f.path} could not be read (${e instanceof Error ? e.name || e.message : String(e)})`;
    }
  }
  return files;
}

/** The session's calls read from its files' text (calls.ts callsOfBytes), or null: build it. */
const fromText = (listed: HistoryJob['listed'], files: InputFile[]): SessionCalls | null => callsOfBytes(files, whereOf(listed));

const whereOf = (listed: HistoryJob['listed']): CallWhere => ({ sessionKey: listed.key, project: listed.project, harness: listed.harness });

/** The session built from its files, and only its entry and search fields kept (or why not): the
 *  model and the bytes stay in this call, so they can be collected while the fields are compressed. */
async function build(job: HistoryJob, files: InputFile[]): Promise<{ entry: HistoryEntry; fields: SearchField[] } | string> {
  const loaded = await loadListed(job.listed, files);
  if (!loaded) return 'no session could be built from its files';
  try {
    // The calls of every listed file, as the usage pass reads them, and which of them the build
    // shows (a call is on a path when any of its copies is: one identity, one answer).
    const where = whereOf(job.listed);
    let calls: BilledCall[] | undefined;
    if (callsFromText(files, where)) {
      const shown = onPathIds(loaded);
      calls = job.calls ? job.calls.map((c) => ({ ...c, onPath: shown.has(c.id) })) : callsOfBytes(files, where, shown)!.calls;
    }
    return entryAndFields(loaded, job.listed, calls);
  } catch (e) {
    return `its digest failed: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** `run`, one call at a time: a call made while one is running starts when it has ended. A lane
 *  is sent its next job early (its bytes read while this one builds: queue.ts), and a job awaits
 *  its reads and its build's steps; without this the next one's build ran in those waits, two
 *  sessions' models and text in one lane's heap at once. */
export function serially<A, R>(run: (a: A) => Promise<R>): (a: A) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return (a) => {
    const done = tail.then(() => run(a));
    tail = done.catch(() => undefined);
    return done;
  };
}

/** A lane on the calling thread (no workers: Node, tests, a browser that cannot nest them). */
export class LocalHistoryLane implements HistoryLane {
  #index = serially(indexSession);
  index(job: HistoryJob): Promise<HistoryResult> {
    return this.#index(job);
  }
}
