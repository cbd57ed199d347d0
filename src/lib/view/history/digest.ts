// A session's digest: what the history index keeps of one built session (view/history/types.ts
// SessionDigest), computed from the built session the way the session's own panels count it, so
// the list's turns and cost after indexing are the figures opening the session shows. Pure.
// Tool calls, failures and compactions come from the usage accounting (view/usage/accounting.ts:
// one walk for the tools and the cost, subagents included); files touched are the edit and write
// calls' paths (the tool normalizer view/chat/tools.ts says which calls edit).
import type { ListedRef } from '../../ingest/listed.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import type { Atom } from '../../model/index.ts';
import { classifyTool } from '../chat/tools.ts';
import { sessionUsage } from '../usage/accounting.ts';
import type { SessionDigest, ToolTally } from './types.ts';

/** What the digest needs of the listing: the key, folder and harness the list shows, the bytes of every file. */
export type DigestListing = Pick<ListedRef, 'key' | 'project' | 'harness'> & { bytes?: number };

export function digestOf(loaded: LoadedSession, listed: DigestListing): SessionDigest {
  const session = loaded.result.session;
  const usage = sessionUsage(loaded, { maxPoints: 1, top: 0 });
  const tools: Record<string, ToolTally> = {};
  for (const t of usage.tools) tools[t.name] = { calls: t.calls, failures: t.errors };
  const touched = new Set<string>();
  let prompts = 0;
  const walk = (atoms: Atom[], main: boolean) => {
    for (const a of atoms) {
      if (main && a.type === 'user' && a.author === 'human') prompts++;
      const content = a.message?.content;
      if (a.type !== 'assistant' || !Array.isArray(content)) continue;
      for (const b of content) {
        if (!b || b.type !== 'tool_use' || typeof b.name !== 'string' || classifyTool(b.name).verb !== 'edit') continue;
        const input = b.input as Record<string, unknown> | null;
        const path = input && typeof input === 'object' ? (input.file_path ?? input.notebook_path) : null;
        if (typeof path === 'string' && path) touched.add(path);
      }
    }
  };
  for (const turn of session.turns) walk(turn.atoms, true);
  const children = [...Object.values(loaded.children), ...loaded.unattached];
  for (const c of children) for (const turn of c.result.session.turns) walk(turn.atoms, false);
  return {
    key: listed.key,
    title: loaded.title,
    project: listed.project,
    harness: listed.harness,
    startedAt: loaded.startedAt,
    endedAt: loaded.endedAt,
    bytes: listed.bytes ?? loaded.bytes,
    turns: session.turns.length,
    prompts,
    tools,
    filesTouched: [...touched],
    compactions: usage.compactions.length,
    subagents: children.length,
    costUsd: usage.total.costUsd,
    unpricedMessages: usage.total.unpricedMessages
  };
}
