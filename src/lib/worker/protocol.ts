// The boundary between the page and the parse worker, in one file: what a load sends, what
// progress and results come back, and the compact per-session index the main thread keeps.
// Everything here is plain structured-cloneable data. Expected failures (a file that is not a
// transcript, a superseded load) come back as values; exceptions are for bugs only.
import type { Issue } from '../model/index.ts';
import type { ClassifiedFile, LoadProgress as IngestProgress, SessionMeta } from '../ingest/types.ts';
import type { ChatRow, RowIndexEntry } from '../view/chat/index.ts';
import type { TimelineLayout } from '../view/timeline/layout.ts';
import type { LiveSessionInfo } from '../ingest/live.ts';
import type { LiveActivity } from '../view/chat/live.ts';
import type { ListEntry } from '../view/sessions/list.ts';

/** A file to load: its path relative to what was dropped (webkitRelativePath) and its bytes. */
export type { InputFile } from '../ingest/types.ts';

/** Ingest's per-chunk progress plus the throughput the engine adds. */
export interface LoadProgress extends IngestProgress {
  /** Throughput since the load started, MB/s (over all files). */
  mbPerSec: number;
}

/** What the main thread keeps of one loaded session: counts, identity, no atoms. */
export interface SessionSummary {
  key: string;
  meta: SessionMeta;
  files: ClassifiedFile[];
  turns: number;
  atoms: number;
  segments: number;
  /** First issues (capped); `issueCount` has the total. */
  issues: Issue[];
  issueCount: number;
  accounting: { lines: number; atoms: number; offPath: number; metadata: number; issues: number };
}

/** A provisional session list while a big drop is still being scanned. */
export interface ListSnapshot {
  entries: ListEntry[];
  filesDone: number;
  filesTotal: number;
}

/**
 * `sessions`: the built sessions (all of a small drop; only the newest of a scanned one).
 * `list`: every listed session (exact for built ones, scan estimates otherwise).
 * `scanned`: the drop was big, so the other sessions are built on open (Engine.open).
 * `restored` (Engine.loadPersisted): shown from the persisted row index, the model still being rebuilt.
 */
export type LoadOutcome =
  | { ok: true; generation: number; sessions: SessionSummary[]; list: ListEntry[]; scanned: boolean; unknown: ClassifiedFile[]; issues: Issue[]; ms: number; restored?: boolean }
  | { ok: false; generation: number; superseded: boolean; message: string };

export interface ChatIndex {
  sessionKey: string;
  /** The entries asked for (all of them unless a range was asked). */
  rows: RowIndexEntry[];
  /** Rows in the whole index. */
  total: number;
  /** Which build of the session's rows these entries come from: pages agree on it or are refetched. */
  stamp: number;
}

export type { ChatRow, RowIndexEntry, TimelineLayout, ListEntry };
export type { ProjectUsage, SessionUsage } from '../view/usage/types.ts';
export type { ExportFormat, ExportProgress, ExportResult } from '../view/export/index.ts';
export type { Finding, FindingPlace, RedactOptions } from '../view/redact/index.ts';

// ── following a folder ─────────────────────────────────────────────────────

/** Bytes appended to one followed file (file.slice(offset)); `reset`: they are the whole file again. */
export interface FollowChange {
  path: string;
  bytes: Uint8Array;
  reset?: boolean;
  gone?: boolean;
}

export interface FollowOutcome {
  generation: number;
  /** Every followed session, newest first. */
  sessions: SessionSummary[];
  /** The same sessions as session-list entries (a followed folder is listed like a dropped one). */
  list: ListEntry[];
  /** Sessions rebuilt; `keepRows`: leading chat rows unchanged since the page last fetched them. */
  changed: { key: string; keepRows: number }[];
  removed: string[];
  unknown: ClassifiedFile[];
  /** The session written to most recently. */
  active: string | null;
}

/** What a followed session is doing now (its status line). */
export interface LiveState extends LiveSessionInfo {
  activity: LiveActivity;
  /** The quiet flag flipped, so the chat rows changed: the page refreshes its index. */
  rebuilt: boolean;
}
