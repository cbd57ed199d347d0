// The parse worker: a thin comlink shell over the engine (ingest + model + view), handed the
// persisted row index (store/row-index.ts). Nothing else lives here, so the same engine runs on the main thread when a worker cannot start.
import * as Comlink from 'comlink';
import { Engine } from './engine.ts';
import { openRowIndex } from '../store/row-index.ts';
import { HISTORY_ENTRY_FORMAT } from '../view/history/entry.ts';
import { openHistoryStore } from '../store/history-index.ts';
import { historyUsage } from './services/history-usage.ts';
import type { UsageQuery } from '../view/history/types.ts';
import { loadLink } from './links.ts';
import { useLanePorts } from './search-pool.ts';
import { remoteCancel, remoteList, remoteLoad, remoteStats } from './remote/load.ts';

// The worker reads and writes the persisted row index itself, so a session's rows never cross the page.
const engine = new Engine({ rowIndex: () => openRowIndex(), historyStore: () => openHistoryStore({ format: HISTORY_ENTRY_FORMAT }) });

const api = {
  load: engine.load.bind(engine),
  // A linked sample or share link, read and loaded here before the page has mounted (links.ts).
  loadLink: (generation: number, link: Parameters<typeof loadLink>[2]) => loadLink(engine, generation, link),
  // A remote tree (remote/load.ts): listed here, its files read here as the engine asks.
  remoteList: (generation: number, src: string, onCount?: (files: number) => void) => remoteList(generation, src, onCount),
  remoteLoad: (generation: number, onProgress?: Parameters<typeof remoteLoad>[2], onList?: Parameters<typeof remoteLoad>[3]) => remoteLoad(engine, generation, onProgress, onList),
  remoteCancel,
  remoteStats,
  stage: engine.stage.bind(engine),
  chatIndex: engine.chatIndex.bind(engine),
  chatRows: engine.chatRows.bind(engine),
  findAtomRow: engine.findAtomRow.bind(engine),
  timeline: engine.timeline.bind(engine),
  issues: engine.issues.bind(engine),
  usage: engine.usage.bind(engine),
  projectUsage: engine.projectUsage.bind(engine),
  search: engine.search.bind(engine),
  cancelSearch: engine.cancelSearch.bind(engine),
  prepareSearch: engine.prepareSearch.bind(engine),
  searchCached: engine.searchCached.bind(engine),
  historySearchStatus: () => engine.historySearch.status(),
  scanSecrets: engine.scanSecrets.bind(engine),
  exportText: engine.exportText.bind(engine),
  exportBlob: engine.exportBlob.bind(engine),
  shareFiles: engine.shareFiles.bind(engine),
  followStart: engine.followStart.bind(engine),
  followAppend: engine.followAppend.bind(engine),
  followStop: engine.followStop.bind(engine),
  liveState: engine.liveState.bind(engine),
  open: engine.open.bind(engine),
  prefetch: engine.prefetch.bind(engine),
  builtKeys: engine.builtKeys.bind(engine),
  scanStats: engine.scanStats.bind(engine),
  scanRecords: engine.scanRecords.bind(engine),
  loadPersisted: engine.loadPersisted.bind(engine),
  persistIndex: engine.persistIndex.bind(engine),
  pruneIndexes: engine.pruneIndexes.bind(engine),
  // The history index (services/history.ts), straight from its service.
  historyStart: () => engine.startHistory(),
  historyStatus: () => engine.history.status(),
  historyDigests: (from: number) => engine.history.digests(from),
  historyFailures: () => engine.history.failures(),
  historyCalls: (from: number, to: number) => engine.history.calls(from, to),
  historyUsage: (query: UsageQuery) => historyUsage(engine.history, query),
  historyCancel: () => engine.history.cancel(),
  historyClear: () => engine.history.clear(),
  historyStored: () => engine.history.stored(),
  // The stored history without its files (services/history-stored.ts): the history view's.
  historyOpenStored: () => engine.openStoredHistory(),
  historyRows: () => engine.history.kept.rows(),
  historyClearRoot: (root: string) => engine.history.kept.clearRoot(root),
  // The page starts the search and history lanes' workers for the engine (lane-worker.ts).
  useLanePorts: (source: () => Promise<MessagePort>) => useLanePorts(source)
};

export type ParseWorkerApi = typeof api;

Comlink.expose(api);
