// Billed API calls of one built session: every call the files record, once per identity, wherever
// its lines sit — the active path (atoms), an abandoned rewound branch, a cleared conversation, a
// resumed session's copied lines, a skipped line (the model's off-path and metadata lines carry
// the billing facts, LineCall), a subagent file or an inline sidechain. History usage
// (reports.ts) counts these, deduplicated again across sessions by `id`.
//
// The counting rule is ccusage's (20.0.24, measured on crafted trees; docs/usage-counting.md):
// - identity: `message.id:requestId`; a line with message.id only is keyed by it; a line with
//   neither (or requestId only) counts by itself (its file and line);
// - of the lines of one identity the one with the most tokens (input + output + cache read +
//   cache write) is kept, the first in path order (file path, then line) on a tie; its time,
//   model and file are the call's;
// - the session a call counts for is the transcript file it is kept from: the file's stem, or
//   for a subagent file (`<session>/subagents/agent-*.jsonl`) and an inline sidechain the
//   session it belongs to.
//
// Two readings give the same calls: billedCalls from a built session (its atoms and its lines that
// show none), and callsOfFiles from the transcripts' bytes (model/billing.ts reads only the lines
// that carry usage: the history's usage pass, and the index's lanes, which add onPath from the
// model). calls-equivalence.test.ts holds them equal on every fixture, the corpus and generated trees.
import type { Atom, LineCall, ParseResult, Usage } from '../../model/types.ts';
import { billedLines } from '../../model/billing.ts';
import type { HarnessId } from '../../ingest/types.ts';
import type { ClassifiedFile, LoadedSession } from '../../ingest/types.ts';
import { tokensOf, totalOf, type Tokens } from '../usage/messages.ts';
import type { BilledCall } from './types.ts';

/** What billedCalls reads of a loaded session. */
export type CallSource = Pick<LoadedSession, 'result' | 'children' | 'unattached'> & { files?: Pick<ClassifiedFile, 'path'>[]; meta?: { mainMissing?: boolean } };

export interface CallWhere {
  sessionKey: string;
  project: string;
  harness: HarnessId;
}

/** One line's copy of a call, before the copies of an identity are merged. */
interface Copy {
  id: string;
  file: string;
  line: number;
  ms: number | null;
  model: string;
  serviceTier: string | null;
  tokens: Tokens;
  total: number;
  onPath: boolean;
  subagent: boolean;
}

const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The identity of a call (see the header); null ids fall back to the line itself. */
export function callIdentity(messageId: string | null | undefined, requestId: string | null | undefined, file: string, line: number): string {
  if (messageId && requestId) return `${messageId}:${requestId}`;
  if (messageId) return messageId;
  return `${file}#${line}`;
}

/** Path order, as ccusage reads files: code-unit order of the path, then the line. */
export function pathBefore(a: { file: string; line: number }, b: { file: string; line: number }): boolean {
  return a.file < b.file || (a.file === b.file && a.line < b.line);
}

function byTime(a: BilledCall, b: BilledCall): number {
  if (a.ms !== b.ms) return a.ms === null ? 1 : b.ms === null ? -1 : a.ms - b.ms;
  const x = { file: a.file ?? '', line: a.line ?? 0 };
  const y = { file: b.file ?? '', line: b.line ?? 0 };
  return pathBefore(x, y) ? -1 : pathBefore(y, x) ? 1 : 0;
}

/** The session a transcript file's calls count for (see the header). */
export function sessionOfFile(file: string): string {
  const parts = file.replace(/\\/g, '/').split('/');
  const i = parts.lastIndexOf('subagents');
  if (i > 0 && i === parts.length - 2) return parts[i - 1];
  const base = parts[parts.length - 1] ?? file;
  const stem = base.endsWith('.jsonl') ? base.slice(0, -6) : base;
  const side = stem.indexOf('#sidechain-');
  return side >= 0 ? stem.slice(0, side) : stem;
}

function copyOf(id: string, file: string, line: number, ms: number | null, model: string | null | undefined, usage: Usage, onPath: boolean, subagent: boolean): Copy {
  const tokens = tokensOf(usage);
  return {
    id,
    file,
    line,
    ms: ms !== null && Number.isFinite(ms) ? ms : null,
    model: model || 'unknown',
    serviceTier: typeof usage.service_tier === 'string' ? usage.service_tier : null,
    tokens,
    total: totalOf(tokens),
    onPath,
    subagent
  };
}

