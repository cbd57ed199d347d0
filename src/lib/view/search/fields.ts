// Searchable text of a session, derived from its chat rows (the same projection the reader
// sees, so search finds exactly what can be seen or expanded): one field per prompt, reply,
// thought, tool input, tool output, error, notice, compaction summary and raw card, including
// subagent transcripts carried on delegation rows and the rows of rewound branches (flagged). Each field knows where it lands (the
// top-level row, the atom, and the keys to open on the way: group, call, delegation, "show all")
// and what the scope filters ask about it (author, kind, tool name). Fields reference the rows'
// own strings: extraction copies no text, apart from tool inputs flattened out of their JSON.
import type { ChatRow, GroupEntry, ToolCallView } from '../chat/types.ts';

export type FieldKind = 'prompt' | 'reply' | 'thinking' | 'tool-call' | 'tool-output' | 'error' | 'notice' | 'compaction' | 'raw';
export type FieldAuthor = 'you' | 'claude' | 'subagent' | 'system';

/** A key to open on the way to a hit (ChatUi.open(key, defaultOpen)). */
export interface OpenStep {
	key: string;
	defaultOpen: boolean;
}

export interface SearchField {
	text: string;
	kind: FieldKind;
	author: FieldAuthor;
	/** Tool name for tool inputs / outputs (and delegations), else null. */
	tool: string | null;
	/** The atom a landing goes to. */
	atomUuid: string;
	/** Index of the top-level chat row holding it. */
	row: number;
	turnIndex: number;
	ms: number | null;
	/** What to open, outermost first, so the hit is drawn. */
	opens: OpenStep[];
	/** Descriptions of the delegations it is inside (outermost first); empty on the main thread. */
	subagent: string[];
	/** On a rewound branch (model D11): the text sits inside a "Rewound here" fold. */
	rewound: boolean;
}

/** Text longer than this may be capped by its renderer; a landing asks for all of it. */
const CAP_CHARS = 2000;
const CAP_LINES = 30;

interface Ctx {
	row: number;
	opens: OpenStep[];
	subagent: string[];
	rewound: boolean;
	out: SearchField[];
}

/** Every searchable field of a session's top-level rows, in reading order. */
export function fieldsOfRows(rows: readonly ChatRow[]): SearchField[] {
	const out: SearchField[] = [];
	rows.forEach((r, i) => rowFields(r, { row: i, opens: [], subagent: [], rewound: false, out }));
	return out;
}

function push(ctx: Ctx, r: Pick<ChatRow, 'atomUuid' | 'turnIndex' | 'ms'>, text: string | null | undefined, kind: FieldKind, author: FieldAuthor, opens: OpenStep[], tool: string | null = null, atomUuid = r.atomUuid, showAllKey: string | null = null): void {
	if (!text) return;
	const steps = showAllKey && isLong(text) ? [...opens, { key: `${showAllKey}~all`, defaultOpen: false }] : opens;
	ctx.out.push({
		text,
		kind,
		author: ctx.subagent.length && author !== 'system' ? 'subagent' : author,
		tool,
		atomUuid,
		row: ctx.row,
		turnIndex: r.turnIndex,
		ms: r.ms,
		opens: steps,
		subagent: ctx.subagent,
		rewound: ctx.rewound
	});
}

function isLong(text: string): boolean {
	if (text.length > CAP_CHARS) return true;
	let lines = 1;
	for (let i = text.indexOf('\n'); i >= 0 && lines <= CAP_LINES; i = text.indexOf('\n', i + 1)) lines++;
	return lines > CAP_LINES;
}

