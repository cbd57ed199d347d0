// Atoms → items: the normalizer that turns a session's Turn/Atom tree into a flat list of
// conversation items (Bridge's ConversationItem idea), each already carrying the standalone row
// it would draw as. Tool calls are paired with their results by id here; tool-name knowledge is
// delegated to tools.ts. Grouping (grouping.ts) reads only item.type, item.turnIndex and status.

import type { Atom, Session, Turn } from '../../model/types';
import { cap, firstLine, imageOf, isRecord, lastLine, num, resultText, str, toJson } from './content';
import { buildCallView, classifyTool, type PairedResult } from './tools';
import type {
	AuthorView,
	CallStatus,
	ChatRow,
	DelegationRow,
	ImageRef,
	QuestionRow,
	QuestionView,
	RowBase
} from './types';

export type ItemType =
	| 'prompt'
	| 'prose'
	| 'thinking'
	| 'tool'
	| 'plan'
	| 'delegation'
	| 'question'
	| 'approval'
	| 'error'
	| 'compaction'
	| 'notice'
	| 'raw';

export interface Item {
	type: ItemType;
	turnIndex: number;
	/** Call status for tool-like items, else null. */
	status: CallStatus | null;
	/** message.id of the assistant line (to merge prose split over lines), else null. */
	messageId: string | null;
	row: ChatRow;
}

export interface ItemContext {
	/** Child rows for a Task/Agent call id, or null when no child transcript is attached. */
	childRows: (toolUseId: string, parentOver: boolean) => ChatRow[] | null;
	/** Tool calls of a child transcript (for the step count), or null. */
	childSteps: (toolUseId: string) => number | null;
	/** The whole session is over (used for child transcripts whose parent call finished). */
	sessionOver: boolean;
	/** Prefix for row keys (child transcripts are namespaced under their call). */
	keyPrefix: string;
}

export function atomMs(a: Atom): number | null {
	if (typeof a.ms === 'number' && Number.isFinite(a.ms)) return a.ms;
	return typeof a.t === 'number' && Number.isFinite(a.t) ? a.t * 1000 : null;
}

function blocksOf(a: Atom): unknown[] {
	const c = a.message?.content as unknown;
	if (Array.isArray(c)) return c;
	if (typeof c === 'string' && c.trim()) return [{ type: 'text', text: c }];
	return [];
}

function textOf(blocks: unknown[]): string {
	return blocks
		.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
		.map((b) => b.text as string)
		.join('\n\n');
}

export function authorView(a: Atom): AuthorView {
	const au = a.author;
	if (au === 'human') return { kind: 'human', label: a.speaker ?? 'User' };
	if (au === 'sdk') return { kind: 'sdk', label: 'SDK' };
	if (au === 'romp') return { kind: 'romp', label: 'romp' };
	if (au === 'teammate') return { kind: 'teammate', label: 'Teammate' };
	if (au === 'system') return { kind: 'system', label: a.speaker ?? 'System' };
	if (isRecord(au)) {
		const peer = typeof au.peer === 'string' ? au.peer : null;
		return {
			kind: 'peer',
			label: peer ? `Peer \u00b7 ${peer.slice(0, 8)}` : 'Peer (sender unknown)',
			peer,
			msgKind: typeof au.kind === 'string' ? au.kind : ''
		};
	}
	return { kind: 'unknown', label: 'User' };
}

/** Every tool_result in the session by tool_use_id (first wins), with the line it came from. */
export function pairResults(session: Session): Map<string, PairedResult> {
	const out = new Map<string, PairedResult>();
	for (const turn of session.turns) {
		for (const a of turn.atoms) {
			if (a.type !== 'user') continue;
			for (const b of blocksOf(a)) {
				if (!isRecord(b) || b.type !== 'tool_result') continue;
				const id = str(b.tool_use_id);
				if (id === null || out.has(id)) continue;
				out.set(id, { block: b, uuid: a.uuid, ms: atomMs(a), toolUseResult: a.toolUseResult });
			}
		}
	}
	return out;
}

function callIds(session: Session): Set<string> {
	const ids = new Set<string>();
	for (const turn of session.turns)
		for (const a of turn.atoms)
			if (a.type === 'assistant')
				for (const b of blocksOf(a)) if (isRecord(b) && b.type === 'tool_use' && typeof b.id === 'string') ids.add(b.id);
	return ids;
}