/** Collects one transcript's copies: its atoms (on its path) and its lines that show no atom. */
function collect(result: ParseResult, fileOf: (atom: Atom) => string, subagent: boolean, out: Copy[]): void {
  for (const turn of result.session.turns) {
    for (const a of turn.atoms) {
      if (a.type !== 'assistant' || !a.message || !rec(a.message.usage)) continue;
      const file = fileOf(a);
      const line = a.line ?? 0;
      const id = callIdentity(a.messageId, a.requestId, file, line);
      out.push(copyOf(id, file, line, a.untimed ? null : (a.ms ?? a.t * 1000), a.message.model, a.message.usage as Usage, true, subagent || a.isSidechain === true));
    }
  }
  const add = (l: { file: string; line: number; call?: LineCall }) => {
    const c = l.call;
    if (!c) return;
    const id = callIdentity(c.messageId, c.requestId, l.file, l.line);
    out.push(copyOf(id, l.file, l.line, c.ms, c.model, c.usage, false, subagent || c.sidechain));
  };
  for (const l of result.offPath) add(l);
  for (const l of result.metadata) add(l);
}

/** Atoms know their file by stem (fsid); the session's files give the path. */
function stems(loaded: CallSource): Map<string, string> {
  const byStem = new Map<string, string>();
  for (const f of loaded.files ?? []) {
    const base = f.path.split('/').pop() ?? f.path;
    byStem.set(base.endsWith('.jsonl') ? base.slice(0, -6) : base, f.path);
  }
  return byStem;
}

/**
 * Every billed API call of a built session, once per identity (the rule in the header), with
 * where it was read: onPath (some copy is on a shown path) and subagent (read from a subagent).
 * Ordered by time (untimed calls last), then path order.
 */
export function billedCalls(loaded: CallSource, where: CallWhere): BilledCall[] {
  const byStem = stems(loaded);
  const copies: Copy[] = [];
  const mainFile = (a: Atom) => (a.fsid ? (byStem.get(a.fsid) ?? `${a.fsid}.jsonl`) : '');
  // An orphaned subagent folder's main transcript is made up (ingest/orphans.ts): no call of its own.
  if (!loaded.meta?.mainMissing) collect(loaded.result, mainFile, false, copies);
  for (const child of Object.values(loaded.children)) collect(child.result, () => fileOnDisk(child.file), true, copies);
  for (const u of loaded.unattached) collect(u.result, () => fileOnDisk(u.file), true, copies);

  return merged(copies, where, loaded.result.session.rompUuid);
}

/** An inline sidechain's lines sit in its main transcript (`<main>#sidechain-<n>.jsonl` names
 *  them apart in the model; their line numbers are the main file's): the file they are read from. */
const fileOnDisk = (file: string): string => file.replace(/#sidechain-\d+\.jsonl$/, '.jsonl');

/** A transcript file's path as a subagent's (`<session>/subagents/agent-*.jsonl`). */
const inSubagents = (path: string): boolean => {
  const parts = path.split('/');
  return parts.length >= 2 && parts[parts.length - 2] === 'subagents';
};

/**
 * The billed calls of Claude Code transcript files read from their bytes, by the rule billedCalls follows
 * (the header), without a built session. `onPath`: the identities a built session shows (absent:
 * none known, every call false until the index has built the session).
 */
export function callsOfFiles(files: readonly { path: string; bytes: Uint8Array }[], where: CallWhere, onPath?: ReadonlySet<string>): { calls: BilledCall[]; problems: { file: string; line: number; reason: string }[] } {
  const copies: Copy[] = [];
  const problems: { file: string; line: number; reason: string }[] = [];
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const f of files) {
    const sub = inSubagents(f.path);
    for (const b of billedLines(f.bytes, decoder)) {
      const c = b.call;
      const id = callIdentity(c.messageId, c.requestId, f.path, b.line);
      copies.push(copyOf(id, f.path, b.line, c.ms, c.model, c.usage, onPath?.has(id) ?? false, sub || c.sidechain));
      if (b.problem) problems.push({ file: f.path, line: b.line, reason: b.problem });
    }
  }
  return { calls: merged(copies, where, ''), problems };
}

/** Whether a session's calls can be read from its files' text: a Claude Code session of
 *  transcripts (no JSON document that only its adapter's build reads). */
export function textHoldsCalls(paths: readonly string[], harness: HarnessId | undefined): boolean {
  return harness === 'claude-code' && !paths.some((p) => p.endsWith('.json') && !p.endsWith('.meta.json'));
}