function rowFields(r: ChatRow, ctx: Ctx): void {
	const self: OpenStep = { key: r.key, defaultOpen: r.defaultOpen };
	const inside = [...ctx.opens, self];
	switch (r.kind) {
		case 'user': {
			const human = r.author.kind === 'human' || r.author.kind === 'unknown';
			// A long prompt is clamped until opened.
			push(ctx, r, r.text, 'prompt', human || ctx.subagent.length ? 'you' : 'system', isLong(r.text) || r.text.split('\n', 8).length > 6 ? inside : ctx.opens);
			return;
		}
		case 'assistant':
			push(ctx, r, r.text, 'reply', 'claude', ctx.opens);
			return;
		case 'thinking':
			push(ctx, r, r.text, 'thinking', 'claude', inside);
			return;
		case 'tool':
			callFields(ctx, r, r.call, ctx.opens, r.key);
			return;
		case 'tool-group':
			for (const e of r.entries) entryFields(ctx, r, e, inside);
			return;
		case 'delegation': {
			// The prompt is clamped to a few lines until "Show the whole prompt".
			const promptOpens = isLong(r.prompt) ? [...inside, { key: `${r.key}~prompt`, defaultOpen: false }] : inside;
			const first = r.childRows?.[0];
			const promptInChild = first?.kind === 'user' && first.text.trim() === r.prompt.trim();
			// The header shows the description and agent type; the prompt shows unless the child repeats it.
			const call = [r.description, r.agentType ?? '', promptInChild ? '' : r.prompt].filter(Boolean).join('\n');
			push(ctx, r, call, 'tool-call', 'claude', promptInChild ? inside : promptOpens, r.call.name);
			if (r.childRows) {
				const child: Ctx = { row: ctx.row, opens: inside, subagent: [...ctx.subagent, r.description], rewound: ctx.rewound, out: ctx.out };
				r.childRows.forEach((c, i) => {
					// The delegation draws its first 150 child rows until asked for all.
					const opens = i >= 150 ? [...inside, { key: `${r.key}~all`, defaultOpen: false }] : inside;
					rowFields(c, { ...child, opens });
				});
			}
			push(ctx, r, r.result, 'tool-output', 'subagent', inside, r.call.name, r.call.resultUuid ?? r.atomUuid);
			return;
		}
		case 'question': {
			const q = r.questions.map((x) => [x.header, x.question, ...x.options.flatMap((o) => [o.label, o.description])].filter(Boolean).join('\n')).join('\n');
			push(ctx, r, q, 'tool-call', 'claude', ctx.opens, r.call.name);
			const answers = [...r.questions.map((x) => x.answer ?? ''), r.resultText ?? ''].filter(Boolean).join('\n');
			push(ctx, r, answers, 'prompt', 'you', ctx.opens, r.call.name, r.call.resultUuid ?? r.atomUuid);
			return;
		}
		case 'approval':
			push(ctx, r, r.plan, 'tool-call', 'claude', ctx.opens, r.call.name);
			push(ctx, r, r.feedback, 'prompt', 'you', ctx.opens, r.call.name, r.call.resultUuid ?? r.atomUuid);
			return;
		case 'compaction':
			push(ctx, r, r.summary, 'compaction', 'system', inside);
			return;
		case 'error':
			push(ctx, r, r.text, 'error', 'system', ctx.opens);
			return;
		case 'notice':
			push(ctx, r, r.text && r.text !== r.title ? `${r.title}\n${r.text}` : r.title, 'notice', 'system', inside, null, r.atomUuid, r.key);
			return;
		case 'raw':
			push(ctx, r, r.json, 'raw', 'system', inside, null, r.atomUuid, r.key);
			return;
		case 'branch':
			// The abandoned rows are drawn once the fold is open; a nested fold adds its own key.
			for (const c of r.branchRows) rowFields(c, { ...ctx, opens: inside, rewound: true });
			return;
	}
}

function entryFields(ctx: Ctx, group: ChatRow & { kind: 'tool-group' }, e: GroupEntry, inside: OpenStep[]): void {
	// A failed group first shows only its failed calls; the others are one "Show all" away.
	const hidden = group.status === 'error' && !(e.kind === 'tool' && e.call.status === 'error');
	const opens = hidden ? [...inside, { key: `${group.key}~all`, defaultOpen: false }] : inside;
	if (e.kind === 'tool') {
		callFields(ctx, group, e.call, opens, e.key);
		return;
	}
	// Thought keys are `…th:<uuid>[:<n>]`; uuids hold no ':'.
	const at = e.key.lastIndexOf('th:');
	const uuid = at >= 0 ? e.key.slice(at + 3).split(':')[0] : '';
	push(ctx, group, e.text, 'thinking', 'claude', [...opens, { key: e.key, defaultOpen: false }], null, uuid || group.atomUuid);
}

function callFields(ctx: Ctx, r: ChatRow, call: ToolCallView, opens: OpenStep[], key: string): void {
	const open = [...opens, { key, defaultOpen: false }];
	const callUuid = call.callUuid ?? r.atomUuid;
	// The header (title, target) is visible without opening; the inputs are inside.
	push(ctx, r, inputText(call), 'tool-call', 'claude', open, call.name, callUuid);
	const output = call.output ?? [call.stdout ?? '', call.stderr ?? ''].filter(Boolean).join('\n');
	push(ctx, r, output, call.status === 'error' ? 'error' : 'tool-output', 'claude', open, call.name, call.resultUuid ?? callUuid, key);
}

/** The call's title and every string in its input (commands, paths, patterns, edit strings), unescaped. */
export function inputText(call: ToolCallView): string {
	const parts: string[] = [call.title];
	if (call.target && !call.title.includes(call.target)) parts.push(call.target);
	let input: unknown = null;
	try {
		input = JSON.parse(call.inputJson);
	} catch {
		parts.push(call.inputJson);
	}
	collectStrings(input, parts, 0);
	return parts.join('\n');
}

function collectStrings(v: unknown, out: string[], depth: number): void {
	if (typeof v === 'string') {
		if (v) out.push(v);
	} else if (typeof v === 'number' || typeof v === 'boolean') {
		out.push(String(v));
	} else if (depth < 8 && Array.isArray(v)) {
		for (const x of v) collectStrings(x, out, depth + 1);
	} else if (depth < 8 && v && typeof v === 'object') {
		for (const x of Object.values(v)) collectStrings(x, out, depth + 1);
	}
}
