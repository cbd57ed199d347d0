// Gemini CLI chat recordings → the shared Session / Turn / Atom model: the legacy whole-file JSON
// ConversationRecord (≤ v0.38) and the append-only JSONL (v0.39+): a header line; a re-appended
// message id replaces its copy (first-seen order kept); `{"$set": {...}}` merges into the header
// (with `messages` it replaces the list, as chat compression does: dropped messages stay visible
// before the compaction); `{"$rewindTo": id}` drops that message and the rest (off-path).
// Messages: user → a prompt (a functionResponse-only message is tool results, dropped when the
// call carries them; `<state_snapshot>` is a compaction summary); gemini → an assistant atom with
// thinking, text and a canonical tool_use per toolCalls[] entry, then a result per finished call
// (error / cancelled = failed), tokens as usage; info / warning → notices, error → an error row.
// Records it cannot place are raw cards; superseded and rewound copies are off-path.
import type { ContentBlock, FileRecords } from '../types.ts';
import { imageBlock, isObj, msOf, num, plainText, SessionDraft, str, type HarnessResult, type Obj, type When } from '../harness/kit.ts';

interface Msg {
	m: Obj;
	line: number;
}

export interface GeminiResult extends HarnessResult {
	/** The recording's own kind ('main' | 'subagent' | …) and the sub-agent ids its calls name. */
	kind: string | null;
	agentCalls: { callId: string; agentId: string | null }[];
}

const DELEGATING = new Set(['delegate_to_agent', 'codebase_investigator', 'subagent', 'run_subagent', 'invoke_agent']);

