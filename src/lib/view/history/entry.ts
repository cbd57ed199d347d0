// One listed session's history entry from its built session: the digest (digest.ts), the billed
// calls (calls.ts: rewound branches and subagents included) and the session's search index (the
// history search work plugs its builder in at SEARCH_INDEX). Every lane builds entries through here, so
// a worker lane and the engine's own thread keep the same thing.
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls } from './calls.ts';
import { digestOf, type DigestListing } from './digest.ts';
import type { HistoryEntry } from './types.ts';

/** The per-session search index builder (view/search/, the history search work). Null until it lands;
 *  whatever it returns is stored with the entry and counted in the index's bytes. */
const SEARCH_INDEX: ((loaded: LoadedSession) => unknown) | null = null;

export function entryOf(loaded: LoadedSession, listed: DigestListing): HistoryEntry {
  const calls = billedCalls(loaded, { sessionKey: listed.key, project: listed.project, harness: listed.harness });
  const entry: HistoryEntry = { key: listed.key, digest: digestOf(loaded, listed), calls };
  if (SEARCH_INDEX) entry.search = SEARCH_INDEX(loaded);
  return entry;
}
