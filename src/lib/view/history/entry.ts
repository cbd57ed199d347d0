// One listed session's history entry from its built session: the digest (digest.ts), the billed
// calls (calls.ts: rewound branches and subagents included) and the session's search index
// (entryWithSearch: view/search/history-index.ts). Every lane builds entries through here, so
// a worker lane and the engine's own thread keep the same thing.
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls } from './calls.ts';
import { digestOf, type DigestListing } from './digest.ts';
import type { HistoryEntry } from './types.ts';
import { buildSearchIndex } from '../search/history-index.ts';
import { fieldsOfLoaded } from '../search/lane.ts';

export function entryOf(loaded: LoadedSession, listed: DigestListing): HistoryEntry {
  const calls = billedCalls(loaded, { sessionKey: listed.key, project: listed.project, harness: listed.harness });
  return { key: listed.key, digest: digestOf(loaded, listed), calls };
}

/** The entry with the session's search index (view/search/history-index.ts, from the fields the
 *  session search uses): stored with it and counted in the index's bytes. Asynchronous (the
 *  fields are compressed), so the lanes build entries through this. */
export async function entryWithSearch(loaded: LoadedSession, listed: DigestListing): Promise<HistoryEntry> {
  const entry = entryOf(loaded, listed);
  entry.search = await buildSearchIndex(fieldsOfLoaded(loaded));
  return entry;
}
