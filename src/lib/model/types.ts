// Model types: the Session → Turn → Atom tree of the romp event model (seed romp-event-model.md,
// as the reference code actually emits it), plus the parse-level records (issues, accounting,
// off-path and metadata lines) that Loupe adds so nothing in an input is ever lost silently.
// Field names follow the streaming API / the reference output, so romp-mode output can be
// compared field for field with the conformance pack.

export type Compat = 'romp' | 'viewer';

export type IssueKind =
	| 'invalid-json'
	| 'not-object'
	| 'missing-uuid'
	| 'missing-timestamp'
	| 'bad-timestamp'
	| 'duplicate-uuid'
	| 'parent-cycle'
	| 'truncated-line'
	| 'bad-state-row'
	| 'bad-postal-row'
	| 'bad-content'
	| 'empty-file'
	| 'binary'
	| (string & {});

export interface Issue {
	file: string;
	/** 1-based line number, or null for file-level issues. */
	line: number | null;
	kind: IssueKind;
	message: string;
	/** True when this issue is the line's only home (the line was dropped); see build.ts header. */
	accounted?: boolean;
}

export interface LineRecord {
	/** 1-based line number in its file. */
	line: number;
	value: Record<string, unknown>;
	/** UTF-8 byte length of the line (without its line terminator). */
	bytes: number;
}

export interface FileRecords {
	file: string;
	bytes: number;
	/** Non-blank lines seen (records + lines that became issues). */
	lines: number;
	records: LineRecord[];
	issues: Issue[];
}

// ── Content ────────────────────────────────────────────────────────────────

export interface TextBlock { type: 'text'; text: string; [k: string]: unknown }
export interface ThinkingBlock { type: 'thinking'; thinking: string; signature?: string; [k: string]: unknown }
export interface ToolUseBlock { type: 'tool_use'; id: string; name: string; input: unknown; [k: string]: unknown }
export interface ToolResultBlock {
	type: 'tool_result';
	tool_use_id: string;
	content: unknown;
	is_error?: boolean;
	[k: string]: unknown;
}
export interface ImageBlock { type: 'image'; source?: unknown; [k: string]: unknown }
/** Any other block type is kept verbatim (the transcript is the truth). */
export interface OtherBlock { type: string; [k: string]: unknown }
export type ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | OtherBlock;

export interface Usage {
	input_tokens?: number;
	output_tokens?: number;
	cache_creation_input_tokens?: number;
	cache_read_input_tokens?: number;
	[k: string]: unknown;
}

export type StopReason = 'end_turn' | 'tool_use' | 'stop_sequence' | 'max_tokens' | 'refusal' | (string & {});

export interface ApiMessage {
	role: 'assistant' | 'user' | (string & {});
	content: ContentBlock[];
	model?: string;
	usage?: Usage;
	/** Absent when the line stored null (romp mode drops null values). */
	stop_reason?: StopReason | null;
}

// ── Authors ────────────────────────────────────────────────────────────────

export interface PeerAuthor {
	/** Sender's anchor sid from the postal log, or null when the id is not in the log. */
	peer: string | null;
	/** The romp-msg-id the author was taken from. */
	mid: string;
	/** The romp-msg-kind paired with that id, or "". */
	kind: string;
}
export type Author = 'human' | 'sdk' | 'system' | 'teammate' | 'romp' | PeerAuthor;

// ── Atoms ──────────────────────────────────────────────────────────────────

export type AtomType = 'assistant' | 'user' | 'system' | 'result' | 'idle';

export interface CompactMetadata {
	trigger: 'auto' | 'manual' | (string & {}) | null;
	pre_tokens: number | null;
	post_tokens: number | null;
}

/** Fields only present in viewer mode (never in romp-mode output). */
export interface ViewerExtras {
	/** Epoch milliseconds at full precision. */
	ms?: number;
	/** The line has no timestamp of its own: t and ms are the line before's (a billed call on it
	 *  counts in totals, in no period: view/history/calls.ts). */
	untimed?: true;
	/** The raw `toolUseResult` field of the line. */
	toolUseResult?: unknown;
	/** message.id of an assistant line (one API response is split over several lines). */
	messageId?: string;
	/** The line's requestId: with messageId, the identity of one billed API call. */
	requestId?: string;
	isSidechain?: boolean;
	isMeta?: boolean;
	agentId?: string;
	/** 1-based line number in its file. */
	line?: number;
	/** viewer: stop_reason was null on disk and recovered from the message's blocks. */
	stopReasonRecovered?: boolean;
	/** Who spoke, when the format names its actors (a Strap actor id): the prompt's speaker label. */
	speaker?: string;
}

export interface Atom extends ViewerExtras {
	type: AtomType;
	subtype?: 'compact_boundary' | 'model_refusal_fallback' | (string & {});
	/** null only for idle atoms and uuid-less absorbed attachments. */
	uuid: string | null;
	session_id: string;
	/** Integer epoch seconds (fraction truncated). */
	t: number;
	message?: ApiMessage;

