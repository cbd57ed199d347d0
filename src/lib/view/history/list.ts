// The session list once the history index has read a session: its exact turns, times and cost
// replace the scan's estimates (no '~'), and the projects level sums them. Pure.
import type { ListEntry } from '../sessions/list.ts';
import type { SessionDigest } from './types.ts';

export type ListDigest = Pick<SessionDigest, 'key' | 'turns' | 'costUsd' | 'startedAt' | 'endedAt'>;

/** The entries with what the index knows of each (the same objects where it knows nothing). */
export function withDigests(entries: readonly ListEntry[], digests: ReadonlyMap<string, ListDigest>): ListEntry[] {
  if (!digests.size) return entries as ListEntry[];
  return entries.map((e) => {
    const d = digests.get(e.key);
    if (!d) return e;
    return { ...e, turns: d.turns, turnsExact: true, costUsd: d.costUsd, startedAt: d.startedAt ?? e.startedAt, endedAt: d.endedAt ?? e.endedAt };
  });
}
