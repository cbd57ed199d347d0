// Chat-zoom data shapes: the items a session's atoms project into, and the rows the chat list
// draws. Everything here is plain structured-cloneable data (no functions, classes or Maps),
// because the worker builds rows and posts them to the main thread on demand.

/** The automation contract's `data-row-kind` values, exactly. */
export type RowKind =
	| 'user'
	| 'assistant'
	| 'thinking'
	| 'tool-group'
	| 'tool'
	| 'delegation'
	| 'question'
	| 'approval'
	| 'compaction'
	| 'error'
	| 'notice'
	| 'raw'
	| 'branch';

/** Who wrote a user prompt, flattened for display. */
export interface AuthorView {
	kind: 'human' | 'sdk' | 'peer' | 'romp' | 'teammate' | 'system' | 'unknown';
	/** Short label: "You", "SDK", "peer · <sid>", "romp", "teammate", "system". */
	label: string;
	/** Peer sender's anchor sid (peer authors only), null when unresolved. */
	peer?: string | null;
	/** The romp-msg-kind of a peer delivery ("delegate", "question", …) or "". */
	msgKind?: string;
}

/** An image that is safe to put in an <img src>: a data: URL of an allow-listed raster type. */
export interface ImageRef {
	mediaType: string;
	dataUrl: string;
	/** Decoded size estimate in bytes. */
	bytes: number;
}

/** Status of a tool call as the record states it; liveness is bounded by the turn. */
export type CallStatus = 'ok' | 'error' | 'running' | 'no-result';

/** Which verb a call counts under in a group summary. */
export type ToolVerb = 'run' | 'read' | 'search' | 'edit' | 'web' | 'plan' | 'delegate' | 'ask' | 'approve' | 'tool';

/** Which body renderer a tool call uses. */
export type ToolRenderer =
	| 'bash'
	| 'read'
	| 'search'
	| 'edit'
	| 'todo'
	| 'web-fetch'
	| 'web-search'
	| 'generic';

export interface DiffLine {
	/** '+' added, '-' removed, ' ' context. */
	op: '+' | '-' | ' ';
	text: string;
	oldNo: number | null;
	newNo: number | null;
}
export interface DiffHunk {
	oldStart: number;
	oldLines: number;
	newStart: number;
	newLines: number;
	lines: DiffLine[];
}
export interface FileDiff {
	path: string;
	hunks: DiffHunk[];
	added: number;
	removed: number;
	/** True when line numbers are synthesised (no structuredPatch and no original file). */
	approximate: boolean;
	/** 'create' for a Write of a new file. */
	mode: 'edit' | 'create' | 'overwrite';
}

export interface TodoView {
	content: string;
	status: 'pending' | 'in_progress' | 'completed' | (string & {});
	activeForm?: string;
}

export interface ToolCallView {
	/** tool_use id. */
	id: string;
	name: string;
	verb: ToolVerb;
	renderer: ToolRenderer;
	/** One-line title: "Ran npm test", "Read app.ts", "Used server · tool". */
	title: string;
	/** The call's main target (path, pattern, url, command), shown compact. */
	target: string | null;
	/** `mcp__server__tool` split for display. */
	mcp: { server: string; tool: string } | null;
	/** The call input, pretty-printed JSON (always present, for the generic renderer / inspection). */
	inputJson: string;
	status: CallStatus;
	/** Result text (string content or joined text parts); null when there is no result. */
	output: string | null;
	/** Images inside the tool result (already validated). */
	images: ImageRef[];
	/** Epoch ms of the call and of its result; null when unknown. */
	startMs: number | null;
	endMs: number | null;
	/** uuid of the assistant atom holding the call and of the user atom holding the result. */
	callUuid: string | null;
	resultUuid: string | null;
	// renderer-specific facts
	command?: string;
	description?: string;
	stdout?: string;
	stderr?: string;
	diffs?: FileDiff[];
	todos?: TodoView[];
	/** Raw toolUseResult pretty-printed (generic renderer), when present. */
	resultJson?: string;
}

export interface QuestionView {
	question: string;
	header: string;
	multiSelect: boolean;
	options: { label: string; description: string; chosen: boolean }[];
	/** The answer as recorded (free text or the chosen labels), or null. */
	answer: string | null;
}

export interface UsageTotals {
	inputTokens: number;
	outputTokens: number;
	cacheReadTokens: number;
	cacheCreationTokens: number;
	/** Number of distinct API messages counted. */
	messages: number;
}

// ── Rows ────────────────────────────────────────────────────────────────────

export interface RowBase {
	/** Stable identity: survives more rows arriving and re-parses of the same file. */
	key: string;
	kind: RowKind;
	/** uuid of the atom the row starts at ('' when the row has no atom, e.g. a raw record). */
	atomUuid: string;
	/** uuids of every atom the row contains (a landing on any of them finds this row). */
	atomUuids: string[];
	/** Index of the turn in session.turns. */
	turnIndex: number;
	/** Epoch ms of the row's first atom, or null. */
	ms: number | null;
	/** Whether the row is open when the reader has made no choice. */
	defaultOpen: boolean;
	/** On the last row of a turn: the turn's token usage (once per message id). */
	turnUsage?: UsageTotals;
}