function canonical(name: string, args: unknown, agentId: string | null): { name: string; input: unknown } {
	const a = isObj(args) ? args : {};
	const path = str(a.absolute_path) ?? str(a.file_path) ?? str(a.path) ?? str(a.dir_path);
	if (agentId || DELEGATING.has(name)) {
		const prompt = str(a.prompt) ?? str(a.objective) ?? str(a.task) ?? str(a.query) ?? JSON.stringify(a);
		return { name: 'Task', input: { description: str(a.description) ?? str(a.agent_name) ?? name, prompt, subagent_type: str(a.agent_name) ?? name } };
	}
	switch (name) {
		case 'run_shell_command':
			return { name: 'Bash', input: { command: str(a.command) ?? '', ...(str(a.description) ? { description: a.description } : {}) } };
		case 'read_file':
			return { name: 'Read', input: { file_path: path ?? '' } };
		case 'read_many_files':
			return { name: 'Read', input: { file_path: Array.isArray(a.paths) ? a.paths.join(', ') : (path ?? '') } };
		case 'list_directory':
			return { name: 'LS', input: { path: path ?? '' } };
		case 'glob':
			return { name: 'Glob', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'search_file_content':
		case 'grep_search':
		case 'grep':
			return { name: 'Grep', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'replace':
		case 'edit':
			return { name: 'Edit', input: { file_path: path ?? '', old_string: str(a.old_string) ?? '', new_string: str(a.new_string) ?? '' } };
		case 'write_file':
			return { name: 'Write', input: { file_path: path ?? '', content: str(a.content) ?? '' } };
		case 'web_fetch':
			return { name: 'WebFetch', input: { url: str(a.url) ?? str(a.prompt) ?? '' } };
		case 'google_web_search':
		case 'web_search':
			return { name: 'WebSearch', input: { query: str(a.query) ?? '' } };
		case 'write_todos': {
			const todos = Array.isArray(a.todos) ? a.todos.filter(isObj).map((t) => ({ content: str(t.description) ?? str(t.content) ?? '', status: str(t.status) ?? 'pending' })) : [];
			return { name: 'TodoWrite', input: { todos } };
		}
		default:
			return { name, input: args ?? {} };
	}
}

function partsOf(content: unknown): unknown[] {
	if (Array.isArray(content)) return content;
	if (content === undefined || content === null || content === '') return [];
	return [content];
}

function responseText(parts: unknown[]): { text: string; error: boolean } {
	let error = false;
	const out: string[] = [];
	for (const p of parts) {
		if (!isObj(p)) continue;
		const fr = isObj(p.functionResponse) ? p.functionResponse : null;
		if (fr) {
			const resp = isObj(fr.response) ? fr.response : {};
			if ('error' in resp) error = true;
			const v = resp.output ?? resp.error ?? resp.content ?? resp;
			out.push(typeof v === 'string' ? v : JSON.stringify(v));
		} else if (typeof p.text === 'string') out.push(p.text);
	}
	return { text: out.join('\n'), error };
}

const PENDING = new Set(['validating', 'scheduled', 'executing', 'awaiting_approval']);

/** Resolve the JSONL log into the final message list (see the header), placing dropped copies. */
function resolveJsonl(fr: FileRecords, d: SessionDraft): { header: Obj; msgs: Msg[] } {
	let header: Obj = {};
	let order: string[] = [];
	const latest = new Map<string, Msg>();
	const archived: Msg[] = [];
	const dropped: { line: number; reason: string }[] = [];
	for (const r of fr.records) {
		const v = r.value;
		if (typeof v.id === 'string' && ('type' in v || 'content' in v)) {
			const prev = latest.get(v.id);
			if (prev) dropped.push({ line: prev.line, reason: 'superseded' });
			else order.push(v.id);
			latest.set(v.id, { m: v, line: r.line });
		} else if ('$rewindTo' in v) {
			const at = order.indexOf(String(v.$rewindTo));
			const cut = at >= 0 ? order.splice(at) : order.splice(0);
			for (const id of cut) {
				dropped.push({ line: latest.get(id)!.line, reason: 'rewind' });
				latest.delete(id);
			}
			d.meta(r.line, '$rewindTo', null, undefined, `rewound to ${String(v.$rewindTo)}`);
		} else if (isObj(v.$set)) {
			const { messages, ...rest } = v.$set;
			header = { ...header, ...rest };
			if (Array.isArray(messages)) {
				// History rewritten (chat compression): what the new list no longer holds stays visible
				// before the compaction, as Claude Code and Codex keep pre-compaction history; messages
				// it holds again are replaced by their new copies.
				const kept = new Set(messages.filter(isObj).map((m) => m.id).filter((x): x is string => typeof x === 'string'));
				for (const id of order) {
					if (kept.has(id)) dropped.push({ line: latest.get(id)!.line, reason: 'replaced' });
					else archived.push(latest.get(id)!);
				}
				latest.clear();
				order = [];
				messages.forEach((m, i) => {
					if (!isObj(m)) return;
					const id = typeof m.id === 'string' ? m.id : `$set:${r.line}:${i}`;
					if (!latest.has(id)) order.push(id);
					latest.set(id, { m, line: r.line });
				});
			}
			d.meta(r.line, '$set', null, undefined, 'header update');
		} else if (typeof v.sessionId === 'string' && !('type' in v)) {
			header = { ...header, ...v };
			d.meta(r.line, 'session-header', null);
		} else d.meta(r.line, typeof v.type === 'string' ? v.type : '(unknown record)', msOf(v.timestamp), v);
	}
	// A line whose copy survives is an atom's home; only lines that lost every copy are off-path.
	const live = new Set([...latest.values(), ...archived].map((x) => x.line));
	for (const x of dropped) if (!live.has(x.line)) d.off(x.line, x.reason);
	return { header, msgs: [...archived, ...order.map((id) => latest.get(id)!)] };
}

function emit(d: SessionDraft, msgs: Msg[]): { model: string | null; agentCalls: GeminiResult['agentCalls'] } {
	let model: string | null = null;
	const answered = new Set<string>();
	const agentCalls: GeminiResult['agentCalls'] = [];
	let seq = 0;
	for (const { m, line } of msgs) {
		const when: When = msOf(m.timestamp);
		const type = str(m.type);
		const uuid = `${str(m.id) ?? 'msg'}#${seq++}`;
		const parts = partsOf(m.content ?? m.parts);
		if (type === 'user') {
			const fnResponses = parts.filter((p) => isObj(p) && isObj(p.functionResponse));
			if (parts.length && fnResponses.length === parts.length) {
				// Synthetic message carrying tool results: the calls already hold them, unless not.
				let any = false;
				for (const p of fnResponses) {
					const fr = (p as Obj).functionResponse as Obj;
					const id = str(fr.id) ?? `${uuid}:fr`;
					if (answered.has(id)) continue;
					answered.add(id);
					any = true;
					const rt = responseText([p]);
					d.result(id, [{ type: 'text', text: rt.text }], rt.error, { when, line, uuid: `${uuid}:${id}` });
				}
				if (!any) d.off(line, 'duplicate:functionResponse');
				continue;
			}
			const shown = partsOf(m.displayContent ?? m.content ?? m.parts);
			const text = plainText(shown.filter((p) => typeof p === 'string' || (isObj(p) && typeof p.text === 'string')));
			const blocks: ContentBlock[] = text ? [{ type: 'text', text }] : [];
			for (const p of parts) {
				const inline = isObj(p) && isObj(p.inlineData) ? p.inlineData : null;
				const img = inline && typeof inline.data === 'string' ? imageBlock(`data:${str(inline.mimeType) ?? 'image/png'};base64,${inline.data}`) : null;
				if (img) blocks.push(img);
			}
			const snapshot = /^\s*<state_snapshot>([\s\S]*?)(<\/state_snapshot>\s*)?$/.exec(text);
			if (snapshot) d.compaction(snapshot[1].trim(), { when, line, uuid, trigger: 'auto' });
			else if (/^\s*<(session_context|hook_context)>/.test(text)) d.user(blocks, 'system', { when, line, uuid, speaker: 'Context' });
			else if (blocks.length) d.user(blocks, 'human', { when, line, uuid });
			else d.meta(line, 'user:empty', when, undefined, 'empty prompt');
			continue;
		}
		if (type === 'gemini' || type === 'model') {
			model = str(m.model) ?? model;
			const blocks: ContentBlock[] = [];
			for (const t of Array.isArray(m.thoughts) ? m.thoughts.filter(isObj) : []) {
				const subject = str(t.subject);
				const desc = str(t.description) ?? '';
				blocks.push({ type: 'thinking', thinking: subject ? `**${subject}**\n\n${desc}`.trim() : desc });
			}
			for (const p of parts) {
				if (typeof p === 'string') {
					if (p) blocks.push({ type: 'text', text: p });
				} else if (isObj(p) && typeof p.text === 'string') {
					if (p.thought === true) blocks.push({ type: 'thinking', thinking: p.text });
					else if (p.text) blocks.push({ type: 'text', text: p.text });
				} else if (isObj(p) && isObj(p.functionCall)) {
					const fc = p.functionCall;
					const id = str(fc.id) ?? `${uuid}:fc${blocks.length}`;
					const c = canonical(str(fc.name) ?? '(unnamed)', fc.args, null);
					blocks.push({ type: 'tool_use', id, name: c.name, input: c.input, harnessTool: str(fc.name) });
				} else if (isObj(p)) blocks.push({ type: 'gemini_part', part: p });
			}
			const calls = Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObj) : [];
			calls.forEach((tc, i) => {
				const id = str(tc.id) ?? `${uuid}:call${i}`;
				const name = str(tc.name) ?? '(unnamed)';
				const agentId = str(tc.agentId);
				const c = canonical(name, tc.args, agentId);
				if (c.name === 'Task') agentCalls.push({ callId: id, agentId });
				blocks.push({ type: 'tool_use', id, name: c.name, input: c.input, harnessTool: name, ...(str(tc.status) ? { status: tc.status } : {}) });
			});
			const tk = isObj(m.tokens) ? m.tokens : null;
			const usage = tk
				? { input_tokens: Math.max(0, (num(tk.input) ?? 0) - (num(tk.cached) ?? 0)), cache_read_input_tokens: num(tk.cached) ?? 0, output_tokens: num(tk.output) ?? 0, ...(num(tk.thoughts) !== null ? { thoughts_tokens: tk.thoughts } : {}), ...(num(tk.tool) !== null ? { tool_tokens: tk.tool } : {}) }
				: null;
			if (blocks.length) d.assistant(blocks, { when, line, uuid, model: str(m.model), usage, messageId: uuid });
			else d.meta(line, 'gemini:empty', when, undefined, 'empty reply');
			calls.forEach((tc, i) => {
				const id = str(tc.id) ?? `${uuid}:call${i}`;
				const status = str(tc.status) ?? '';
				const res = partsOf(tc.result);
				if (PENDING.has(status) && !res.length) return;
				if (!status && !res.length && tc.resultDisplay === undefined) return;
				const rt = responseText(res);
				const display = typeof tc.resultDisplay === 'string' ? tc.resultDisplay : '';
				const text = rt.text || display || (status ? `(${status})` : '');
				const failed = status === 'error' || status === 'cancelled' || (rt.error && status !== 'success');
				const exit = /Exit Code: (-?\d+)/.exec(text);
				const tur: Obj | undefined = canonical(str(tc.name) ?? '', tc.args, null).name === 'Bash' ? { stdout: text, ...(exit ? { exitCode: Number(exit[1]) } : {}) } : undefined;
				answered.add(id);
				d.result(id, [{ type: 'text', text }], failed, { when: msOf(tc.timestamp) ?? when, line, uuid: `${uuid}:${id}:result`, toolUseResult: tur });
			});
			continue;
		}
		if (type === 'info' || type === 'warning') {
			d.user([{ type: 'text', text: plainText(parts) }], 'system', { when, line, uuid, speaker: type === 'info' ? 'Info' : 'Warning' });
			continue;
		}
		if (type === 'error') {
			d.error(plainText(parts) || 'Error', { when, line, uuid });
			continue;
		}
		d.meta(line, `message:${type ?? '?'}`, when, m);
	}
	return { model, agentCalls };
}

function finishGemini(d: SessionDraft, header: Obj, msgs: Msg[], file: string): GeminiResult {
	const { model, agentCalls } = emit(d, msgs);
	const base = d.finish({ endedAtEof: true });
	const span = d.span();
	const dirs = Array.isArray(header.directories) ? header.directories.filter((x): x is string => typeof x === 'string') : [];
	return {
		...base,
		harness: 'gemini',
		children: {},
		kind: str(header.kind),
		agentCalls,
		info: {
			id: d.sessionId,
			cwd: dirs[0] ?? null,
			model,
			startedAt: msOf(header.startTime) ?? span.first,
			endedAt: span.last ?? msOf(header.lastUpdated),
			title: str(header.summary),
			parentId: null
		}
	};
}

function stem(file: string): string {
	return file.replace(/^.*\//, '').replace(/\.(jsonl?|json)$/, '');
}

/** An append-only JSONL recording (v0.39+). */
export function parseGeminiRecords(fr: FileRecords): GeminiResult {
	const headerLine = fr.records.find((r) => typeof r.value.sessionId === 'string' && !('type' in r.value));
	const id = str(headerLine?.value.sessionId) ?? stem(fr.file);
	const d = new SessionDraft(id, fr.file);
	for (let i = 0; i < fr.lines; i++) d.countLine();
	for (const i of fr.issues) i.line !== null ? d.bad(i.line, i.kind, i.message) : d.warn(null, i.kind, i.message);
	const { header, msgs } = resolveJsonl(fr, d);
	return finishGemini(d, header, msgs, fr.file);
}

/** A legacy whole-file ConversationRecord, already parsed. Each message counts as one record. */
export function parseGeminiDocument(file: string, doc: unknown): GeminiResult {
	const o = isObj(doc) ? doc : {};
	const id = str(o.sessionId) ?? stem(file);
	const d = new SessionDraft(id, file);
	const list = Array.isArray(o.messages) ? o.messages : [];
	if (!Array.isArray(o.messages)) d.warn(null, 'gemini-no-messages', 'a Gemini CLI session without a messages list');
	const msgs: Msg[] = [];
	list.forEach((m, i) => {
		d.countLine();
		if (isObj(m)) msgs.push({ m, line: i + 1 });
		else d.bad(i + 1, 'not-object', `message ${i + 1} is not an object`);
	});
	const { messages: _m, ...header } = o;
	return finishGemini(d, header, msgs, file);
}

/** Does this parsed JSON look like a Gemini CLI ConversationRecord? */
export function isGeminiDocument(doc: unknown): boolean {
	return isObj(doc) && typeof doc.sessionId === 'string' && Array.isArray(doc.messages);
}
