// Codex CLI rollout (one JSONL file = one thread) → the shared Session / Turn / Atom model, for
// all three line generations: G0 (bare header line + bare response items + record_type:state
// markers, no per-item times), G1 (`{timestamp, type, payload}` envelope) and G2 (same, with
// task_started / exec_command_end / thread_spawn sources and more record types).
//
// One stream, nothing twice: response_items are the model I/O; the event_msg mirrors
// (user_message, agent_message, agent_reasoning) are used only when the file has no response
// item of that kind, and otherwise placed off-path as duplicates. user_message is what marks a
// human prompt; role=user / developer items that carry injected context (AGENTS.md,
// environment_context, user_instructions, permissions) become system notices. Calls pair with
// outputs by call_id (parallel and interleaved); failures come from exit codes in the output or
// exec_command_end / patch_apply_end / mcp_tool_call_end; token_count usage goes on the model
// request it closes; `compacted` becomes a compaction; a child thread's replayed parent prefix
// (lines older than its session_meta) is off-path. Unknown record types become raw cards.
import type { FileRecords } from '../types.ts';
import { imageBlock, isObj, msOf, num, SessionDraft, str, unifiedHunks, type HarnessResult, type Obj, type PatchFile, type When } from '../harness/kit.ts';
import { canonicalCall, parseArgs, readOutput, shellBody, type CanonicalCall } from './tools.ts';

/** The spawn links of a thread: how ingest ties child rollouts to their spawning calls. */
export interface CodexLinks {
	parentThreadId: string | null;
	/** The parent's call that spawned this thread, when the child records it. */
	spawnCallId: string | null;
	/** This thread's spawn_agent calls, with the thread each started when an event says so. */
	spawns: { callId: string; threadId: string | null; nickname: string | null }[];
	nickname: string | null;
	role: string | null;
}

export interface CodexResult extends HarnessResult {
	links: CodexLinks;
}

const INJECTED: [RegExp, string][] = [
	[/^<environment_context>/, 'Environment context'],
	[/^<user_instructions>/, 'User instructions'],
	[/^# AGENTS\.md instructions/, 'AGENTS.md instructions'],
	[/^<INSTRUCTIONS>/, 'Instructions'],
	[/^<permissions instructions>/, 'Permissions'],
	[/^<developer_instructions>/, 'Developer instructions'],
	[/^<collaboration_mode>/, 'Collaboration mode'],
	[/^<skills?[\s>_]/, 'Skills'],
	[/^<turn_aborted>/, 'Turn aborted'],
	[/^<user_shell_command>/, 'Shell command'],
	[/^<subagent_notification>/, 'Sub-agent notification']
];

/** The label of injected context, or null for text a person typed. */
export function injectedLabel(text: string): string | null {
	const t = text.trimStart();
	for (const [re, label] of INJECTED) if (re.test(t)) return label;
	return null;
}

/** event_msg types that only restate rows or carry settings: bookkeeping, no card. */
const QUIET_EVENTS = new Set([
	'task_started', 'task_complete', 'context_compacted', 'thread_name_updated', 'thread_goal_updated', 'item_completed',
	'sub_agent_activity', 'thread_settings_applied', 'token_count', 'exec_command_begin', 'patch_apply_begin',
	'mcp_tool_call_begin', 'web_search_begin', 'web_search_end', 'image_generation_end', 'view_image_tool_call',
	'collab_agent_interaction_end', 'collab_waiting_end', 'collab_close_end', 'guardian_assessment',
	'dynamic_tool_call_request', 'dynamic_tool_call_response', 'undo_completed', 'thread_rolled_back', 'collab_tool_call',
	'collab_agent_spawn_end', 'exec_command_end', 'patch_apply_end', 'mcp_tool_call_end', 'agent_reasoning_section_break'
]);
const QUIET_TYPES = new Set(['turn_context', 'world_state', 'inter_agent_communication', 'inter_agent_communication_metadata']);
const QUIET_ITEMS = new Set(['ghost_snapshot', 'compaction', 'compaction_summary', 'context_compaction', 'additional_tools']);

interface Rec {
	line: number;
	when: When;
	/** 'item' = a ResponseItem; 'event' = event_msg; others are envelope record types. */
	kind: string;
	p: Obj;
}

function normalize(fr: FileRecords): { recs: Rec[]; header: Obj | null } {
	const out: Rec[] = [];
	let header: Obj | null = null;
	for (const r of fr.records) {
		const v = r.value;
		if (typeof v.type === 'string' && isObj(v.payload)) {
			const kind = v.type === 'response_item' ? 'item' : v.type === 'event_msg' ? 'event' : v.type;
			out.push({ line: r.line, when: msOf(v.timestamp), kind, p: v.payload });
		} else if (header === null && out.length === 0 && typeof v.id === 'string' && !('type' in v)) {
			header = v;
			out.push({ line: r.line, when: msOf(v.timestamp), kind: 'session_meta', p: v });
		} else if ('record_type' in v) {
			out.push({ line: r.line, when: null, kind: 'state', p: v });
		} else if (typeof v.type === 'string') {
			out.push({ line: r.line, when: msOf(v.timestamp), kind: 'item', p: v });
		} else out.push({ line: r.line, when: msOf(v.timestamp), kind: 'unknown', p: v });
	}
	return { recs: out, header };
}

function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content.filter(isObj).map((c) => (typeof c.text === 'string' ? c.text : '')).filter(Boolean).join('\n');
}