	// file provenance
	fsid?: string | null;
	parentUuid?: string | null;
	promptSource?: 'typed' | 'queued' | 'sdk' | 'system' | (string & {});
	/** `null` only on absorbed atoms whose text yields no author. */
	author?: Author | null;

	// flags
	rompAuto?: true;
	absorbed?: true;
	/** user command atom: "/name"; assistant stdout atom: true. */
	command?: string | true;
	skillMd?: string;
	orphaned?: true;
	isApiError?: true;
	apiErrorStatus?: number;

	// system:compact_boundary
	compact_metadata?: CompactMetadata;
	summary?: string | null;
	// system:model_refusal_fallback
	content?: unknown;
	fallback_from?: unknown;
	fallback_to?: unknown;

	/** idle: the span is [t, end]. */
	end?: number;
}

// ── Turns and session ──────────────────────────────────────────────────────

export interface Trigger {
	uuid: string | null;
}

export interface Turn {
	/** `${rompUuid}:${t}:${sha1(text)[:8]}` */
	id: string;
	trigger: Trigger | null;
	t: number;
	end: number;
	ended: boolean;
	atoms: Atom[];
}

export interface Session {
	rompUuid: string;
	name: string;
	dir: string;
	color: string;
	leafFsid: string;
	/** Sorted uuids of every assistant line with non-empty text, on any branch. */
	landedTextUuids: string[];
	turns: Turn[];
	/**
	 * viewer mode (D11), only when the session has any: the rewound branches the active path left,
	 * in file order of the line that left it. Never set in romp mode.
	 */
	branches?: Branch[];
}

/** A rewound branch (model/branches.ts): lines that left the active path and were abandoned. */
export interface Branch {
	/** the kept line the branch left from (the last ancestor it shares with the path), or null */
	forkUuid: string | null;
	/** the nearest atom at or above the fork on the path (where the chat puts the fold), or null */
	afterUuid: string | null;
	/** the first line of the branch */
	rootUuid: string;
	/** epoch seconds of the branch's first atom (its first line's when it has none) and of its end */
	t: number;
	end: number;
	/** transcript lines on the branch, nested branches included (each is an offPath 'rewind' line) */
	lines: number;
	/** the branch's own path, built with the same rules as the main path */
	turns: Turn[];
	/** branches that left this branch's path, their afterUuid on it */
	children: Branch[];
}

export interface Segment {
	id: string;
	t: number;
	end: number;
	trigger: string | null;
	/** uuid, or the atom type when uuid is null. */
	atoms: string[];
	/** [start, stop) index range into turn.atoms. */
	start: number;
	stop: number;
}

// ── Parse API ──────────────────────────────────────────────────────────────

export interface ParseInput {
	/** Candidate files, LEAF LAST; the file stem is the fsid. */
	transcripts: FileRecords[];
	states?: FileRecords | null;
	postal?: FileRecords | null;
}

export interface ParseOptions {
	compat?: Compat;
	rompUuid?: string | null;
	name?: string | null;
	dir?: string;
	now?: number | null;
	sdkHuman?: boolean;
	leafOverride?: string | null;
	/** The file is a subagent transcript: its isSidechain lines ARE the conversation. */
	subagent?: boolean;
}

export interface OffPathLine {
	file: string;
	line: number;
	uuid: string | null;
	/** 'rewind' | 'clear' | 'sidechain' | 'replay' | 'skipped:<rule>' | ... */
	reason: string;
	/** viewer mode: the API call the line records (a rewound branch was billed too). */
	call?: LineCall;
}

/** The billing facts of a line that carries `message.usage` but shows no atom (viewer mode):
 *  what history usage needs to count a call on an abandoned branch, a copy or a skipped line. */
export interface LineCall {
	messageId: string | null;
	requestId: string | null;
	model: string | null;
	usage: Usage;
	/** Epoch ms of the line's own timestamp (null: the line has none). */
	ms: number | null;
	/** The line's isSidechain flag (an inline subagent line in a main transcript). */
	sidechain: boolean;
}

export interface MetadataLine {
	file: string;
	line: number;
	type: string;
	uuid?: string | null;
	t?: number | null;
	/** Why a content line on the path produced no atom (isMeta, command-wrapper, compact-summary, ...). */
	reason?: string;
	/** viewer mode: raw JSON of records whose type the model does not recognise. */
	value?: unknown;
	/** viewer mode: the API call the line records, when it carries usage but shows no atom. */
	call?: LineCall;
}

export interface Accounting {
	lines: number;
	atoms: number;
	offPath: number;
	metadata: number;
	issues: number;
}

export interface ParseResult {
	session: Session;
	issues: Issue[];
	offPath: OffPathLine[];
	metadata: MetadataLine[];
	accounting: Accounting;
}
