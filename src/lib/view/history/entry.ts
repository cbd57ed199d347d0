// One listed session's history entry from its built session: the digest (digest.ts), the billed
// calls (calls.ts, once it lands; empty until then) and the session's search index (the history
// search work plugs its builder in at SEARCH_INDEX). Every lane builds entries through here, so
// a worker lane and the engine's own thread keep the same thing.
import type { LoadedSession } from '../../ingest/types.ts';
import { digestOf, type DigestListing } from './digest.ts';
import type { BilledCall, HistoryEntry } from './types.ts';

/** The billed calls of a built session (view/history/calls.ts billedCalls). Null until it lands. */
const BILLED_CALLS: ((loaded: LoadedSession, listed: DigestListing) => BilledCall[]) | null = null;

/** The per-session search index builder (view/search/, the history search work). Null until it lands;
 *  whatever it returns is stored with the entry and counted in the index's bytes. */
const SEARCH_INDEX: ((loaded: LoadedSession) => unknown) | null = null;

export function entryOf(loaded: LoadedSession, listed: DigestListing): HistoryEntry {
  const entry: HistoryEntry = { key: listed.key, digest: digestOf(loaded, listed), calls: BILLED_CALLS ? BILLED_CALLS(loaded, listed) : [] };
  if (SEARCH_INDEX) entry.search = SEARCH_INDEX(loaded);
  return entry;
}
