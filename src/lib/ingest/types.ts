// Ingest types: what a dropped file is (classification), the cheap per-file summary used to
// group files into sessions, the grouping plan, and the loaded session handed to the worker.
// The first four names are what the worker and the views rely on; the rest serve grouping.
import type { Issue, ParseResult } from '../model/index.ts';
import type { HarnessId } from '../model/harness/kit.ts';
/** Which agent wrote a file, as data (views render it, never compare it). */
export type { HarnessId };

export type FileKind = 'transcript' | 'subagent' | 'subagent-meta' | 'state-log' | 'postal-log' | 'unknown';

export interface ClassifiedFile {
	/** Relative path as given (webkitRelativePath or the dropped folder path), '/' separated. */
	path: string;
	/** Base name (last path segment). */
	name: string;
	kind: FileKind;
	/** transcript: its own session id; subagent / meta: the parent session id; state log: the sid it is named after. */
	sessionId: string | null;
	agentId?: string;
	/** Why a file is 'unknown' (human readable), or a note on how a known kind was recognised. */
	reason?: string;
	bytes: number;
	/** How the bytes become records: JSON lines (default) or a Claude Code on the web JSON export;
	 *  for another harness, which adapter reads it (ingest/harnesses.ts). */
	format?: 'jsonl' | 'web-json' | 'codex' | 'gemini-jsonl' | 'gemini-json' | 'strap-json' | 'strap-jsonl' | 'pi' | 'cursor' | 'opencode';
	/** The agent that wrote the file, when it is not Claude Code (absent = Claude Code). */
	harness?: HarnessId;
}

export interface ChildTranscript {
	toolUseId: string;
	agentId: string | null;
	agentType: string | null;
	description: string | null;
	/** The child's file path, or `<main path without .jsonl>#sidechain-<n>.jsonl` for inline (1.0.x) sidechains. */
	file: string;
	/** The child parsed with { subagent: true }. */
	result: ParseResult;
}

export interface LoadedSession {
	/** Stable key: main session id (file stem of the leaf) + '-' + content hash (see load-files.ts). */
	key: string;
	title: string;
	startedAt: number | null;
	endedAt: number | null;
	bytes: number;
	files: ClassifiedFile[];
	/** The input blobs of `files`, same order (path = the normalised path), e.g. for the cache. */
	inputs: InputFile[];
	/** Main transcript(s), viewer mode. */
	result: ParseResult;
	/** Keyed by the Task/Agent tool_use id. */
	children: Record<string, ChildTranscript>;
	/** Children that could not be tied to a call; kept so nothing is lost. */
	unattached: UnattachedChild[];
	/** File-level issues (unknown files, binary, empty...) + result.issues. */
	issues: Issue[];
	/** Session-list facts (turn count etc.), see session-meta.ts. */
	meta: SessionMeta;
}

/** Per-file facts gathered from its records; cheap to compute, used for grouping and the session list. */
export interface FileSummary {
	path: string;
	/** Distinct sessionId values seen on lines. */
	sessionIds: string[];
	/** Distinct agentId values seen on lines. */
	agentIds: string[];
	/** agentIds this file's Task / Agent results report (toolUseResult.agentId): the agents it spawned. */
	spawnedAgentIds: string[];
	/** uuids of every record that has one. */
	uuids: Set<string>;
	/** parentUuid values that point outside this file (roots of cross-file links). */
	externalParents: string[];
	/** Records that carry a uuid (conversation lines). */
	contentLines: number;
	/** Content lines with isSidechain: true. */
	sidechainLines: number;
	firstPrompt: string | null;
	customTitle: string | null;
	aiTitle: string | null;
	/** `summary` records: leafUuid → summary text (last wins). */
	summaries: { leafUuid: string | null; summary: string }[];
	firstMs: number | null;
	lastMs: number | null;
	lines: number;
	bytes: number;
}

export interface SubagentPlan {
	file: ClassifiedFile;
	meta: ClassifiedFile | null;
}

export interface SessionPlan {
	/** Main session id: the leaf file's stem. */
	key: string;
	/** Candidate main transcripts, LEAF LAST. */
	mainFiles: ClassifiedFile[];
	/** Ancestors whose every line a later file replays (resume with replay): part of the session,
	 *  but not given to the model (it would only report duplicate uuids). */
	replayed: ClassifiedFile[];
	states: ClassifiedFile | null;
	postal: ClassifiedFile | null;
	subagents: SubagentPlan[];
	/** 'subagent': a subagent transcript dropped without its parent, shown on its own (parsed with { subagent: true }). */
	standalone?: 'subagent';
	/** `<project>/<sid>/subagents/` whose `<sid>.jsonl` is not in the drop: mainFiles is empty, the
	 *  subagents are the session and its main transcript is synthesized (orphans.ts). */
	mainMissing?: { project: string; sid: string };
	/** The .meta.json of a standalone subagent. */
	subagentMeta?: ClassifiedFile | null;
}

export interface GroupResult {
	plans: SessionPlan[];
	/** Files that belong to no session (meta without its transcript, state log without a session...), with a reason. */
	leftover: ClassifiedFile[];
}

export interface UnattachedChild {
	file: string;
	agentId: string | null;
	reason: string;
	result: ParseResult;
}

export interface SessionMeta {
	title: string;
	startedAt: number | null;
	endedAt: number | null;
	bytes: number;
	turns: number;
	atoms: number;
	subagents: number;
	/** Which agent wrote the session ('claude-code' when absent) and its display name. */
	harness?: HarnessId;
	harnessLabel?: string;
	model?: string;
	cwd?: string;
	/** The session is an orphaned subagent folder (orphans.ts): listed under `project`, its main transcript gone. */
	mainMissing?: boolean;
	project?: string;
}

export interface LoadProgress {
	/** The file being read (phase 'read') or the leaf of the session being built (phase 'build'). */
	file: string;
	/** Bytes of this file read so far, of bytesTotal. */
	bytesRead: number;
	bytesTotal: number;
	/** Lines ("\n") of this file seen so far. */
	lines: number;
	/** 'read': streaming files; 'build': parsing sessions (bytes are then the whole session's). */
	phase?: 'read' | 'build';
	/** Bytes read so far over all files of the load, of overallTotal (every file that is read). */
	overallRead?: number;
	overallTotal?: number;
}

export interface LoadOptions {
	onProgress?: (p: LoadProgress) => void;
	/** Called as each session is built (build order, before the final newest-first sort). */
	onSession?: (s: LoadedSession) => void;
	signal?: AbortSignal;
	/** Largest piece fed to the reader between progress reports / abort checks; default 4 MiB. */
	chunkBytes?: number;
}

export interface LoadOutput {
	sessions: LoadedSession[];
	unknown: ClassifiedFile[];
	issues: Issue[];
}

export interface InputFile {
	path: string;
	blob: Blob;
	/** The file's bytes, when the caller has read them already (a search lane reads a session's
	 *  files while it builds the one before); the blob is then not read again. */
	bytes?: Uint8Array;
}

/** What the head of a file says (ingest/classify.ts sniffs it; harnesses.ts and scan-harness.ts read it). */
export interface HeadSniff {
	/** Decoded head text (BOM stripped), or null when the bytes are not text. */
	text: string | null;
	binaryReason: string | null;
	/** Whether the head is the whole file. */
	complete: boolean;
	/** Parsed JSON values of complete non-blank, non-comment lines (at most SNIFF_LINES). */
	values: unknown[];
	/** Lines that did not parse as JSON. */
	badLines: number;
	/** The first complete line did not parse (or there is no complete line). */
	firstLineBad: boolean;
}
