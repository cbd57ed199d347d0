// Search: the query compiler (query.ts), the searchable fields of a session's chat rows
// (fields.ts), the sliced scan with snippets (scan.ts) and the progressive multi-session run
// (run.ts), the text kept for cached sessions that are not loaded (cache.ts), history search's
// per-session index (history-index.ts) and its query side (history-query.ts). Pure TypeScript;
// the worker wires it to its sessions.
export * from './query.ts';
export * from './fields.ts';
export * from './scan.ts';
export * from './run.ts';
export * from './cache.ts';
export * from './history-index.ts';
export * from './history-query.ts';
