// One tool call → one chat item: a delegation (subagent), a question, a plan approval, or a
// plain tool call. Which one is tools.ts's decision (classifyTool); this file fills the row.
import type { Atom } from '../../model/types';
import { isRecord, num, resultText, str } from './content';
import { atomMs, type Item, type ItemContext } from './item-base';
import { buildCallView, classifyTool, type PairedResult } from './tools';
import type { DelegationRow, QuestionRow, QuestionView } from './types';

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

export function callItems(
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
