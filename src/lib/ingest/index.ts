// Public surface of the ingest layer: classify dropped files, group them into
// sessions, stream them into the model, attach subagents, and describe sessions for the list.
export type * from './types.ts';
export { classifyFile, sniffHead, HEAD_BYTES } from './classify.ts';
export { normPath } from './paths.ts';
export { groupSessions } from './group.ts';
export { summarize } from './summary.ts';
export { attachSubagents, agentCallsOf, atomsOf, valuesOf, firstPromptOf, AGENT_TOOLS } from './attach-subagents.ts';
export type { ChildInput, AgentCall, AttachResult } from './attach-subagents.ts';
export { splitInlineSidechains } from './sidechains.ts';
export { sessionMeta, titleOf, sortNewestFirst, TITLE_MAX } from './session-meta.ts';
export { loadSessions, loadText, readFileRecords, readHead, contentHash, WEB_JSON_MAX } from './load-files.ts';
export { webJsonRecords } from './web-json.ts';
export { LiveSession } from './live-session.ts';
export type { LiveBuild, LiveRole } from './live-session.ts';
