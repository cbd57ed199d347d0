// Types the components need from layers they may not import directly (store, worker), re-exported
// by the state layer that owns those dependencies.
export type { CachedMeta } from '../store/session-cache.ts';
export type { LoadProgress, SessionSummary } from '../worker/protocol.ts';
export type { ListEntry, ProjectEntry, SortKey } from '../view/sessions/list.ts';
