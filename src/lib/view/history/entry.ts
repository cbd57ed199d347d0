// One listed session's history entry from its built session: the digest (digest.ts), the billed
// calls (calls.ts: rewound branches and subagents included) and the session's search index
// (entryAndFields, then withSearch: view/search/history-index.ts). Every lane builds entries through here, so
// a worker lane and the engine's own thread keep the same thing.
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls } from './calls.ts';
import { digestOf, type DigestListing } from './digest.ts';
import type { BilledCall, HistoryEntry } from './types.ts';
import { buildSearchIndex, SEARCH_INDEX_VERSION } from '../search/history-index.ts';
import { fieldsOfLoaded } from '../search/lane.ts';
import type { SearchField } from '../search/fields.ts';

/** The version of what an entry holds beyond the digest and calls (store/history-index.ts keys
 *  entries by it): its search index's format. A new one makes every stored session read again,
 *  instead of keeping entries whose search index this version cannot read. */
export const HISTORY_ENTRY_FORMAT = `search-${SEARCH_INDEX_VERSION}`;

/** `calls`: the session's billed calls when the caller read them already (lane.ts: from its
 *  files' text, by the same rule); else from the built session. */
export function entryOf(loaded: LoadedSession, listed: DigestListing, calls?: BilledCall[]): HistoryEntry {
  calls ??= billedCalls(loaded, { sessionKey: listed.key, project: listed.project, harness: listed.harness });
  return { key: listed.key, digest: digestOf(loaded, listed), calls };
}

/** The entry and the session's search fields (what the session search uses), taken from the built
 *  session at once: the caller lets the build go before the fields are compressed (withSearch),
 *  so a big session's model is not held through its compression. */
export function entryAndFields(loaded: LoadedSession, listed: DigestListing, calls?: BilledCall[]): { entry: HistoryEntry; fields: SearchField[] } {
  return { entry: entryOf(loaded, listed, calls), fields: fieldsOfLoaded(loaded) };
}

/** The entry with the session's search index (view/search/history-index.ts, from its fields):
 *  stored with it and counted in the index's bytes. */
export function withSearch(entry: HistoryEntry, fields: readonly SearchField[]): HistoryEntry {
  entry.search = buildSearchIndex(fields);
  return entry;
}
