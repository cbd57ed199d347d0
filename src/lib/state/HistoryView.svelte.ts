// The history view's state: the stored history opened from the start page or its own link
// (`#history…`, filters in the link), without the files. The worker reads the stored index back
// (historyOpenStored) when no tree is dropped; the rows are the digests (view/history/browse.ts
// sorts and filters them here). Opening a session goes, in order: already loaded → select it;
// cached → from the session cache; a kept folder (Chromium) → "Reopen <folder>" reads that one
// session's files (history-folder.ts); else one sentence names the folder to drop, and the next
// drop lands on the session. Also the start page's summary, "gone" when the browser evicted the
// store, and the persistent-storage request when the index is first built (history-keep.ts).
import { historyHash, NO_HISTORY_FILTERS, parseHistoryHash, type HistoryFilters, type HistoryRow, type HistorySummary } from '../view/history/browse.ts';

/** The table's sort, filter and sums load with the rows: the boot carries only the link's rules. */
const table = () => import('../view/history/history-table.ts');
type Table = Awaited<ReturnType<typeof table>>;
import { engineClient } from './engine-client.ts';
import type { DirHandle } from './drop.ts';
import type { Viewer } from './Viewer.svelte.ts';

/** The kept folder's code loads when a session or a folder asks for it, not with the start page. */
const folders = () => import('./history-folder.ts');
/** The persistent-storage note likewise: read when the summary is, asked for when an index is built. */
const keep = () => import('./history-keep.ts');

/** A session asked for whose files are not at hand: the kept folder's name, or null (a drop). */
export interface Waiting {
  key: string;
  project: string;
  root: string;
  folder: string | null;
}

