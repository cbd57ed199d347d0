// Pure bookkeeping for the session cache: how many bytes the cached sessions occupy once identical
// files are counted once, and which least-recently-opened sessions to drop to fit a budget.
// Kept free of IndexedDB so the policy is tested as data.

/** The part of a cached session's metadata the eviction policy looks at. */
export interface EvictionEntry {
  key: string;
  lastOpenedAt: number;
  files: { hash: string; bytes: number }[];
}

/** Bytes of the distinct blobs the given sessions reference (a blob shared by two sessions counts once). */
export function distinctBytes(entries: readonly EvictionEntry[]): number {
  const seen = new Map<string, number>();
  for (const e of entries) for (const f of e.files) seen.set(f.hash, f.bytes);
  let total = 0;
  for (const bytes of seen.values()) total += bytes;
  return total;
}

/**
 * Keys of the sessions to evict, least recently opened first, so that the sessions left plus
 * `incoming` fit in `budgetBytes`. `keep` (the session being written or opened) is never evicted.
 * Returns the shortest such prefix of the LRU order; if even evicting every other session
 * cannot make room, returns all of them and the caller decides whether the write still fits.
 */
export function planEviction(
  entries: readonly EvictionEntry[],
  incoming: EvictionEntry | null,
  budgetBytes: number,
  keep: string | null = incoming?.key ?? null
): string[] {
  const others = entries.filter((e) => e.key !== keep && e.key !== incoming?.key);
  const kept = entries.filter((e) => e.key === keep && e.key !== incoming?.key);
  const fixed = incoming ? [...kept, incoming] : kept;
  // Oldest first; ties broken by key so the order is deterministic.
  const lru = [...others].sort((a, b) => a.lastOpenedAt - b.lastOpenedAt || (a.key < b.key ? -1 : 1));
  const evicted: string[] = [];
  let remaining = lru;
  while (remaining.length > 0 && distinctBytes([...fixed, ...remaining]) > budgetBytes) {
    evicted.push(remaining[0].key);
    remaining = remaining.slice(1);
  }
  return evicted;
}
