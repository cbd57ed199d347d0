// One atom → its chat items: a user line (prompt, interrupt, system notice, stray results), an
// assistant line (prose, thinking, tool calls, API errors, skills, command output, refusals) or
// a system record (compaction, model fallback). Unknown shapes become raw rows, never dropped.
import type { Atom } from '../../model/types';
import { cap, firstLine, imageOf, isRecord, lastLine, resultText, str, toJson } from './content';
import { authorView, base, blocksOf, rawItem, textOf, type Item, type ItemContext } from './item-base';
import { callItems } from './item-calls';
import type { PairedResult } from './tools';
import type { ImageRef } from './types';

const INTERRUPT_RE = /^\[Request interrupted by user/;
const RATE_LIMIT_RE = /rate.?limit|usage limit|quota|429/i;

function systemTitle(text: string): string {
	if (/^\s*<task-notification/.test(text)) return 'Task notification';
	if (/^\s*<system-reminder/.test(text)) return 'System reminder';
	return 'System message';
}

export function userItems(ctx: ItemContext, a: Atom, ti: number, known: Set<string>): Item[] {
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

export function assistantItems(
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

export function systemItems(ctx: ItemContext, a: Atom, ti: number): Item[] {
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
