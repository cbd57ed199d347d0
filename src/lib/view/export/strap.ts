// Strap state export (seed strap-intended-state-shape.md, written as `strap.state.v0.3`): a
// session as a root scope of events `{type: "event", from: "user" | "model" | "harness",
// agent?, kind: "message" | "tool_request", text, calls?}`. Tool results are written onto their
// call (`ok`, `output`, `error`), never as events; every subagent is an `agent.fork` call whose
// `output.summary` is the subagent's result and whose `hidden.messages` hold the child
// transcript in the same shape; a compaction is a harness `history.summarize` call. Command
// output, skill instructions and API errors are the harness speaking: harness messages. The schema
// of what this writes is strap.schema.json. A rewound branch (model D11) is an `agent.fork` call of
// agent `rewound-branch` at its rewind point, the abandoned messages hidden inside. Thinking,
// images, token usage and the system records that are no atom have no place in the shape: they
// are counted and listed under `loupe.leftOut`
// instead of silently vanishing (strap-roundtrip.test.ts holds the export to that list).
import type { Atom, Branch, MetadataLine, Session } from '../../model/types.ts';
import { isRecord, resultText, str } from '../chat/content.ts';
import { classifyTool } from '../chat/tools.ts';
import { recordRow } from '../chat/records.ts';
import { progressTicker, type ExportMeta, type OnExportProgress } from './common.ts';

export type StrapFrom = 'user' | 'model' | 'harness';

export interface StrapCall {
	id: string;
	tool: string;
	input: Record<string, unknown>;
	ok?: boolean;
	output?: { content?: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; summary?: string };
	error?: string;
	hidden?: { messages: StrapEvent[] };
}

export interface StrapEvent {
	type: 'event';
	from: StrapFrom;
	agent?: string;
	kind: 'message' | 'tool_request';
	text: string;
	calls?: StrapCall[];
}

export interface StrapState {
	version: 'strap.state.v0.3';
	actors: { humans: Record<string, object>; agents: Record<string, object>; runtimes: Record<string, object> };
	root: { type: 'scope'; label: string; status: 'open'; participants: string[]; children: StrapEvent[] };
	loupe: { title: string; sessionKey: string; redaction: string; leftOut: string[] };
}

/** The subset of a subagent transcript this module needs (structurally ingest's ChildTranscript). */
export interface StrapChild {
	agentType?: string | null;
	result: { session: Session; metadata?: MetadataLine[] };
}

interface Omitted {
	thinking: number;
	images: number;
	other: number;
	/** Command output, skill instructions and API errors: written as plain harness messages. */
	retyped: number;
	/** Named records outside the conversation (hook notes, recaps, retried API errors). */
	records: number;
}

function blocksOf(a: Atom): unknown[] {
	const c = a.message?.content as unknown;
	if (Array.isArray(c)) return c;
	if (typeof c === 'string' && c.trim()) return [{ type: 'text', text: c }];
	return [];
}

/** tool_use id → its result block and the line's toolUseResult (first wins). */
function resultsOf(session: Session): Map<string, { block: Record<string, unknown>; toolUseResult: unknown }> {
	const out = new Map<string, { block: Record<string, unknown>; toolUseResult: unknown }>();
	for (const turn of session.turns)
		for (const a of turn.atoms) {
			if (a.type !== 'user') continue;
			for (const b of blocksOf(a)) {
				if (!isRecord(b) || b.type !== 'tool_result') continue;
				const id = str(b.tool_use_id);
				if (id !== null && !out.has(id)) out.set(id, { block: b, toolUseResult: a.toolUseResult });
			}
		}
	return out;
}

