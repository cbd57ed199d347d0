// Public surface of the chat-zoom view: pure functions the worker calls, and the row types.
// (The Markdown stage, ./markdown, is imported directly by the components: it pulls in
// highlight.js, which the worker does not need.)
export * from './types';
export { buildChatRows, rowIndexOf, estimateHeight, turnUsage, atomRowMap, findRowIndex, locateAtom } from './rows';
export type { ChildLike, ChatRowOptions } from './rows';
export { buildItems, type Item, type ItemType } from './items';
export { groupItems, summarize, formatDuration, workedMs, TOOL_TYPES, HELD_TYPES } from './grouping';
export { diffsForCall, computeHunks, hunksFromPatch, statLabel } from './diff';
export { classifyTool, splitMcp, bashVerb } from './tools';
export { computeOffsets, rowAt, windowRange, anchorAt, scrollForAnchor, turnJump } from './virtual';
