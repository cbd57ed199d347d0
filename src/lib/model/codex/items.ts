// Codex response_item records → the session draft: messages (human, injected context, the
// assistant's), reasoning, every kind of tool call and its output. Calls are mapped onto the
// canonical tool names by tools.ts.
import { imageBlock, isObj, str, type Obj } from '../harness/kit.ts';
import { contentImages, contentText, injectedLabel, QUIET_ITEMS, type Rec } from './records.ts';
import type { CodexThread } from './thread.ts';
import { canonicalCall, parseArgs, type CanonicalCall } from './tools.ts';

export function handleItem(t: CodexThread, r: Rec): void {
	const p = r.p;
	const type = String(p.type ?? '');
	switch (type) {
		case 'message': {
			const role = str(p.role);
			const text = contentText(p.content);
			if (role === 'assistant') {
				const blocks = Array.isArray(p.content)
					? p.content.filter(isObj).filter((c) => typeof c.text === 'string').map((c) => ({ type: 'text', text: c.text, ...(p.phase ? { phase: p.phase } : {}) }))
					: [{ type: 'text', text }];
				t.assistant(blocks as Obj[], r);
				return;
			}
			const label = role === 'developer' || role === 'system' ? (injectedLabel(text) ?? 'Developer instructions') : injectedLabel(text);
			if (label) {
				t.d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: label });
				return;
			}
			if (t.hasUserEvents) {
				t.d.off(r.line, 'duplicate:user_message');
				return;
			}
			const blocks: Obj[] = text ? [{ type: 'text', text }] : [];
			for (const u of contentImages(p.content)) {
				const img = imageBlock(u);
				if (img) blocks.push(img as Obj);
			}
			t.d.user(blocks as never, 'human', { when: r.when, line: r.line });
			t.request++;
			return;
		}
		case 'reasoning': {
			const summary = Array.isArray(p.summary) ? p.summary.filter(isObj).map((s) => str(s.text) ?? '').filter(Boolean).join('\n\n') : '';
			const raw = contentText(p.content);
			const text = summary || raw;
			// Encrypted reasoning is opaque: a redacted block, never its bytes.
			t.assistant([text ? { type: 'thinking', thinking: text } : { type: 'redacted_thinking' }], r);
			return;
		}
		case 'function_call': {
			const name = str(p.name) ?? '(unnamed)';
			const callId = str(p.call_id) ?? `${t.id}:call:${r.line}`;
			t.addCall(r, callId, canonicalCall(name, parseArgs(p.arguments)), name);
			return;
		}
		case 'custom_tool_call': {
			const name = str(p.name) ?? '(unnamed)';
			const callId = str(p.call_id) ?? `${t.id}:call:${r.line}`;
			const input = typeof p.input === 'string' ? p.input : p.input ?? '';
			t.addCall(r, callId, name === 'apply_patch' ? canonicalCall(name, input) : { name, input: typeof input === 'string' ? { input } : input, kind: 'other' }, name);
			return;
		}
		case 'local_shell_call': {
			const action = isObj(p.action) ? p.action : {};
			const callId = str(p.call_id) ?? `${t.id}:call:${r.line}`;
			t.addCall(r, callId, canonicalCall('local_shell', { command: action.command, workdir: action.working_directory }), 'local_shell_call');
			return;
		}
		case 'tool_search_call': {
			const callId = str(p.call_id) ?? `${t.id}:call:${r.line}`;
			const args = parseArgs(p.arguments);
			const q = isObj(args) ? (str(args.query) ?? JSON.stringify(args)) : String(args ?? '');
			t.addCall(r, callId, { name: 'ToolSearch', input: { query: q }, kind: 'other' }, 'tool_search_call');
			return;
		}
		case 'web_search_call': {
			const action = isObj(p.action) ? p.action : {};
			const callId = str(p.id) ?? `${t.id}:web:${r.line}`;
			const query = str(action.query) ?? (Array.isArray(action.queries) ? action.queries.join(' | ') : null);
			const url = str(action.url);
			const call: CanonicalCall = query !== null || !url ? { name: 'WebSearch', input: { query: query ?? '' }, kind: 'other' } : { name: 'WebFetch', input: { url, ...(str(action.pattern) ? { prompt: action.pattern } : {}) }, kind: 'other' };
			t.addCall(r, callId, call, 'web_search_call');
			// Self-contained: the call records its own outcome (no output item follows).
			const status = str(p.status) ?? 'completed';
			t.d.result(callId, [{ type: 'text', text: `${String(action.type ?? 'search')} ${status}` }], status === 'failed', { when: r.when, line: r.line });
			return;
		}
		case 'image_generation_call': {
			const callId = str(p.id) ?? `${t.id}:img:${r.line}`;
			t.addCall(r, callId, { name: 'image_generation', input: { prompt: str(p.revised_prompt) ?? '' }, kind: 'other' }, type);
			const b64 = str(p.result);
			t.d.result(callId, b64 ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } }] : [{ type: 'text', text: str(p.status) ?? '' }], p.status === 'failed', { when: r.when, line: r.line });
			return;
		}
		case 'function_call_output':
		case 'custom_tool_call_output':
		case 'tool_search_output': {
			const callId = str(p.call_id);
			if (!callId) {
				t.d.meta(r.line, `response_item:${type}`, r.when, p);
				return;
			}
			t.answer(r, callId, type === 'tool_search_output' ? { text: JSON.stringify(p.tools ?? []) } : p.output);
			return;
		}
		case 'agent_message': {
			const text = contentText(p.content);
			t.d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: `Message from ${str(p.author) ?? 'another agent'}` });
			return;
		}
		default:
			if (QUIET_ITEMS.has(type)) t.d.meta(r.line, `response_item:${type}`, r.when);
			else t.d.meta(r.line, `response_item:${type || '?'}`, r.when, { type: 'response_item', payload: p });
	}
}
