// Public surface of the chat-zoom view: pure functions the worker calls, and the row types.
export * from './types';
export { buildChatRows, rowIndexOf, estimateHeight, turnUsage, atomRowMap, findRowIndex } from './rows';
export type { ChildLike, ChatRowOptions } from './rows';
export { buildItems, type Item, type ItemType } from './items';
export { groupItems, summarize, formatDuration, workedMs, TOOL_TYPES, HELD_TYPES } from './grouping';
export { diffsForCall, computeHunks, hunksFromPatch, statLabel } from './diff';
export { classifyTool, splitMcp, bashVerb } from './tools';
export { markdownToHtml, SAFE_URI_RE } from './markdown';
