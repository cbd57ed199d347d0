// The chat-zoom entry points the worker calls: buildChatRows (session + subagent transcripts →
// grouped top-level rows, with each turn's token usage on its last row and unknown records as raw
// cards) and rowIndexOf (the tiny per-row index the main thread keeps). Subagent transcripts are
// built recursively with the same rules and carried inline on their delegation row; rewound
// branches likewise on their fold row (branches.ts).

import type { Atom, MetadataLine, ParseResult, Session } from '../../model/types';
import { firstLine, toJson } from './content';
import { groupItems } from './grouping';
import { buildItems, countToolCalls } from './items';
import { recordRow } from './records';
import { withBranchRows } from './branches';
import { collectCalls } from '../usage/messages';
import type { ChatRow, RowIndexEntry, UsageTotals } from './types';

/** The subset of ingest's ChildTranscript this module needs (structurally compatible). */
export interface ChildLike {
	toolUseId: string;
	agentId?: string | null;
	agentType?: string | null;
	description?: string | null;
	result: Pick<ParseResult, 'session'> & Partial<Pick<ParseResult, 'metadata'>>;
}

export interface ChatRowOptions {
	/** Records the model could not name (viewer mode: metadata lines carrying `value`), shown as raw cards. */
	metadata?: MetadataLine[];
	/** The session is known to be over (a child whose parent call returned). */
	sessionOver?: boolean;
	/** Key namespace (child transcripts use `d:<toolUseId>/`). */
	keyPrefix?: string;
	/** Recursion depth guard for nested subagents. */
	depth?: number;
	/** Nesting depth of rewound branches (a branch's own rows are built at depth + 1). */
	branchDepth?: number;
	/** Only the rows of turns from this one on (a followed session's changed tail, view/chat/live.ts). */
	fromTurn?: number;
}

const MAX_DEPTH = 6;

/** Token usage of one turn, counted once per API message (view/usage decides what one message is). */
export function turnUsage(atoms: Atom[]): UsageTotals | null {
	const calls = collectCalls(atoms);
	if (!calls.length) return null;
	const t: UsageTotals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0, messages: calls.length };
	for (const c of calls) {
		t.inputTokens += c.input;
		t.outputTokens += c.output;
		t.cacheReadTokens += c.cacheRead;
		t.cacheCreationTokens += c.cacheWrite;
	}
	return t;
}

/**
 * Rows for records that are not atoms (records.ts names them), slotted in by time AFTER grouping:
 * a record is shown where it happened but never splits a run of tool work. Records carry whole
 * seconds, so one goes before a row only when its second is strictly earlier: a note written in
 * the same second as a reply (turn_duration, a recap) follows it, as in the file.
 */
const timeOrder = (t: number | null | undefined): number => (typeof t === 'number' ? t : Number.MAX_SAFE_INTEGER);

function insertRecords(rows: ChatRow[], metadata: MetadataLine[] | undefined, keyPrefix: string): ChatRow[] {
	// Metadata is in file order, several files interleave: merge by time (stable, untimed last).
	const records = (metadata ?? [])
		.filter((m) => m.value !== undefined)
		.sort((a, b) => timeOrder(a.t) - timeOrder(b.t));
	if (!records.length) return rows;
	const out: ChatRow[] = [];
	let r = 0;
	const push = (m: MetadataLine, turnIndex: number) => {
		const row = recordRow(m, `${keyPrefix}r:${m.file}:${m.line}`, turnIndex);
		if (row) out.push(row);
	};
	for (const row of rows) {
		while (r < records.length && typeof records[r].t === 'number' && row.ms !== null && (records[r].t as number) < Math.floor(row.ms / 1000)) {
			push(records[r++], row.turnIndex);
		}
		out.push(row);
	}
	const lastTurn = rows.length ? rows[rows.length - 1].turnIndex : 0;
	while (r < records.length) push(records[r++], lastTurn);
	return out;
}

/**
 * Grouped top-level rows of a session. `children` maps a Task/Agent tool_use id to its parsed
 * subagent transcript; a delegation row carries that child's rows inline.
 */