function contentImages(content: unknown): string[] {
	if (!Array.isArray(content)) return [];
	return content.filter(isObj).map((c) => str(c.image_url)).filter((u): u is string => !!u);
}

function usageOf(info: unknown): Obj | null {
	if (!isObj(info)) return null;
	const last = isObj(info.last_token_usage) ? info.last_token_usage : null;
	if (!last) return null;
	const input = num(last.input_tokens) ?? 0;
	const cached = num(last.cached_input_tokens) ?? 0;
	// Codex counts cached input inside input_tokens; the model's usage keeps them apart.
	return {
		input_tokens: Math.max(0, input - cached),
		cache_read_input_tokens: cached,
		output_tokens: num(last.output_tokens) ?? 0,
		...(num(last.reasoning_output_tokens) !== null ? { reasoning_output_tokens: last.reasoning_output_tokens } : {}),
		...(num(info.model_context_window) !== null ? { context_window: info.model_context_window } : {})
	};
}

/** patch_apply_end recorded the applied unified diff per path: give each patch file its real hunks. */
function withAppliedDiffs(files: PatchFile[], changes: Obj): PatchFile[] {
	return files.map((f) => {
		const key = Object.keys(changes).find((k) => k === f.filePath || k.endsWith(`/${f.filePath}`));
		const ch = key ? changes[key] : null;
		const hunks = isObj(ch) && typeof ch.unified_diff === 'string' ? unifiedHunks(ch.unified_diff) : null;
		return hunks ? { ...f, structuredPatch: hunks } : f;
	});
}

