// The session list once the history index has read a session: its exact turns, times and cost
// replace the scan's estimates (no '~'), and the projects level sums them. Pure.
import type { ListEntry } from '../sessions/list.ts';
import type { SessionDigest } from './types.ts';

export type ListDigest = Pick<SessionDigest, 'key' | 'turns' | 'costUsd' | 'startedAt' | 'endedAt'>;

/** What an earlier call made of each entry: handed back, an entry and digest that did not change
 *  give the same object again (a keyed list then redraws only the rows that changed). */
export type DigestCache = WeakMap<ListEntry, { digest: ListDigest; out: ListEntry }>;

/** The entries with what the index knows of each (the same objects where it knows nothing). */
export function withDigests(entries: readonly ListEntry[], digests: ReadonlyMap<string, ListDigest>, cache?: DigestCache): ListEntry[] {
  if (!digests.size) return entries as ListEntry[];
  return entries.map((e) => {
    const d = digests.get(e.key);
    if (!d) return e;
    const known = cache?.get(e);
    if (known?.digest === d) return known.out;
    const out = { ...e, turns: d.turns, turnsExact: true, costUsd: d.costUsd, startedAt: d.startedAt ?? e.startedAt, endedAt: d.endedAt ?? e.endedAt };
    cache?.set(e, { digest: d, out });
    return out;
  });
}
