// The history index's data, as every part of round 3 shares it: what is kept per session (a
// digest), one row per billed API call (what history usage counts), and the persisted entry
// that holds both beside the session's search index. Pure data, structured-cloneable, so it
// crosses the worker boundary and goes into IndexedDB as it is.
// The digest and the calls are computed from a built session (view/history/digest.ts,
// view/history/calls.ts); reports (view/history/reports.ts) and exports read the calls only.
import type { HarnessId } from '../../ingest/types.ts';

/** One billed API call. Counted once across the whole history by `id`. */
export interface BilledCall {
  /** Identity across copies: `message.id:requestId` for Claude Code (a resumed session's copied
   *  lines, a subagent file and an inline sidechain all carry the same), the harness's own
   *  equivalent elsewhere; a call with no identity gets its line's uuid and counts where it sits. */
  id: string;
  /** Epoch ms of the call's line (null: no usable time; such calls count in totals, never in a period). */
  ms: number | null;
  /** The session the call counts for, as ccusage groups it: the id of the transcript file the
   *  call is kept from (its stem; a subagent file's or inline sidechain's parent session), else
   *  the listed session's id (other harnesses). A resumed session's copied line counts for the
   *  file it is read from, like ccusage (docs/usage-counting.md). */
  sessionId: string;
  /** Loupe's key of the listed session the call was read from. */
  sessionKey: string;
  /** The project folder (path of the folder above the session's files, as listed). */
  project: string;
  harness: HarnessId;
  model: string;
  serviceTier: string | null;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  webSearches: number;
  /** On the session's active path (false: an abandoned, rewound branch). */
  onPath: boolean;
  /** Read from a subagent transcript (file or inline sidechain). */
  subagent: boolean;
  /** The transcript path the kept copy was read from, and its 1-based line: ties between copies
   *  go to the first in path order (ccusage reads files in path order). */
  file?: string;
  line?: number;
}

/** Per tool: how often it was called and how many of those calls failed. */
export interface ToolTally {
  calls: number;
  failures: number;
}

/** What the history keeps of one session: enough for the session list, the projects level and
 *  history-wide questions, without building the session again. */
export interface SessionDigest {
  key: string;
  title: string;
  project: string;
  harness: HarnessId;
  startedAt: number | null;
  endedAt: number | null;
  bytes: number;
  turns: number;
  prompts: number;
  tools: Record<string, ToolTally>;
  /** Paths the session's edits and writes touched (deduplicated, first-touch order). */
  filesTouched: string[];
  compactions: number;
  subagents: number;
  /** What the session's usage panel shows (active path, subagents included; priced calls only). */
  costUsd: number;
  unpricedMessages: number;
  /** The main transcript is gone; only its subagents' files remain (an orphaned folder). */
  mainMissing?: boolean;
}

/** What the index keeps of one listed session, keyed by its files' fingerprints + MODEL_VERSION. */
export interface HistoryEntry {
  /** The listed session's key (fingerprints of its files are part of it). */
  key: string;
  digest: SessionDigest;
  calls: BilledCall[];
  /** The session's search index (view/search/, designed by the history search work); absent
   *  until that lands, or when it could not be built. */
  search?: unknown;
}

/** A listed session the index could not read, and why (shown, never dropped silently). */
export interface HistoryFailure {
  key: string;
  title: string;
  reason: string;
}

/** `window.__loupe.history()` and the progress line. */
export interface HistoryStatus {
  listed: number;
  indexed: number;
  failed: number;
  calls: number;
  bytesStored: number;
  ms: number;
  ready: boolean;
  /** Every listed session's billed calls are known (the usage pass, ahead of \`ready\`). */
  usageReady?: boolean;
  /** The usage pass's time from the pass's start (0 until it is complete, or when nothing was read). */
  usageMs?: number;
  /** Storage failed (a full disk, a blocked IndexedDB): the figures hold what could be kept. */
  partial?: boolean;
  /** Files inside the tree that no index entry holds (foreign, unreadable, truncated). */
  filesNotIndexed?: number;
  /** Sessions this run read from their files (the rest came from the stored index). */
  read?: number;
  /** Time the lanes spent reading those sessions, summed over the lanes (ms): against `ms` times
   *  the lanes, how busy the pass kept them (the bench reports it). */
  laneMs?: number;
  /** One line for the page when storing failed (a full disk, a blocked database). */
  notice?: string | null;
  /** The stored history's summary (view/history/summary.ts) stands for what is stored: a reload's
   *  history view reads it in one record. */
  summarized?: boolean;
}

/** A file inside the dropped tree the index does not hold, and why. */
export interface FileNotIndexed {
  path: string;
  reason: string;
}

// ── history usage reports (view/history/reports.ts: usageReport(calls, query)) ──

/** `person`: the folder above `projects/` when a tree holds several people's (ingest/person.ts). */
export type UsageBy = 'day' | 'week' | 'month' | 'session' | 'block' | 'project' | 'model' | 'harness' | 'person';

/** What `window.__loupe.historyUsage(query)` asks; since / until are `YYYY-MM-DD` in `timezone`
 *  (an IANA name; the browser's by default), inclusive. */
export interface UsageQuery {
  by: UsageBy;
  timezone?: string;
  since?: string;
  until?: string;
  project?: string;
  harness?: string;
  model?: string;
  /** Each row also carries its cost by model or by project (stacked charts). */
  split?: 'model' | 'project';
}

export interface UsageRow {
  /** day `YYYY-MM-DD`, week `YYYY-Www` (ISO), month `YYYY-MM`, block start (ISO), session id,
   *  project, model or harness. */
  key: string;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** Priced calls only; `unpricedMessages` says how many had no price. */
  costUsd: number;
  messages: number;
  unpricedMessages: number;
  /** `query.split`: the row's cost by model or project. */
  split?: Record<string, { costUsd: number; unpricedMessages: number }>;
  /** by session: the listed session the row's first call was read from (to open it). */
  sessionKey?: string;
  project?: string;
}

export interface UsageReport {
  rows: UsageRow[];
  total: UsageRow;
  priceSourceDate: string;
}