/** The turn is over: it ended, a later turn exists, or the whole session is known to be over. */
export function turnIsOver(session: Session, ti: number, sessionOver: boolean): boolean {
	return sessionOver || session.turns[ti]?.ended === true || ti < session.turns.length - 1;
}

const INTERRUPT_RE = /^\[Request interrupted by user/;
const RATE_LIMIT_RE = /rate.?limit|usage limit|quota|429/i;

function systemTitle(text: string): string {
	if (/^\s*<task-notification/.test(text)) return 'Task notification';
	if (/^\s*<system-reminder/.test(text)) return 'System reminder';
	return 'System message';
}

function base(ctx: ItemContext, prefix: string, a: Atom, ti: number, suffix = ''): Omit<RowBase, 'kind'> {
	const uuid = a.uuid ?? '';
	return {
		key: `${ctx.keyPrefix}${prefix}:${uuid || `${a.type}@${a.t}`}${suffix}`,
		atomUuid: uuid,
		atomUuids: uuid ? [uuid] : [],
		turnIndex: ti,
		ms: atomMs(a),
		defaultOpen: false
	};
}

function questionsOf(input: unknown, tur: unknown, output: string | null): QuestionView[] {
	const inp = isRecord(input) ? input : {};
	const tr = isRecord(tur) ? tur : {};
	const answers = isRecord(tr.answers) ? tr.answers : {};
	const parsed: Record<string, string> = {};
	if (output) for (const m of output.matchAll(/"([^"]+)"="([^"]*)"/g)) parsed[m[1]] = m[2];
	const qs = Array.isArray(inp.questions) ? inp.questions : Array.isArray(tr.questions) ? tr.questions : [];
	return qs.filter(isRecord).map((q) => {
		const question = str(q.question) ?? '';
		const ans = str(answers[question]) ?? parsed[question] ?? null;
		const chosenSet = new Set((ans ?? '').split(/,\s*/).map((s) => s.trim()));
		const options = (Array.isArray(q.options) ? q.options : []).filter(isRecord).map((o) => {
			const label = str(o.label) ?? '';
			return { label, description: str(o.description) ?? '', chosen: ans !== null && (ans === label || chosenSet.has(label)) };
		});
		return { question, header: str(q.header) ?? '', multiSelect: q.multiSelect === true, options, answer: ans };
	});
}

function callItems(
	ctx: ItemContext,
	a: Atom,
	ti: number,
	block: Record<string, unknown>,
	result: PairedResult | null,
	turnOver: boolean
): Item {
	const ms = atomMs(a);
	const call = buildCallView(block, a.uuid, ms, result, turnOver);
	const cls = classifyTool(call.name);
	const atomUuids = [a.uuid, call.resultUuid].filter((u): u is string => !!u);
	const common = {
		turnIndex: ti,
		ms,
		atomUuid: a.uuid ?? '',
		atomUuids: [...new Set(atomUuids)],
		defaultOpen: false
	};
	const messageId = a.messageId ?? null;
	const tur = result?.toolUseResult;
	const tr = isRecord(tur) ? tur : {};
	const inp = isRecord(block.input) ? block.input : {};

	if (cls.itemType === 'delegation') {
		const over = call.status !== 'running';
		const contentText = Array.isArray(tr.content) ? resultText(tr.content) : null;
		const row: DelegationRow = {
			...common,
			key: `${ctx.keyPrefix}d:${call.id}`,
			kind: 'delegation',
			call,
			description: str(inp.description) ?? str(tr.description) ?? 'Subagent',
			agentType: str(inp.subagent_type) ?? str(tr.agentType) ?? null,
			prompt: str(inp.prompt) ?? str(tr.prompt) ?? '',
			result: contentText ?? call.output,
			status: call.status,
			stepCount: num(tr.totalToolUseCount) ?? ctx.childSteps(call.id),
			durationMs: num(tr.totalDurationMs) ?? (call.endMs !== null && call.startMs !== null ? call.endMs - call.startMs : null),
			totalTokens: num(tr.totalTokens),
			childRows: ctx.childRows(call.id, over)
		};
		return { type: 'delegation', turnIndex: ti, status: call.status, messageId, row };
	}
	if (cls.itemType === 'question') {
		const status: QuestionRow['status'] = result
			? result.block.is_error === true
				? 'declined'
				: 'answered'
			: turnOver
				? 'no-result'
				: 'pending';
		const questions = questionsOf(block.input, tur, call.output);
		const matched = questions.some((q) => q.answer !== null);
		const row: QuestionRow = {
			...common,
			key: `${ctx.keyPrefix}q:${call.id}`,
			kind: 'question',
			defaultOpen: true,
			call,
			questions,
			status,
			resultText: matched ? null : call.output
		};
		return { type: 'question', turnIndex: ti, status: call.status, messageId, row };
	}
	if (cls.itemType === 'approval') {
		const decision = result ? (result.block.is_error === true ? 'rejected' : 'approved') : turnOver ? 'no-result' : 'pending';
		return {
			type: 'approval',
			turnIndex: ti,
			status: call.status,
			messageId,
			row: {
				...common,
				key: `${ctx.keyPrefix}p:${call.id}`,
				kind: 'approval',
				defaultOpen: true,
				call,
				plan: str(inp.plan) ?? str(tr.plan) ?? '',
				decision,
				feedback: decision === 'rejected' ? call.output : null
			}
		};
	}
	return {
		type: cls.itemType === 'plan' ? 'plan' : 'tool',
		turnIndex: ti,
		status: call.status,
		messageId,
		row: { ...common, key: `${ctx.keyPrefix}t:${call.id}`, kind: 'tool', call }
	};
}

function userItems(ctx: ItemContext, a: Atom, ti: number, known: Set<string>): Item[] {
	const blocks = blocksOf(a);
	const text = textOf(blocks);
	const images: ImageRef[] = [];
	const out: Item[] = [];
	for (const b of blocks) {
		const img = imageOf(b);
		if (img) images.push(img);
		else if (isRecord(b) && b.type === 'tool_result') {
			const id = str(b.tool_use_id);
			// A result is drawn on its call; only a result with no call in the session is its own row.
			if (id === null || !known.has(id)) {
				out.push({
					type: 'notice',
					turnIndex: ti,
					status: null,
					messageId: null,
					row: {
						...base(ctx, 'n', a, ti, `:${id ?? '?'}`),
						kind: 'notice',
						noticeKind: 'orphan-result',
						title: 'Tool result without a matching call',
						text: cap(resultText(b.content)),
						markdown: false
					}
				});
			}
		} else if (!isRecord(b)) {
			out.push(rawItem(ctx, a, ti, 'Unrecognized content (not a block)', b, `:${out.length}`));
		} else if (b.type !== 'text') {
			out.push(rawItem(ctx, a, ti, `Unrecognized content block: ${String(b.type)}`, b, `:${out.length}`));
		}
	}
	if (!text.trim() && !images.length) return out;

	if (INTERRUPT_RE.test(text.trim())) {
		out.unshift({
			type: 'notice',
			turnIndex: ti,
			status: null,
			messageId: null,
			row: { ...base(ctx, 'n', a, ti), kind: 'notice', noticeKind: 'interrupt', title: 'Interrupted', text: text.trim(), markdown: false }
		});
		return out;
	}
	const author = authorView(a);
	if (author.kind === 'system') {
		out.unshift({
			type: 'notice',
			turnIndex: ti,
			status: null,
			messageId: null,
			row: { ...base(ctx, 'n', a, ti), kind: 'notice', noticeKind: 'system', title: a.speaker ?? systemTitle(text), text, markdown: false }
		});
		return out;
	}
	out.unshift({
		type: 'prompt',
		turnIndex: ti,
		status: null,
		messageId: null,
		row: {
			...base(ctx, 'u', a, ti),
			kind: 'user',
			author,
			text,
			images,
			command: typeof a.command === 'string' ? a.command : null,
			absorbed: a.absorbed === true,
			rompAuto: a.rompAuto === true
		}
	});
	return out;
}

function rawItem(ctx: ItemContext, a: Atom, ti: number, title: string, value: unknown, suffix = ''): Item {
	return {
		type: 'raw',
		turnIndex: ti,
		status: null,
		messageId: null,
		row: { ...base(ctx, 'r', a, ti, suffix), kind: 'raw', title, json: toJson(value) }
	};
}

function assistantItems(
	ctx: ItemContext,
	a: Atom,
	ti: number,
	results: Map<string, PairedResult>,
	turnOver: boolean
): Item[] {
	const blocks = blocksOf(a);
	const messageId = a.messageId ?? null;
	if (a.isApiError) {
		const text = textOf(blocks) || 'API error';
		return [
			{
				type: 'error',
				turnIndex: ti,
				status: 'error',
				messageId,
				row: {
					...base(ctx, 'e', a, ti),
					kind: 'error',
					defaultOpen: true,
					errorKind: 'api',
					tone: RATE_LIMIT_RE.test(text) || a.apiErrorStatus === 429 ? 'warning' : 'alert',
					status: typeof a.apiErrorStatus === 'number' ? a.apiErrorStatus : null,
					text
				}
			}
		];
	}
	if (typeof a.skillMd === 'string') {
		const title = firstLine(a.skillMd.replace(/^Base directory for this skill:.*$/m, ''), 100) || 'Skill instructions';
		return [
			{
				type: 'notice',
				turnIndex: ti,
				status: null,
				messageId,
				row: { ...base(ctx, 'n', a, ti), kind: 'notice', noticeKind: 'skill', title: `Loaded skill: ${title}`, text: a.skillMd, markdown: true }
			}
		];
	}
	if (a.command === true) {
		const text = textOf(blocks);
		return [
			{
				type: 'notice',
				turnIndex: ti,
				status: null,
				messageId,
				row: { ...base(ctx, 'n', a, ti), kind: 'notice', noticeKind: 'command-output', title: firstLine(text, 100) || 'Command output', text, markdown: false }
			}
		];
	}
	const out: Item[] = [];
	blocks.forEach((b, i) => {
		if (!isRecord(b)) {
			out.push(rawItem(ctx, a, ti, 'Unrecognized content block', b, `:${i}`));
			return;
		}
		const suffix = i === 0 ? '' : `:${i}`;
		if (b.type === 'text') {
			const text = str(b.text) ?? '';
			if (!text.trim()) return;
			out.push({
				type: 'prose',
				turnIndex: ti,
				status: null,
				messageId,
				row: {
					...base(ctx, 'a', a, ti, suffix),
					kind: 'assistant',
					defaultOpen: true,
					text,
					model: a.message?.model ?? null,
					orphaned: a.orphaned === true
				}
			});
		} else if (b.type === 'thinking' || b.type === 'redacted_thinking') {
			const text = b.type === 'thinking' ? (str(b.thinking) ?? '') : '';
			const state = b.type === 'redacted_thinking' ? 'redacted' : text.trim() ? 'text' : 'empty';
			out.push({
				type: 'thinking',
				turnIndex: ti,
				status: null,
				messageId,
				row: { ...base(ctx, 'th', a, ti, suffix), kind: 'thinking', state, text, preview: lastLine(text), durationMs: null }
			});
		} else if (b.type === 'tool_use') {
			const id = str(b.id);
			out.push(callItems(ctx, a, ti, b, id !== null ? (results.get(id) ?? null) : null, turnOver));
		} else {
			out.push(rawItem(ctx, a, ti, `Unrecognized content block: ${String(b.type)}`, b, `:${i}`));
		}
	});
	if (a.message?.stop_reason === 'refusal') {
		out.push({
			type: 'error',
			turnIndex: ti,
			status: 'error',
			messageId,
			row: {
				...base(ctx, 'e', a, ti, ':refusal'),
				kind: 'error',
				defaultOpen: true,
				errorKind: 'refusal',
				tone: 'alert',
				status: null,
				text: 'The model declined to continue (stop reason: refusal).'
			}
		});
	}
	return out;
}

function systemItems(ctx: ItemContext, a: Atom, ti: number): Item[] {
	if (a.subtype === 'compact_boundary') {
		const m = a.compact_metadata;
		return [
			{
				type: 'compaction',
				turnIndex: ti,
				status: null,
				messageId: null,
				row: {
					...base(ctx, 'c', a, ti),
					kind: 'compaction',
					trigger: m?.trigger ?? null,
					preTokens: m?.pre_tokens ?? null,
					postTokens: m?.post_tokens ?? null,
					summary: a.summary ?? null
				}
			}
		];
	}
	if (a.subtype === 'model_refusal_fallback') {
		const from = typeof a.fallback_from === 'string' && a.fallback_from ? a.fallback_from : null;
		const to = typeof a.fallback_to === 'string' && a.fallback_to ? a.fallback_to : null;
		const title = from || to ? `Model fallback: ${from ?? '?'} \u2192 ${to ?? '?'}` : 'Model fallback';
		return [
			{
				type: 'notice',
				turnIndex: ti,
				status: null,
				messageId: null,
				row: {
					...base(ctx, 'n', a, ti),
					kind: 'notice',
					noticeKind: 'model-fallback',
					title,
					text: typeof a.content === 'string' ? a.content : a.content == null ? '' : toJson(a.content),
					markdown: false
				}
			}
		];
	}
	return [rawItem(ctx, a, ti, `Unrecognized system record: ${a.subtype ?? '(no subtype)'}`, a)];
}

/** Items of one turn (in atom order), with prose split over lines of one message merged. */
export function turnItems(
	session: Session,
	ti: number,
	ctx: ItemContext,
	known: Set<string>,
	results: Map<string, PairedResult>
): Item[] {
	const turn: Turn = session.turns[ti];
	const over = turnIsOver(session, ti, ctx.sessionOver);
	const out: Item[] = [];
	for (const a of turn.atoms) {
		let items: Item[];
		if (a.type === 'idle') continue;
		else if (a.type === 'user') items = userItems(ctx, a, ti, known);
		else if (a.type === 'assistant') items = assistantItems(ctx, a, ti, results, over);
		else if (a.type === 'system') items = systemItems(ctx, a, ti);
		else items = [rawItem(ctx, a, ti, `Unrecognized atom: ${String(a.type)}`, a)];
		for (const it of items) {
			const prev = out[out.length - 1];
			if (
				it.type === 'prose' &&
				prev?.type === 'prose' &&
				it.messageId !== null &&
				prev.messageId === it.messageId &&
				prev.row.kind === 'assistant' &&
				it.row.kind === 'assistant'
			) {
				prev.row.text += `\n\n${it.row.text}`;
				for (const u of it.row.atomUuids) if (!prev.row.atomUuids.includes(u)) prev.row.atomUuids.push(u);
				continue;
			}
			out.push(it);
		}
	}
	return out;
}

/** One turn's call ids and its results (the first per call id), kept per Turn object: a live
 *  build returns unchanged turns as the same objects, so a tail rebuild reads them once. */
interface TurnIds {
	calls: Set<string>;
	results: Map<string, PairedResult>;
}
const turnIdsCache = new WeakMap<Turn, TurnIds>();
function turnIds(turn: Turn): TurnIds {
	let ids = turnIdsCache.get(turn);
	if (!ids) {
		ids = { calls: callIds({ turns: [turn] } as Session), results: pairResults({ turns: [turn] } as Session) };
		turnIdsCache.set(turn, ids);
	}
	return ids;
}

/** The ids the tail (turns from `fromTurn` on) asks about, answered over the whole session:
 *  the first result of each tail call, and which tail results have a call. The same answers as
 *  pairResults / callIds for those ids, without walking every atom of the session each time. */
function tailIds(session: Session, fromTurn: number): { known: Set<string>; results: Map<string, PairedResult> } {
	const askCalls = new Set<string>();
	const askResults = new Set<string>();
	for (let ti = fromTurn; ti < session.turns.length; ti++) {
		const ids = turnIds(session.turns[ti]);
		for (const id of ids.calls) askCalls.add(id);
		for (const id of ids.results.keys()) askResults.add(id);
	}
	const results = new Map<string, PairedResult>();
	const known = new Set<string>();
	for (const turn of session.turns) {
		if (askCalls.size === results.size && askResults.size === known.size) break;
		const ids = turnIds(turn);
		for (const id of askCalls) {
			const r = results.has(id) ? undefined : ids.results.get(id);
			if (r) results.set(id, r);
		}
		for (const id of askResults) if (ids.calls.has(id)) known.add(id);
	}
	return { known, results };
}

/** Items of a whole session, turn by turn (from `fromTurn` on: the tail a live append changed). */
export function buildItems(session: Session, ctx: ItemContext, fromTurn = 0): Item[] {
	const { results, known } = fromTurn > 0 ? tailIds(session, fromTurn) : { results: pairResults(session), known: callIds(session) };
	const out: Item[] = [];
	for (let ti = Math.max(0, fromTurn); ti < session.turns.length; ti++) out.push(...turnItems(session, ti, ctx, known, results));
	return out;
}

/** Tool calls made anywhere in a session (a subagent's step count). */
export function countToolCalls(session: Session): number {
	let n = 0;
	for (const turn of session.turns)
		for (const a of turn.atoms)
			if (a.type === 'assistant') for (const b of blocksOf(a)) if (isRecord(b) && b.type === 'tool_use') n++;
	return n;
}