export class HistoryView {
  open = $state(false);
  filters = $state<HistoryFilters>({ ...NO_HISTORY_FILTERS });
  rows = $state.raw<HistoryRow[]>([]);
  /** Stored sessions an older Loupe wrote (rebuilt on the next drop of their folder). */
  stale = $state(0);
  loading = $state(false);
  /** One line about the last open (a session not at hand, a refused or moved folder). */
  notice = $state<string | null>(null);
  waiting = $state.raw<Waiting | null>(null);
  /** The start page's "Your history" (null: nothing stored). */
  summary = $state.raw<HistorySummary | null>(null);
  /** An index was built here and the store is empty: the browser evicted it. */
  gone = $state(false);
  /** Why persistent storage was asked for (once, when the index is first built). */
  persistLine = $state<string | null>(null);
  #table = $state.raw<Table | null>(null);
  readonly visible = $derived(this.#table ? this.#table.browse(this.rows, this.filters) : []);
  readonly shown = $derived(this.#table ? this.#table.summarize(this.visible) : { sessions: 0, projects: 0, roots: [], costUsd: 0, from: null, to: null });

  #viewer: Viewer;
  #titles = new Map<string, string>();
  /** The load the rows were read beside. */
  #rowsOf: unknown = null;

  constructor(viewer: Viewer) {
    this.#viewer = viewer;
  }

  titleOf = (key: string): string | null => this.#titles.get(key) ?? null;

  /** The start page: what the store keeps, or that it is gone. */
  async refreshSummary(): Promise<void> {
    const { api } = await engineClient();
    const [{ rows, stale }, t] = await Promise.all([api.historyRows(), table()]);
    this.#table = t;
    this.stale = stale;
    this.summary = rows.length ? t.summarize(rows) : null;
    this.gone = !rows.length && (await keep()).builtBefore() > 0;
  }

  /** Opens the view (from the start page, a link, Back); `how` writes the address. */
  async show(filters: HistoryFilters = this.filters, how: 'push' | 'replace' | 'none' = 'push'): Promise<void> {
    this.open = true;
    this.filters = { ...filters };
    this.#write(how);
    this.loading = true;
    try {
      // Rows read while the start page idled stand while nothing is loaded; with a load, they may have grown.
      await this.loadRows(this.#viewer.source !== null);
    } finally {
      this.loading = false;
    }
  }

  /** The dashboard's state (made by the page on first use: its module loads then). */
  dashboard: () => Promise<{ reports: unknown; refresh(): Promise<void> }> = async () => ({ reports: null, refresh: async () => undefined });
  /** The view's own code (loaded by the page). */
  viewCode: () => Promise<unknown> = async () => undefined;

  /** The view (start page, `#history` link, Back): the stored history read back, then its dashboard. */
  async openView(filters?: HistoryFilters, how: 'push' | 'none' = 'push'): Promise<void> {
    const [dashboard] = await Promise.all([this.dashboard(), this.show(filters, how)]);
    // Reports made while the start page idled (preload, nothing loaded since) are drawn as they are.
    if (!dashboard.reports || this.#viewer.source) await dashboard.refresh();
  }

  /** The start page idles over a stored history: its rows, the view's code and the dashboard's
   *  reports made ahead of the click (the view then only draws), then the stored history joins the
   *  engine's index for a first search. */
  async preload(): Promise<void> {
    await this.loadRows();
    const [dashboard] = await Promise.all([this.dashboard(), this.viewCode()]);
    if (!this.open) await dashboard.refresh();
    // Then, behind, what a first history search needs (the sessions' search indexes, the search lanes).
    await this.joinStored();
  }

  /** The rows are read (again when the load changed, or `fresh`). With nothing loaded they come
   *  from the stored history's summary, one read (the worker reads every head without one); with a
   *  load, the stored history joins the load's index first, so the rows hold both. */
  async loadRows(fresh = false): Promise<void> {
    const { api } = await engineClient();
    this.#table ??= await table();
    const source = this.#viewer.source;
    if (source) await api.historyOpenStored();
    if (!fresh && this.rows.length && source === this.#rowsOf) return;
    const { rows, stale } = await api.historyRows();
    this.#rowsOf = source;
    this.rows = rows;
    this.stale = stale;
    this.#titles = new Map(rows.map((r) => [r.key, r.title]));
  }

  /** Before an Everything query: the stored history joins the engine's index (every session's
   *  search index and calls read back: seconds on a big history), and the rows are read if not yet. */
  async joinStored(): Promise<void> {
    const { api } = await engineClient();
    await api.historyOpenStored();
    await this.loadRows();
  }

  /** The address names the view: open it (page load, Back / Forward); false when it does not. */
  follow(hash: string): boolean {
    const f = parseHistoryHash(hash);
    if (f) void this.show(f, 'none');
    else this.open = false;
    return f !== null;
  }

  close(how: 'push' | 'replace' | 'none' = 'push'): void {
    this.open = false;
    if (how === 'none' || !location.hash.startsWith('#history')) return;
    history[how === 'push' ? 'pushState' : 'replaceState'](null, '', location.pathname + location.search);
  }

  setFilters(f: Partial<HistoryFilters>): void {
    this.filters = { ...this.filters, ...f };
    this.#write('replace');
  }

  /** A column header: sorts by it, the second click the other way. */
  sortBy(sort: HistoryFilters['sort']): void {
    const dir = this.filters.sort === sort && this.filters.dir === 'desc' ? 'asc' : 'desc';
    this.setFilters({ sort, dir });
  }

  #write(how: 'push' | 'replace' | 'none'): void {
    if (how === 'none' || typeof location === 'undefined') return;
    const url = location.pathname + location.search + historyHash(this.filters);
    if (url !== location.pathname + location.search + location.hash) history[how === 'push' ? 'pushState' : 'replaceState'](null, '', url);
  }

  /** Opens a session of the history: loaded, cached, the kept folder, or a sentence naming the folder. */
  async openSession(key: string): Promise<void> {
    const v = this.#viewer;
    const row = this.rows.find((r) => r.key === key);
    this.notice = null;
    if (v.sessions.some((s) => s.key === key) || v.list.some((s) => s.key === key)) {
      this.close();
      await v.select(key);
      return;
    }
    if (v.recent.some((r) => r.key === key)) {
      this.close();
      await v.load({ kind: 'cached', key });
      return;
    }
    if (!row) return;
    const dir = await (await folders()).keptFolder();
    const folder = dir && dir.name === row.root ? dir.name : null;
    this.waiting = { key, project: row.project, root: row.root, folder };
    if (!folder) this.notice = `This session’s files are not in this browser: drop the folder “${row.root}” (your ~/.claude/projects, or the tree it came from) on this page to open it.`;
  }

  /** "Reopen <folder>": one permission prompt, then only the waiting session's files are read. */
  async reopen(): Promise<void> {
    const out = await (await folders()).reopenWaiting(this.waiting);
    if (typeof out === 'string') this.notice = out;
    else if (out) {
      this.close();
      await this.#viewer.load({ kind: 'files', files: out });
    }
  }

  /** A folder was dropped or picked: kept for "Reopen" (Chromium gives a handle). */
  noteFolder(folder: Promise<DirHandle | null> | DirHandle | null): void {
    void Promise.all([folder, folders()]).then(([h, f]) => h && f.rememberFolder(h), () => undefined);
    this.open = false;
  }

  /** A load is ready: a session waiting for this drop is opened (its key, or the same id if its files grew). */
  async landWaiting(): Promise<void> {
    const w = this.waiting;
    if (!w) return;
    const v = this.#viewer;
    const { sessionIdOf } = await folders();
    const keys = [...v.list.map((e) => e.key), ...v.sessions.map((s) => s.key)];
    const id = sessionIdOf(w.key);
    const key = keys.find((k) => k === w.key) ?? keys.find((k) => sessionIdOf(k) === id);
    if (!key) return;
    this.waiting = null;
    this.notice = null;
    if (v.currentKey !== key) await v.select(key);
  }

  /** The index is ready: the first time, persistent storage is asked for (with its line). */
  async indexBuilt(sessions: number): Promise<void> {
    if (sessions <= 0) return;
    const { askPersist, builtBefore, noteBuilt } = await keep();
    if (!builtBefore()) this.persistLine = await askPersist();
    noteBuilt(sessions);
  }

  /** Clears one root's sessions (the others stay), or all of them. */
  async clear(root: string | null): Promise<void> {
    const { api } = await engineClient();
    if (root === null) await api.historyClear();
    else await api.historyClearRoot(root);
    this.rows = root === null ? [] : this.rows.filter((r) => r.root !== root);
    if (root !== null && this.filters.root === root) this.setFilters({ root: '' });
    await this.refreshSummary();
    if (!this.summary) (await keep()).noteBuilt(0);
    this.gone = false;
  }
}
