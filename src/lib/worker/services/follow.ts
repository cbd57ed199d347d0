// Following a folder (ingest/live.ts): the loaded sessions give way to the followed ones as
// their appended bytes arrive. A changed session's chat rows are rebuilt from its first changed
// turn on (view/chat/live.ts) and the page is told how many leading rows it keeps; a quiet
// session's open turn settles. Starting aborts the load in flight and drops the catalog's
// listing; the followed sessions are the sessions service's loaded ones.
import { LiveProject } from '../../ingest/live.ts';
import { buildChatRows, type ChatRow } from '../../view/chat/index.ts';
import { firstChangedTurn, liveActivity, markLiveThought, rebuildTail } from '../../view/chat/live.ts';
import type { FollowChange, FollowOutcome, LiveState } from '../protocol.ts';
import type { Catalog } from './catalog.ts';
import type { Sessions } from './sessions.ts';
import { entryOfSummary, summarize } from './summaries.ts';
import type { Entry } from './types.ts';

export class Follow {
  #catalog: Pick<Catalog, 'abortLoad' | 'clearListing'>;
  #sessions: Pick<Sessions, 'loadedEntries' | 'setLoaded'>;
  #live: LiveProject | null = null;
  #liveGeneration = 0;

  constructor(catalog: Pick<Catalog, 'abortLoad' | 'clearListing'>, sessions: Pick<Sessions, 'loadedEntries' | 'setLoaded'>) {
    this.#catalog = catalog;
    this.#sessions = sessions;
  }

  /** Starts following: the loaded sessions give way to the followed ones as their bytes arrive. */
  followStart(generation: number): void {
    this.#catalog.abortLoad();
    this.#live = new LiveProject();
    this.#liveGeneration = generation;
    this.#catalog.clearListing();
    this.#sessions.setLoaded(new Map());
  }

  followStop(): void {
    this.#live = null;
    for (const e of this.#sessions.loadedEntries().values()) delete e.live;
  }

  /** Appended bytes of followed files → the sessions they changed. */
  followAppend(generation: number, changes: FollowChange[]): FollowOutcome | null {
    const live = this.#live;
    if (!live || generation !== this.#liveGeneration) return null;
    const up = live.apply(changes, Date.now());
    const changed: FollowOutcome['changed'] = [];
    const loadedMap = this.#sessions.loadedEntries();
    for (const key of up.changed) {
      const loaded = live.session(key);
      if (!loaded) continue;
      const old = loadedMap.get(key);
      const entry: Entry = { loaded, rows: null, live: { quiet: old?.live?.quiet ?? false, activity: null } };
      loadedMap.set(key, entry);
      // Rows the page has seen are rebuilt from the first changed turn on; the page keeps the rest.
      let keep = 0;
      if (old?.rows && !up.fresh.includes(key)) {
        const fromTurn = firstChangedTurn(old.rows, old.loaded.result.session.turns.length, up.grownChildren[key] ?? [], up.firstChangedTurn[key]);
        if (fromTurn < loaded.result.session.turns.length) keep = retail(entry, old.rows, fromTurn);
      }
      changed.push({ key, keepRows: keep });
    }
    for (const key of up.removed) loadedMap.delete(key);
    const sessions = live.sessions();
    // Keep the loaded map in the live order (newest first) for timeline([]).
    this.#sessions.setLoaded(new Map(sessions.flatMap((s) => { const e = loadedMap.get(s.key); return e ? [[s.key, e] as const] : []; })));
    let active: string | null = null;
    let at = -Infinity;
    for (const s of sessions) {
      const t = live.info(s.key)?.lastWriteMs ?? -Infinity;
      if (t > at) [active, at] = [s.key, t];
    }
    const summaries = sessions.map(summarize);
    return { generation, sessions: summaries, list: summaries.map(entryOfSummary), changed, removed: up.removed, unknown: live.unknown(), active };
  }

  /** What a followed session is doing now; `quiet` (from the page's clock; null: unchanged) settles its open turn. */
  liveState(key: string, quiet: boolean | null): LiveState | null {
    const entry = this.#sessions.loadedEntries().get(key);
    const info = this.#live?.info(key);
    if (!entry?.live || !info) return null;
    let rebuilt = false;
    if (quiet !== null && entry.live.quiet !== quiet) {
      entry.live.quiet = quiet;
      // Quiet settles only the open (last) turn.
      const last = entry.loaded.result.session.turns.length - 1;
      if (entry.rows && last >= 0) retail(entry, entry.rows, last);
      else entry.rows = null;
      rebuilt = true;
    }
    // Read with the turn open whatever quiet says (so the page sees it resume), once per change.
    entry.live.activity ??= liveActivity(
      entry.loaded.result.session,
      entry.rows && !entry.live.quiet ? entry.rows : buildChatRows(entry.loaded.result.session, entry.loaded.children, { metadata: entry.loaded.result.metadata })
    );
    return { ...info, activity: entry.live.activity, rebuilt };
  }
}

/** Rebuilds a live entry's rows from `fromTurn` on (view/chat/live.ts); returns the rows kept. */
function retail(entry: Entry, before: ChatRow[], fromTurn: number): number {
  const { session, metadata } = entry.loaded.result;
  const { rows, keep } = rebuildTail(before, session, entry.loaded.children, { metadata, sessionOver: entry.live?.quiet ?? false }, fromTurn);
  entry.rows = markLiveThought(session, rows);
  return keep;
}