export interface UserRow extends RowBase {
	kind: 'user';
	author: AuthorView;
	text: string;
	images: ImageRef[];
	/** "/name" for a slash-command invocation. */
	command: string | null;
	/** A prompt spliced in mid-turn. */
	absorbed: boolean;
	rompAuto: boolean;
}
export interface AssistantRow extends RowBase {
	kind: 'assistant';
	/** Markdown source. */
	text: string;
	model: string | null;
	orphaned: boolean;
}
export interface ThinkingRow extends RowBase {
	kind: 'thinking';
	/** 'empty': the block has no text (redacted / omitted by the API); 'redacted': a redacted_thinking block. */
	state: 'text' | 'empty' | 'redacted';
	text: string;
	/** Last non-empty line, for the collapsed preview. */
	preview: string;
	/** Thought duration in ms when measurable, else null ("Thought"). */
	durationMs: number | null;
	/** A followed session's thought at its live edge, still being written (view/chat/live.ts). */
	live?: boolean;
}
export interface ToolRow extends RowBase {
	kind: 'tool';
	call: ToolCallView;
}
/** Something inside a tool group: a call, or a thought / plan that travelled with the run. */
export type GroupEntry =
	| { kind: 'tool'; key: string; call: ToolCallView }
	| { kind: 'thinking'; key: string; state: ThinkingRow['state']; text: string; preview: string; live?: boolean };
export interface ToolGroupRow extends RowBase {
	kind: 'tool-group';
	/** "Ran 3 commands, read 5 files, edited 2 files". */
	summary: string;
	/** "Worked for 1m 05s", or null when there are no times (absent, not zero). */
	trailer: string | null;
	workedMs: number | null;
	/** Tool calls in the group (folded thoughts are not steps). */
	steps: number;
	status: 'ok' | 'error' | 'running' | 'no-result';
	/** Diff stat over the group's edits. */
	added: number;
	removed: number;
	entries: GroupEntry[];
}
export interface DelegationRow extends RowBase {
	kind: 'delegation';
	call: ToolCallView;
	description: string;
	agentType: string | null;
	prompt: string;
	/** The subagent's final result (Markdown), or null. */
	result: string | null;
	status: CallStatus;
	/** Tool calls the child made, when known. */
	stepCount: number | null;
	durationMs: number | null;
	totalTokens: number | null;
	/** The child transcript's rows (grouped by the same rules), or null when no child was attached. */
	childRows: ChatRow[] | null;
}
export interface QuestionRow extends RowBase {
	kind: 'question';
	call: ToolCallView;
	questions: QuestionView[];
	status: 'answered' | 'declined' | 'pending' | 'no-result';
	/** Result text when it could not be matched to options (e.g. the user typed an answer). */
	resultText: string | null;
}
export interface ApprovalRow extends RowBase {
	kind: 'approval';
	call: ToolCallView;
	/** The plan (Markdown). */
	plan: string;
	decision: 'approved' | 'rejected' | 'pending' | 'no-result';
	/** The rejection reason / result text. */
	feedback: string | null;
}
export interface CompactionRow extends RowBase {
	kind: 'compaction';
	trigger: string | null;
	preTokens: number | null;
	postTokens: number | null;
	summary: string | null;
}
export interface ErrorRow extends RowBase {
	kind: 'error';
	errorKind: 'api' | 'refusal';
	/** 'warning' for rate / usage limits, 'alert' otherwise. */
	tone: 'warning' | 'alert';
	status: number | null;
	text: string;
}
export type NoticeKind =
	| 'interrupt'
	| 'command-output'
	| 'skill'
	| 'model-fallback'
	| 'system'
	| 'orphan-result';
export interface NoticeRow extends RowBase {
	kind: 'notice';
	noticeKind: NoticeKind;
	/** One-line title. */
	title: string;
	/** Body (plain text, or Markdown when `markdown`). */
	text: string;
	markdown: boolean;
}
export interface RawRow extends RowBase {
	kind: 'raw';
	title: string;
	json: string;
}

/** A rewound branch's fold (model D11): what was tried from here and thrown away, read-only. */
export interface BranchRow extends RowBase {
	kind: 'branch';
	/** uuid of the kept line the branch left from (the last it shares with the path), or null */
	forkUuid: string | null;
	/** uuid of the branch's first line */
	rootUuid: string;
	/** "Rewound here — 3 messages, 2 tool calls, $0.41" (without the "(show)" control) */
	label: string;
	/** prompts and replies behind the fold, nested branches included */
	messages: number;
	/** tool calls behind the fold, nested branches included */
	toolCalls: number;
	/** the cost of those calls: "$0.41", "≥ $0.41" (some unpriced), "unpriced", or null without calls */
	cost: string | null;
	/** the abandoned rows, in order, grouped by the same rules; a nested branch is a branch row among them */
	branchRows: ChatRow[];
}

export type ChatRow =
	| UserRow
	| AssistantRow
	| ThinkingRow
	| ToolRow
	| ToolGroupRow
	| DelegationRow
	| QuestionRow
	| ApprovalRow
	| CompactionRow
	| ErrorRow
	| NoticeRow
	| RawRow
	| BranchRow;

/** The compact per-row index the main thread keeps for every row. */
export interface RowIndexEntry {
	key: string;
	kind: RowKind;
	atomUuid: string;
	turnIndex: number;
	/** Estimated rendered height in px (collapsed state), used before the row is measured. */
	estHeight: number;
	/** Short one-line preview (≤ 120 chars). */
	preview: string;
	defaultOpen: boolean;
	ms: number | null;
}
