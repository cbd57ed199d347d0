// Codex event_msg records → the session draft: prompts, the assistant's mirrors (used only when
// no response item of that kind exists), token usage on the request it closes, interrupts,
// errors, review mode. Bookkeeping events become metadata.
import { imageBlock, isObj, str, type Obj } from '../harness/kit.ts';
import { injectedLabel, QUIET_EVENTS, usageOf, type Rec } from './records.ts';
import type { CodexThread } from './thread.ts';

export function handleEvent(t: CodexThread, r: Rec): void {
	const p = r.p;
	const type = String(p.type ?? '');
	switch (type) {
		case 'user_message': {
			const text = str(p.message) ?? '';
			const blocks: Obj[] = text ? [{ type: 'text', text }] : [];
			for (const u of Array.isArray(p.images) ? p.images : []) {
				const img = typeof u === 'string' ? imageBlock(u) : null;
				if (img) blocks.push(img as Obj);
			}
			const label = injectedLabel(text);
			if (label) t.d.user(blocks as never, 'system', { when: r.when, line: r.line, speaker: label });
			else t.d.user(blocks as never, 'human', { when: r.when, line: r.line });
			t.request++;
			return;
		}
		case 'agent_message':
			if (t.hasAssistantItems) t.d.off(r.line, 'duplicate:agent_message');
			else t.assistant([{ type: 'text', text: str(p.message) ?? '', ...(p.phase ? { phase: p.phase } : {}) }], r);
			return;
		case 'agent_reasoning':
		case 'agent_reasoning_raw_content':
			if (t.hasReasoningItems) t.d.off(r.line, `duplicate:${type}`);
			else t.assistant([{ type: 'thinking', thinking: str(p.text) ?? '' }], r);
			return;
		case 'token_count': {
			const usage = usageOf(p.info);
			const target = t.lastAssistant;
			if (usage && target?.message && target.messageId === `${t.id}:req${t.request}`) target.message.usage = usage;
			if (usage) t.request++;
			t.d.meta(r.line, 'event_msg:token_count', r.when);
			return;
		}
		case 'turn_aborted':
			t.d.interrupt(str(p.reason), { when: r.when, line: r.line });
			return;
		case 'error':
		case 'stream_error':
			t.d.error(str(p.message) ?? 'Codex reported an error', { when: r.when, line: r.line });
			return;
		case 'task_complete':
			t.ended = true;
			t.d.meta(r.line, 'event_msg:task_complete', r.when);
			return;
		case 'entered_review_mode':
			t.d.user([{ type: 'text', text: str(p.user_facing_hint) ?? 'Review started' }], 'system', { when: r.when, line: r.line, speaker: 'Review started' });
			return;
		case 'exited_review_mode': {
			const out = isObj(p.review_output) ? p.review_output : {};
			const findings = Array.isArray(out.findings) ? out.findings.filter(isObj).map((f) => `- ${str(f.title) ?? ''} ${str(f.body) ?? ''}`.trim()) : [];
			const text = [str(out.overall_explanation) ?? '', ...findings].filter(Boolean).join('\n') || 'Review finished';
			t.d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: 'Review findings' });
			return;
		}
		default:
			if (QUIET_EVENTS.has(type)) t.d.meta(r.line, `event_msg:${type}`, r.when);
			else t.d.meta(r.line, `event_msg:${type || '?'}`, r.when, { type: 'event_msg', payload: p });
	}
}