/** Whether callsOfBytes reads these files' calls: textHoldsCalls, and every transcript read. */
export function callsFromText(files: readonly { path: string; bytes?: Uint8Array }[], where: CallWhere): boolean {
  return textHoldsCalls(files.map((f) => f.path), where.harness) && !files.some((f) => f.path.endsWith('.jsonl') && !f.bytes);
}

/** A Claude Code session's calls from its files' bytes by callsOfFiles, or null where only its
 *  adapter's build knows them (another harness, a Claude Code on the web export). */
export function callsOfBytes(files: readonly { path: string; bytes?: Uint8Array }[], where: CallWhere, onPath?: ReadonlySet<string>): ReturnType<typeof callsOfFiles> | null {
  if (!callsFromText(files, where)) return null;
  return callsOfFiles(files.flatMap((f) => (f.path.endsWith('.jsonl') && f.bytes ? [{ path: f.path, bytes: f.bytes }] : [])), where, onPath);
}

/** A billed call as one copy again (its file's own merge kept it): so calls merged file by file
 *  merge once more into exactly what merging every copy at once gives (the best copy of an
 *  identity is the best of its file too; the flags are unions either way). */
function copyOfCall(c: BilledCall): Copy {
  const tokens: Tokens = { input: c.input, output: c.output, cacheRead: c.cacheRead, cacheWrite: c.cacheWrite5m + c.cacheWrite1h, cacheWrite5m: c.cacheWrite5m, cacheWrite1h: c.cacheWrite1h, webSearches: c.webSearches };
  return { id: c.id, file: c.file ?? '', line: c.line ?? 0, ms: c.ms, model: c.model, serviceTier: c.serviceTier, tokens, total: totalOf(tokens), onPath: c.onPath, subagent: c.subagent };
}

/** A session's calls from its files' calls, each read on its own (callsOfFiles of one file, as a
 *  big drop's scan reads them: view/history/file-pass.ts), in the session's file order: the same
 *  as callsOfFiles of all its files at once (calls-equivalence.test.ts). */
export function mergeFileCalls(perFile: readonly { calls: readonly BilledCall[]; problems: readonly { file: string; line: number; reason: string }[] }[], where: CallWhere): { calls: BilledCall[]; problems: { file: string; line: number; reason: string }[] } {
  return { calls: merged(perFile.flatMap((f) => f.calls.map(copyOfCall)), where, ''), problems: perFile.flatMap((f) => f.problems) };
}

/** The identities of the calls a built session shows on its paths (main, subagents, sidechains). */
export function onPathIds(loaded: CallSource): Set<string> {
  const copies: Copy[] = [];
  const byStem = stems(loaded);
  collect(loaded.result, (a) => (a.fsid ? (byStem.get(a.fsid) ?? `${a.fsid}.jsonl`) : ''), false, copies);
  for (const child of Object.values(loaded.children)) collect(child.result, () => fileOnDisk(child.file), true, copies);
  for (const u of loaded.unattached) collect(u.result, () => fileOnDisk(u.file), true, copies);
  return new Set(copies.filter((c) => c.onPath).map((c) => c.id));
}

/** One call per identity (the header's rule), in time order. */
function merged(copies: Copy[], where: CallWhere, rompUuid: string): BilledCall[] {
  const best = new Map<string, Copy>();
  const onPath = new Set<string>();
  const subagent = new Set<string>();
  for (const c of copies) {
    if (c.onPath) onPath.add(c.id);
    if (c.subagent) subagent.add(c.id);
    const kept = best.get(c.id);
    if (!kept || c.total > kept.total || (c.total === kept.total && pathBefore(c, kept))) best.set(c.id, c);
  }

  const claude = where.harness === 'claude-code';
  const out: BilledCall[] = [];
  for (const c of best.values()) {
    out.push({
      id: c.id,
      ms: c.ms,
      sessionId: claude && c.file ? sessionOfFile(c.file) : rompUuid,
      sessionKey: where.sessionKey,
      project: where.project,
      harness: where.harness,
      model: c.model,
      serviceTier: c.serviceTier,
      input: c.tokens.input,
      output: c.tokens.output,
      cacheRead: c.tokens.cacheRead,
      cacheWrite5m: c.tokens.cacheWrite5m,
      cacheWrite1h: c.tokens.cacheWrite1h,
      webSearches: c.tokens.webSearches,
      onPath: onPath.has(c.id),
      subagent: subagent.has(c.id),
      file: c.file,
      line: c.line
    });
  }
  return out.sort(byTime);
}
