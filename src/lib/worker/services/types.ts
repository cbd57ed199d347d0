// The contracts between the worker's services (engine.ts wires them): the built-session Entry
// and the narrow interfaces one service hands another. A service never imports another service
// or the engine: the root hands it one of these (or a Pick of a service class, a type import
// only). Plus the one helper they all share.
import type { LoadedSession } from '../../ingest/types.ts';
import type { ScannedSession } from '../../ingest/scan.ts';
import type { ChatRow } from '../../view/chat/index.ts';
import type { SessionUsage } from '../../view/usage/index.ts';
import type { FoldedTexts, SearchField } from '../../view/search/index.ts';
import type { LiveActivity } from '../../view/chat/live.ts';
import type { InputFile } from '../protocol.ts';

/** A built session: its model, its chat rows once asked for, what was derived from it. */
export interface Entry {
  loaded: LoadedSession;
  rows: ChatRow[] | null;
  usage?: SessionUsage;
  /** A followed session: its open turn settles while it is quiet (view/chat/live.ts). */
  live?: { quiet: boolean; activity: LiveActivity | null };
}

/** A session's searchable text (built from its rows, or parsed from its files for search only). */
export type SearchData = { fields: SearchField[]; folded: FoldedTexts };

/** What changed in the catalog: `load` a new load began (the older one is aborted);
 *  `listing` what was listed (and every session built from it) is gone: a new listing, a full
 *  load, a restore or following replaced it. */
export type CatalogChange = 'load' | 'listing';

/** The catalog as other services see it (catalog.ts): the current load and its listing. */
export interface Listing {
  /** The current load's generation: a build or parse started under an older one is dropped. */
  readonly generation: number;
  /** A listed session (scan mode), undefined when not listed. */
  listed(key: string): ScannedSession | undefined;
  /** Every listed session, newest first (empty after a full load). */
  sessions(): ScannedSession[];
  /** A listed session's files, as File handles. */
  listedFiles(listed: ScannedSession): InputFile[];
  /** Parses a listed session from its handles, keeping nothing (null: unreadable). */
  parse(listed: ScannedSession): Promise<LoadedSession | null>;
  /** Called synchronously on every change, in subscription order. */
  onChange(fn: (change: CatalogChange) => void): void;
}

/** The built sessions as other services see them (sessions.ts). */
export interface SessionSource {
  /** THE way to a built session (builds a listed one, awaits a restored one's rebuild). */
  built(key: string): Promise<Entry | null>;
  /** A session's chat rows (a restored session's persisted rows before its model is back). */
  rows(key: string): Promise<ChatRow[] | null>;
  /** A built session's searchable text, from its rows (built once, kept). */
  searchFields(key: string): Promise<SearchData | null>;
  /** Built, being rebuilt, or kept by a full load: its text is ready (or about to be). */
  isBuilt(key: string): boolean;
  /** Every session the last load listed: all of a full load, or the scan's listing. */
  knownKeys(): string[];
  /** Keys of the sessions built now (full load: all; scan mode: the LRU, oldest first). */
  builtKeys(): string[];
  /** Keys of a full load's (or followed) sessions, in their order. */
  loadedKeys(): string[];
}

/** Lets queued messages (a newer query) run; a MessageChannel hop is not clamped like setTimeout. */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}
