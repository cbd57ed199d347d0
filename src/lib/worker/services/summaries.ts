// What the page is sent about a session: its summary (counts, issues, accounting) and its
// session-list entry, made from a built session or from a scan's listing.
import { segmentsOf } from '../../model/index.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import type { ScannedSession } from '../../ingest/scan.ts';
import { dirOf } from '../../ingest/paths.ts';
import { HARNESS_LABELS } from '../../ingest/harnesses.ts';
import { buildChatRows, type ChatRow } from '../../view/chat/index.ts';
import type { ListEntry } from '../../view/sessions/list.ts';
import type { SessionSummary } from '../protocol.ts';

/** Issues sent with a load or a summary (the issues panel asks for the rest). */
export const ISSUES_SENT = 200;

export function summarize(s: LoadedSession): SessionSummary {
  const { session } = s.result;
  let atoms = 0;
  let segments = 0;
  for (const turn of session.turns) {
    atoms += turn.atoms.length;
    segments += segmentsOf(turn, session.rompUuid).length;
  }
  return {
    key: s.key,
    meta: s.meta,
    files: s.files,
    turns: session.turns.length,
    atoms,
    segments,
    issues: s.issues.slice(0, ISSUES_SENT),
    issueCount: s.issues.length,
    accounting: s.result.accounting
  };
}

export function entryOfScan(s: ScannedSession): ListEntry {
  return {
    key: s.key,
    project: s.project,
    harness: s.harness,
    harnessLabel: HARNESS_LABELS[s.harness],
    title: s.title,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    bytes: s.bytes,
    turns: s.turnsEst,
    turnsExact: false,
    subagents: s.subagents,
    cwd: s.cwd,
    model: s.model,
    ...(s.mainMissing ? { mainMissing: true } : {})
  };
}

export function entryOfSummary(s: SessionSummary): ListEntry {
  const leaf = s.files.find((f) => f.kind === 'transcript') ?? s.files[0];
  return {
    key: s.key,
    project: s.meta.project ?? (leaf ? dirOf(leaf.path) : ''),
    harness: s.meta.harness ?? 'claude-code',
    harnessLabel: s.meta.harnessLabel ?? 'Claude Code',
    title: s.meta.title,
    startedAt: s.meta.startedAt,
    endedAt: s.meta.endedAt,
    bytes: s.meta.bytes,
    turns: s.turns,
    turnsExact: true,
    subagents: s.meta.subagents,
    cwd: null,
    model: null,
    ...(s.meta.mainMissing ? { mainMissing: true } : {})
  };
}

/** A session's chat rows, built whole. */
export function rowsOf(loaded: LoadedSession, extra: { sessionOver?: boolean } = {}): ChatRow[] {
  return buildChatRows(loaded.result.session, loaded.children, { metadata: loaded.result.metadata, ...extra });
}