export function buildChatRows(session: Session, children: Record<string, ChildLike> = {}, opts: ChatRowOptions = {}): ChatRow[] {
	const depth = opts.depth ?? 0;
	const keyPrefix = opts.keyPrefix ?? '';
	const items = buildItems(session, {
		keyPrefix,
		sessionOver: opts.sessionOver ?? false,
		childSteps: (id) => {
			const c = Object.prototype.hasOwnProperty.call(children, id) ? children[id] : undefined;
			return c ? countToolCalls(c.result.session) : null;
		},
		childRows: (id, parentOver) => {
			const c = Object.prototype.hasOwnProperty.call(children, id) ? children[id] : undefined;
			if (!c || depth >= MAX_DEPTH) return null;
			return buildChatRows(c.result.session, children, {
				metadata: c.result.metadata,
				sessionOver: parentOver,
				keyPrefix: `${keyPrefix}d:${id}/`,
				depth: depth + 1
			});
		}
	}, opts.fromTurn ?? 0);
	let rows = insertRecords(groupItems(items), opts.metadata, keyPrefix);
	// In a subagent's transcript the "user" prompt is the delegating agent's, not a person's.
	if (depth > 0) {
		rows = rows.map((r) => (r.kind === 'user' && (r.author.kind === 'human' || r.author.kind === 'unknown') ? { ...r, author: { ...r.author, label: 'Delegating agent' } } : r));
	}
	// Each turn's usage rides on its last row.
	const lastRowOfTurn = new Map<number, number>();
	rows.forEach((r, i) => lastRowOfTurn.set(r.turnIndex, i));
	for (const [ti, i] of lastRowOfTurn) {
		const turn = session.turns[ti];
		const u = turn ? turnUsage(turn.atoms) : null;
		if (u) rows[i] = { ...rows[i], turnUsage: u };
	}
	// Rewound branches (model D11): a fold after the row each left from, its rows by these same rules.
	if (session.branches?.length && (opts.branchDepth ?? 0) < MAX_DEPTH) {
		rows = withBranchRows(rows, session, keyPrefix, (opts.fromTurn ?? 0) === 0, (branch, prefix) =>
			buildChatRows(branch, children, { sessionOver: true, keyPrefix: prefix, depth, branchDepth: (opts.branchDepth ?? 0) + 1 }));
	}
	return rows;
}

function textLines(s: string, width = 90): number {
	let n = 0;
	for (const line of s.split('\n', 400)) n += Math.max(1, Math.ceil(line.length / width));
	return n;
}

/** Estimated collapsed height in px, so the list can be laid out before rows are measured. */
export function estimateHeight(row: ChatRow): number {
	let h: number;
	switch (row.kind) {
		case 'user':
			h = 48 + Math.min(textLines(row.text), 6) * 21 + (row.images.length ? 96 : 0);
			break;
		case 'assistant':
			h = 24 + Math.min(textLines(row.text), 400) * 22;
			break;
		case 'question':
			h = 56 + row.questions.reduce((s, q) => s + 28 + q.options.length * 26, 0);
			break;
		case 'approval':
			h = 64 + Math.min(textLines(row.plan), 12) * 21;
			break;
		case 'error':
			h = 52 + Math.min(textLines(row.text), 4) * 20;
			break;
		case 'delegation':
			h = 64;
			break;
		case 'compaction':
			h = 44;
			break;
		case 'branch':
			h = 40;
			break;
		default:
			h = 38;
	}
	return h + (row.turnUsage ? 20 : 0);
}

function previewOf(row: ChatRow): string {
	switch (row.kind) {
		case 'user':
			return firstLine(row.command ? row.text : row.text) || (row.images.length ? '[image]' : '');
		case 'assistant':
			return firstLine(row.text);
		case 'thinking':
			return row.state === 'text' ? firstLine(row.preview) : 'Thought (hidden)';
		case 'tool':
			return firstLine(row.call.title);
		case 'tool-group':
			return row.summary;
		case 'delegation':
			return firstLine(row.description);
		case 'question':
			return firstLine(row.questions[0]?.question ?? 'Question');
		case 'approval':
			return firstLine(row.plan) || 'Plan';
		case 'compaction':
			return 'Context compacted';
		case 'error':
			return firstLine(row.text);
		case 'notice':
			return firstLine(row.title);
		case 'raw':
			return firstLine(row.title);
		case 'branch':
			return row.label;
	}
}

export function rowIndexOf(row: ChatRow): RowIndexEntry {
	return {
		key: row.key,
		kind: row.kind,
		atomUuid: row.atomUuid,
		turnIndex: row.turnIndex,
		estHeight: estimateHeight(row),
		preview: previewOf(row),
		defaultOpen: row.defaultOpen,
		ms: row.ms
	};
}

/** uuid → index of the top-level row containing that atom (for landings). */
export function atomRowMap(rows: ChatRow[]): Record<string, number> {
	const out: Record<string, number> = Object.create(null) as Record<string, number>;
	rows.forEach((r, i) => {
		for (const u of r.atomUuids) if (!Object.prototype.hasOwnProperty.call(out, u)) out[u] = i;
	});
	return out;
}

/** Index of the row containing `uuid`, or -1 (the caller says "not found" rather than landing near). */
export function findRowIndex(rows: ChatRow[], uuid: string): number {
	for (let i = 0; i < rows.length; i++) if (rows[i].atomUuids.includes(uuid)) return i;
	return -1;
}


/**
 * Where an atom is drawn: the top-level row index, plus — when the atom sits inside a tool
 * group — the key of the group entry holding it (so a landing can open the group and that call).
 * index is -1 when no row holds the atom.
 */
export function locateAtom(rows: ChatRow[], uuid: string): { index: number; entryKey: string | null } {
	const index = findRowIndex(rows, uuid);
	if (index < 0) return { index, entryKey: null };
	const row = rows[index];
	if (row.kind !== 'tool-group') return { index, entryKey: null };
	for (const e of row.entries) {
		if (e.kind === 'tool' && (e.call.callUuid === uuid || e.call.resultUuid === uuid)) return { index, entryKey: e.key };
		if (e.kind === 'thinking' && e.key.endsWith(`th:${uuid}`)) return { index, entryKey: e.key };
	}
	return { index, entryKey: null };
}