function textOfBlocks(blocks: unknown[]): string {
	return blocks
		.filter((b): b is { type: 'text'; text: string } => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
		.map((b) => b.text)
		.join('\n\n');
}

/** Records the chat draws as a notice or an error row although they are no atom (view/chat/records.ts). */
function namedRecords(metadata: MetadataLine[] | undefined): number {
	let n = 0;
	for (const m of metadata ?? []) {
		const row = recordRow(m, '', 0);
		if (row && row.kind !== 'raw') n++;
	}
	return n;
}

function fromOf(a: Atom): StrapFrom {
	return a.author === 'system' ? 'harness' : 'user';
}

interface Ctx {
	children: Record<string, StrapChild>;
	omitted: Omitted;
	agents: Set<string>;
	depth: number;
	tick?: () => void;
}

const MAX_DEPTH = 6;
/** The agent a rewound branch's fork speaks as (Strap has no rewind; a fork is the nearest shape). */
export const REWOUND_AGENT = 'rewound-branch';

function eventsOf(session: Session, agent: string | undefined, ctx: Ctx): StrapEvent[] {
	const results = resultsOf(session);
	const events: StrapEvent[] = [];
	let open: { event: StrapEvent; messageId: string | undefined } | null = null;
	const model = (kind: StrapEvent['kind'], text: string): StrapEvent => ({ type: 'event', from: 'model', ...(agent ? { agent } : {}), kind, text });

	// Rewound branches (model D11) are forks at their rewind point: an agent.fork call of the
	// harness whose hidden messages are the abandoned branch (its own branches nested inside).
	const forks = new Map<string | null, Branch[]>();
	if (ctx.depth < MAX_DEPTH) for (const b of session.branches ?? []) forks.set(b.afterUuid, [...(forks.get(b.afterUuid) ?? []), b]);
	const fork = (after: string | null) => {
		for (const b of forks.get(after) ?? []) {
			events.push({ type: 'event', from: 'harness', kind: 'tool_request', text: '', calls: [branchFork(session, b, ctx)] });
			open = null;
		}
	};
	fork(null);
	for (const turn of session.turns) {
		for (const a of turn.atoms) {
			ctx.tick?.();
			if (a.type === 'assistant' && (a.isApiError || a.command === true || typeof a.skillMd === 'string')) {
				// Not the model speaking: the harness reporting an API error, a local command's output,
				// or a skill's instructions. Strap has one way to say that, a harness message.
				const text = typeof a.skillMd === 'string' ? a.skillMd : textOfBlocks(blocksOf(a)) || (a.isApiError ? 'API error' : '');
				if (text.trim()) {
					events.push({ type: 'event', from: 'harness', kind: 'message', text });
					ctx.omitted.retyped++;
				}
				open = null;
			} else if (a.type === 'assistant') {
				for (const b of blocksOf(a)) {
					if (!isRecord(b)) {
						ctx.omitted.other++;
						continue;
					}
					if (b.type === 'text' && typeof b.text === 'string') {
						if (b.text.trim()) events.push(model('message', b.text));
						open = null;
					} else if (b.type === 'tool_use' && typeof b.id === 'string') {
						const call = callOf(b, results, ctx);
						// Calls of one response (same message id) share one tool_request event.
						if (open && open.messageId === a.messageId && a.messageId !== undefined) open.event.calls!.push(call);
						else {
							const event = { ...model('tool_request', ''), calls: [call] };
							events.push(event);
							open = { event, messageId: a.messageId };
						}
					} else if (b.type === 'thinking' || b.type === 'redacted_thinking') ctx.omitted.thinking++;
					else ctx.omitted.other++;
				}
			} else if (a.type === 'user') {
				const blocks = blocksOf(a);
				const text = textOfBlocks(blocks);
				ctx.omitted.images += blocks.filter((b) => isRecord(b) && b.type === 'image').length;
				ctx.omitted.other += blocks.filter((b) => !isRecord(b) || !['text', 'image', 'tool_result'].includes(String(b.type))).length;
				if (text.trim()) {
					events.push({ type: 'event', from: fromOf(a), kind: 'message', text });
					open = null;
				}
			} else if (a.type === 'system') {
				open = null;
				if (a.subtype === 'compact_boundary') {
					const m = a.compact_metadata;
					const input: Record<string, unknown> = {};
					if (m?.trigger) input.trigger = m.trigger;
					if (typeof m?.pre_tokens === 'number') input.pre_tokens = m.pre_tokens;
					events.push({
						type: 'event',
						from: 'harness',
						kind: 'tool_request',
						text: '',
						calls: [{ id: `compact_${a.uuid ?? a.t}`, tool: 'history.summarize', input, ok: true, output: { summary: a.summary ?? '' } }]
					});
				} else {
					const text = typeof a.content === 'string' ? a.content : blocksOf(a).map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
					if (text.trim()) events.push({ type: 'event', from: 'harness', kind: 'message', text });
				}
			}
			if (a.uuid !== null && forks.size) fork(a.uuid);
		}
	}
	return events;
}

/** A rewound branch as a fork call: "Rewound here — …" is its description, the branch its hidden messages. */
function branchFork(session: Session, b: Branch, ctx: Ctx): StrapCall {
	const own: Session = { ...session, turns: b.turns, branches: b.children };
	const task = 'Rewound branch: tried here and abandoned (the conversation continued without it).';
	ctx.agents.add(REWOUND_AGENT);
	return {
		id: `rewound_${b.rootUuid}`,
		tool: 'agent.fork',
		input: { task, agent: REWOUND_AGENT, description: 'Rewound here' },
		ok: true,
		output: { summary: 'abandoned' },
		hidden: { messages: eventsOf(own, REWOUND_AGENT, { ...ctx, depth: ctx.depth + 1 }) }
	};
}

function callOf(b: Record<string, unknown>, results: ReturnType<typeof resultsOf>, ctx: Ctx): StrapCall {
	const id = b.id as string;
	const name = typeof b.name === 'string' ? b.name : 'unknown';
	const input = isRecord(b.input) ? b.input : { value: b.input ?? null };
	const r = results.get(id);
	const text = r ? resultText(r.block.content) : '';
	if (r && Array.isArray(r.block.content)) ctx.omitted.images += r.block.content.filter((c) => isRecord(c) && c.type === 'image').length;
	const failed = r?.block.is_error === true;

	if (classifyTool(name).itemType === 'delegation') {
		const child = Object.prototype.hasOwnProperty.call(ctx.children, id) ? ctx.children[id] : undefined;
		const agent = str(input.subagent_type) ?? child?.agentType ?? 'subagent';
		ctx.agents.add(agent);
		const call: StrapCall = { id, tool: 'agent.fork', input: { task: str(input.prompt) ?? '', agent, ...(str(input.description) ? { description: str(input.description)! } : {}) } };
		if (r) {
			call.ok = !failed;
			if (failed) call.error = text;
			// The subagent's result is its answer (the result line's `content`), not the tool_result
			// text, which Claude Code suffixes with the agent id, worktree and token usage.
			else call.output = { summary: isRecord(r.toolUseResult) && Array.isArray(r.toolUseResult.content) ? resultText(r.toolUseResult.content) : text };
		}
		if (child && ctx.depth < MAX_DEPTH) {
			ctx.omitted.records += namedRecords(child.result.metadata);
			call.hidden = { messages: eventsOf(child.result.session, agent, { ...ctx, depth: ctx.depth + 1 }) };
		}
		return call;
	}

	const call: StrapCall = { id, tool: name, input };
	if (r) {
		call.ok = !failed;
		const output: NonNullable<StrapCall['output']> = { content: [{ type: 'text', text }] };
		if (isRecord(r.toolUseResult)) output.structuredContent = r.toolUseResult;
		call.output = output;
		if (failed) call.error = text;
	}
	return call;
}

function countAtoms(session: Session, children: Record<string, StrapChild>): number {
	let n = 0;
	for (const t of session.turns) n += t.atoms.length;
	const inBranches = (bs: Branch[] | undefined): void => {
		for (const b of bs ?? []) {
			for (const t of b.turns) n += t.atoms.length;
			inBranches(b.children);
		}
	};
	inBranches(session.branches);
	for (const c of Object.values(children)) for (const t of c.result.session.turns) n += t.atoms.length;
	return n;
}

export function toStrap(session: Session, children: Record<string, StrapChild>, meta: ExportMeta, onProgress?: OnExportProgress, metadata?: MetadataLine[]): StrapState {
	const total = countAtoms(session, children);
	const ticker = progressTicker('strap', total, onProgress, 5000);
	let done = 0;
	const ctx: Ctx = { children, omitted: { thinking: 0, images: 0, other: 0, retyped: 0, records: namedRecords(metadata) }, agents: new Set(), depth: 0, tick: () => ticker(++done) };
	const events = eventsOf(session, undefined, ctx);
	ticker(total);
	const leftOut = [
		ctx.omitted.thinking ? `${ctx.omitted.thinking} thinking block(s) (the shape has no place for them)` : '',
		ctx.omitted.images ? `${ctx.omitted.images} image(s)` : '',
		ctx.omitted.other ? `${ctx.omitted.other} other content block(s)` : '',
		ctx.omitted.retyped ? `${ctx.omitted.retyped} command output, skill or API error message(s) written as plain harness messages (their kind is not kept)` : '',
		ctx.omitted.records ? `${ctx.omitted.records} system record(s) outside the conversation (hook notes, recaps, retried API errors)` : '',
		'token usage, timestamps and file provenance',
		'idle periods and records Loupe could not name'
	].filter(Boolean);
	return {
		version: 'strap.state.v0.3',
		actors: {
			humans: { user: {} },
			agents: Object.fromEntries([...ctx.agents].map((a) => [a, {}])),
			runtimes: { harness: {} }
		},
		root: { type: 'scope', label: 'root', status: 'open', participants: [], children: events },
		loupe: { title: meta.title, sessionKey: meta.sessionKey, redaction: meta.redaction, leftOut }
	};
}