export function parseCodex(fr: FileRecords): CodexResult {
	const { recs } = normalize(fr);
	const metaRec = recs.find((r) => r.kind === 'session_meta');
	const meta = metaRec?.p ?? {};
	const id = str(meta.id) ?? str(meta.session_id) ?? fr.file.replace(/^.*\//, '').replace(/\.jsonl?$/, '');
	const d = new SessionDraft(id, fr.file);
	for (const i of fr.issues) {
		if (i.line !== null) d.bad(i.line, i.kind, i.message);
		else d.warn(null, i.kind, i.message);
	}
	for (let i = 0; i < fr.lines; i++) d.countLine();

	const source = meta.source;
	const spawnInfo = isObj(source) && isObj(source.subagent) && isObj(source.subagent.thread_spawn) ? source.subagent.thread_spawn : null;
	const links: CodexLinks = {
		parentThreadId: str(spawnInfo?.parent_thread_id) ?? str(meta.parent_thread_id),
		spawnCallId: str(spawnInfo?.spawn_call_id) ?? null,
		spawns: [],
		nickname: str(spawnInfo?.agent_nickname) ?? str(meta.agent_nickname),
		role: str(spawnInfo?.agent_role) ?? str(meta.agent_role)
	};
	const startMs = metaRec ? (msOf(meta.timestamp) ?? metaRec.when) : null;

	// Which stream carries each kind (see the header).
	const hasUserEvents = recs.some((r) => r.kind === 'event' && r.p.type === 'user_message');
	const hasAssistantItems = recs.some((r) => r.kind === 'item' && r.p.type === 'message' && r.p.role === 'assistant');
	const hasReasoningItems = recs.some((r) => r.kind === 'item' && r.p.type === 'reasoning');
	const ends = new Map<string, Obj>();
	const endRecs = new Map<Obj, Rec>();
	for (const r of recs) {
		if (r.kind === 'event' && typeof r.p.call_id === 'string' && (/_end$/.test(String(r.p.type)) || 'new_thread_id' in r.p)) {
			ends.set(r.p.call_id, r.p);
			endRecs.set(r.p, r);
		}
	}

	let model: string | null = null;
	let firstModel: string | null = null;
	let lastAssistant: ReturnType<SessionDraft['assistant']> | null = null;
	let request = 0;
	let ended = false;
	const calls = new Map<string, { call: CanonicalCall; line: number; answered: boolean }>();
	let first = true;

	const assistant = (blocks: Obj[], r: Rec) => {
		lastAssistant = d.assistant(blocks as never, { when: r.when, line: r.line, model, messageId: `${id}:req${request}` });
		return lastAssistant;
	};
	const addCall = (r: Rec, callId: string, call: CanonicalCall, harnessTool: string) => {
		calls.set(callId, { call, line: r.line, answered: false });
		if (call.kind === 'spawn') links.spawns.push({ callId, threadId: str(ends.get(callId)?.new_thread_id) ?? null, nickname: str(ends.get(callId)?.new_agent_nickname) });
		assistant([{ type: 'tool_use', id: callId, name: call.name, input: call.input, harnessTool }], r);
	};
	const answer = (r: Rec, callId: string, output: unknown) => {
		const c = calls.get(callId);
		const read = readOutput(output);
		const end = ends.get(callId);
		let isError = read.error;
		let exitCode = read.exitCode;
		if (end) {
			const ec = num(end.exit_code);
			if (ec !== null) exitCode = ec;
			if (ec !== null && ec !== 0) isError = true;
			if (end.success === false || (isObj(end.result) && 'Err' in end.result) || end.status === 'failed') isError = true;
		}
		const tur: Obj = { ...(c?.call.resultBase ?? {}) };
		if (!c || c.call.kind === 'shell') {
			tur.stdout = end && typeof end.stdout === 'string' && end.stdout !== '' ? end.stdout : shellBody(read.text);
			if (end && typeof end.stderr === 'string' && end.stderr) tur.stderr = end.stderr;
		}
		if (exitCode !== null) tur.exitCode = exitCode;
		if (end && isObj(end.changes) && Array.isArray(tur.files)) tur.files = withAppliedDiffs(tur.files as PatchFile[], end.changes);
		const content: unknown[] = [{ type: 'text', text: read.text }];
		for (const u of read.images) {
			const img = imageBlock(u);
			if (img) content.push(img);
		}
		if (c) c.answered = true;
		d.result(callId, content, isError, { when: r.when, line: r.line, toolUseResult: tur });
	};

	for (const r of recs) {
		const p = r.p;
		// A child thread replays its parent's prefix with older times before its own first turn.
		if (links.parentThreadId && startMs !== null && r.when !== null && r.when < startMs && r.kind !== 'session_meta') {
			d.off(r.line, 'replay');
			continue;
		}
		switch (r.kind) {
			case 'session_meta':
				d.meta(r.line, first ? 'session_meta' : 'session_meta:copied', r.when);
				first = false;
				continue;
			case 'state':
				d.meta(r.line, 'record_type:state', null, undefined, 'flush marker');
				continue;
			case 'turn_context':
				model = str(p.model) ?? model;
				firstModel ??= model;
				d.meta(r.line, 'turn_context', r.when);
				continue;
			case 'compacted': {
				const msg = str(p.message);
				d.compaction(msg && msg.trim() ? msg : null, { when: r.when, line: r.line, trigger: 'auto' });
				continue;
			}
			case 'event':
				handleEvent(r);
				continue;
			case 'item':
				handleItem(r);
				continue;
			default:
				if (QUIET_TYPES.has(r.kind)) d.meta(r.line, r.kind, r.when);
				else d.meta(r.line, r.kind === 'unknown' ? '(record without type)' : r.kind, r.when, r.kind === 'unknown' ? p : { type: r.kind, payload: p });
		}
	}

	function handleEvent(r: Rec) {
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
				if (label) d.user(blocks as never, 'system', { when: r.when, line: r.line, speaker: label });
				else d.user(blocks as never, 'human', { when: r.when, line: r.line });
				request++;
				return;
			}
			case 'agent_message':
				if (hasAssistantItems) d.off(r.line, 'duplicate:agent_message');
				else assistant([{ type: 'text', text: str(p.message) ?? '', ...(p.phase ? { phase: p.phase } : {}) }], r);
				return;
			case 'agent_reasoning':
			case 'agent_reasoning_raw_content':
				if (hasReasoningItems) d.off(r.line, `duplicate:${type}`);
				else assistant([{ type: 'thinking', thinking: str(p.text) ?? '' }], r);
				return;
			case 'token_count': {
				const usage = usageOf(p.info);
				const target = lastAssistant as ReturnType<SessionDraft['assistant']> | null;
				if (usage && target?.message && target.messageId === `${id}:req${request}`) target.message.usage = usage;
				if (usage) request++;
				d.meta(r.line, 'event_msg:token_count', r.when);
				return;
			}
			case 'turn_aborted':
				d.interrupt(str(p.reason), { when: r.when, line: r.line });
				return;
			case 'error':
			case 'stream_error':
				d.error(str(p.message) ?? 'Codex reported an error', { when: r.when, line: r.line });
				return;
			case 'task_complete':
				ended = true;
				d.meta(r.line, 'event_msg:task_complete', r.when);
				return;
			case 'entered_review_mode':
				d.user([{ type: 'text', text: str(p.user_facing_hint) ?? 'Review started' }], 'system', { when: r.when, line: r.line, speaker: 'Review started' });
				return;
			case 'exited_review_mode': {
				const out = isObj(p.review_output) ? p.review_output : {};
				const findings = Array.isArray(out.findings) ? out.findings.filter(isObj).map((f) => `- ${str(f.title) ?? ''} ${str(f.body) ?? ''}`.trim()) : [];
				const text = [str(out.overall_explanation) ?? '', ...findings].filter(Boolean).join('\n') || 'Review finished';
				d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: 'Review findings' });
				return;
			}
			default:
				if (QUIET_EVENTS.has(type)) d.meta(r.line, `event_msg:${type}`, r.when);
				else d.meta(r.line, `event_msg:${type || '?'}`, r.when, { type: 'event_msg', payload: p });
		}
	}

	function handleItem(r: Rec) {
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
					assistant(blocks as Obj[], r);
					return;
				}
				const label = role === 'developer' || role === 'system' ? (injectedLabel(text) ?? 'Developer instructions') : injectedLabel(text);
				if (label) {
					d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: label });
					return;
				}
				if (hasUserEvents) {
					d.off(r.line, 'duplicate:user_message');
					return;
				}
				const blocks: Obj[] = text ? [{ type: 'text', text }] : [];
				for (const u of contentImages(p.content)) {
					const img = imageBlock(u);
					if (img) blocks.push(img as Obj);
				}
				d.user(blocks as never, 'human', { when: r.when, line: r.line });
				request++;
				return;
			}
			case 'reasoning': {
				const summary = Array.isArray(p.summary) ? p.summary.filter(isObj).map((s) => str(s.text) ?? '').filter(Boolean).join('\n\n') : '';
				const raw = contentText(p.content);
				const text = summary || raw;
				// Encrypted reasoning is opaque: a redacted block, never its bytes.
				assistant([text ? { type: 'thinking', thinking: text } : { type: 'redacted_thinking' }], r);
				return;
			}
			case 'function_call': {
				const name = str(p.name) ?? '(unnamed)';
				const callId = str(p.call_id) ?? `${id}:call:${r.line}`;
				addCall(r, callId, canonicalCall(name, parseArgs(p.arguments)), name);
				return;
			}
			case 'custom_tool_call': {
				const name = str(p.name) ?? '(unnamed)';
				const callId = str(p.call_id) ?? `${id}:call:${r.line}`;
				const input = typeof p.input === 'string' ? p.input : p.input ?? '';
				addCall(r, callId, name === 'apply_patch' ? canonicalCall(name, input) : { name, input: typeof input === 'string' ? { input } : input, kind: 'other' }, name);
				return;
			}
			case 'local_shell_call': {
				const action = isObj(p.action) ? p.action : {};
				const callId = str(p.call_id) ?? `${id}:call:${r.line}`;
				addCall(r, callId, canonicalCall('local_shell', { command: action.command, workdir: action.working_directory }), 'local_shell_call');
				return;
			}
			case 'tool_search_call': {
				const callId = str(p.call_id) ?? `${id}:call:${r.line}`;
				const args = parseArgs(p.arguments);
				const q = isObj(args) ? (str(args.query) ?? JSON.stringify(args)) : String(args ?? '');
				addCall(r, callId, { name: 'ToolSearch', input: { query: q }, kind: 'other' }, 'tool_search_call');
				return;
			}
			case 'web_search_call': {
				const action = isObj(p.action) ? p.action : {};
				const callId = str(p.id) ?? `${id}:web:${r.line}`;
				const query = str(action.query) ?? (Array.isArray(action.queries) ? action.queries.join(' | ') : null);
				const url = str(action.url);
				const call: CanonicalCall = query !== null || !url ? { name: 'WebSearch', input: { query: query ?? '' }, kind: 'other' } : { name: 'WebFetch', input: { url, ...(str(action.pattern) ? { prompt: action.pattern } : {}) }, kind: 'other' };
				addCall(r, callId, call, 'web_search_call');
				// Self-contained: the call records its own outcome (no output item follows).
				const status = str(p.status) ?? 'completed';
				d.result(callId, [{ type: 'text', text: `${String(action.type ?? 'search')} ${status}` }], status === 'failed', { when: r.when, line: r.line });
				return;
			}
			case 'image_generation_call': {
				const callId = str(p.id) ?? `${id}:img:${r.line}`;
				addCall(r, callId, { name: 'image_generation', input: { prompt: str(p.revised_prompt) ?? '' }, kind: 'other' }, type);
				const b64 = str(p.result);
				d.result(callId, b64 ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: b64 } }] : [{ type: 'text', text: str(p.status) ?? '' }], p.status === 'failed', { when: r.when, line: r.line });
				return;
			}
			case 'function_call_output':
			case 'custom_tool_call_output':
			case 'tool_search_output': {
				const callId = str(p.call_id);
				if (!callId) {
					d.meta(r.line, `response_item:${type}`, r.when, p);
					return;
				}
				answer(r, callId, type === 'tool_search_output' ? { text: JSON.stringify(p.tools ?? []) } : p.output);
				return;
			}
			case 'agent_message': {
				const text = contentText(p.content);
				d.user([{ type: 'text', text }], 'system', { when: r.when, line: r.line, speaker: `Message from ${str(p.author) ?? 'another agent'}` });
				return;
			}
			default:
				if (QUIET_ITEMS.has(type)) d.meta(r.line, `response_item:${type}`, r.when);
				else d.meta(r.line, `response_item:${type || '?'}`, r.when, { type: 'response_item', payload: p });
		}
	}

	// A call whose output item never came but whose end event did: the event is its result.
	for (const [callId, c] of calls) {
		if (c.answered) continue;
		const end = ends.get(callId);
		if (!end) continue;
		const rec = endRecs.get(end);
		if (!rec) continue;
		const out = str(end.aggregated_output) ?? str(end.formatted_output) ?? str(end.stdout) ?? '';
		answer(rec, callId, out);
	}

	// A 2026 rollout says when a turn is still running (task_started without task_complete).
	const lastStart = recs.findLast((r) => r.kind === 'event' && r.p.type === 'task_started')?.line ?? -1;
	const lastDone = recs.findLast((r) => r.kind === 'event' && (r.p.type === 'task_complete' || r.p.type === 'turn_aborted'))?.line ?? -1;
	const base = d.finish({ endedAtEof: ended || lastStart <= lastDone });
	const span = d.span();
	return {
		...base,
		harness: 'codex',
		children: {},
		links,
		info: {
			id,
			cwd: str(meta.cwd),
			model: firstModel,
			startedAt: startMs ?? span.first,
			endedAt: span.last ?? startMs,
			title: null,
			parentId: links.parentThreadId
		}
	};
}
