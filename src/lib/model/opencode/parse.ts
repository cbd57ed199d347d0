// OpenCode file storage (one JSON document per session, message and part:
// storage/session/<projectID>/<sessionID>.json, storage/message/<sessionID>/<messageID>.json,
// storage/part/<messageID>/<partID>.json) → the shared Session / Turn / Atom model. Ingest groups
// the documents of one session; this module orders messages by time.created and their parts by
// id, and maps parts: text → prompt text (user) or prose (assistant), reasoning → thinking,
// tool → a canonical call plus its result (call and result share one part: state.status,
// input, output, error), step-finish → the message's token usage, compaction → a compaction,
// file / patch / unknown parts → raw cards. A message's `error` is an error row. Each document
// counts as one record; every record gets one home.
import type { ContentBlock } from '../types.ts';
import { isObj, msOf, num, SessionDraft, str, type HarnessResult, type Obj } from '../harness/kit.ts';

export interface OpenCodeDoc {
	path: string;
	doc: Obj;
}

export interface OpenCodeInput {
	id: string;
	file: string;
	session: OpenCodeDoc | null;
	messages: OpenCodeDoc[];
	/** Parts keyed by the message they belong to. */
	parts: Map<string, OpenCodeDoc[]>;
	/** Parts whose message is not in the drop. */
	orphans: OpenCodeDoc[];
}

export interface OpenCodeResult extends HarnessResult {
	/** task calls in order, with the child session id their metadata names. */
	agentCalls: { callId: string; sessionId: string | null }[];
}

function canonical(tool: string, input: unknown): { name: string; input: unknown } {
	const a = isObj(input) ? input : {};
	const path = str(a.filePath) ?? str(a.file_path) ?? str(a.path) ?? '';
	switch (tool) {
		case 'bash':
			return { name: 'Bash', input: { command: str(a.command) ?? '', ...(str(a.description) ? { description: a.description } : {}) } };
		case 'read':
			return { name: 'Read', input: { file_path: path } };
		case 'write':
			return { name: 'Write', input: { file_path: path, content: str(a.content) ?? '' } };
		case 'edit':
			return { name: 'Edit', input: { file_path: path, old_string: str(a.oldString) ?? '', new_string: str(a.newString) ?? '' } };
		case 'grep':
			return { name: 'Grep', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'glob':
			return { name: 'Glob', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'list':
			return { name: 'LS', input: { path } };
		case 'webfetch':
			return { name: 'WebFetch', input: { url: str(a.url) ?? '' } };
		case 'todowrite':
			return { name: 'TodoWrite', input: { todos: Array.isArray(a.todos) ? a.todos : [] } };
		case 'task':
			return { name: 'Task', input: { description: str(a.description) ?? 'Sub-agent', prompt: str(a.prompt) ?? '', subagent_type: str(a.subagent_type) ?? null } };
		default:
			return { name: tool, input: input ?? {} };
	}
}

export function parseOpenCode(x: OpenCodeInput): OpenCodeResult {
	const d = new SessionDraft(x.id, x.file);
	let line = 0;
	const lineOf = new Map<OpenCodeDoc, number>();
	const count = (doc: OpenCodeDoc) => {
		d.countLine();
		lineOf.set(doc, ++line);
		return line;
	};
	if (x.session) d.meta(count(x.session), 'opencode:session', msOf((x.session.doc.time as Obj | undefined)?.created));
	const agentCalls: OpenCodeResult['agentCalls'] = [];
	const created = (m: OpenCodeDoc) => num(isObj(m.doc.time) ? m.doc.time.created : null) ?? Infinity;
	const messages = [...x.messages].sort((a, b) => created(a) - created(b) || String(a.doc.id).localeCompare(String(b.doc.id)));
	let model: string | null = null;
	for (const m of messages) {
		const ln = count(m);
		const msg = m.doc;
		const mid = str(msg.id) ?? `msg${ln}`;
		const when = msOf(isObj(msg.time) ? msg.time.created : null);
		const role = str(msg.role);
		const parts = [...(x.parts.get(mid) ?? [])].sort((a, b) => String(a.doc.id ?? a.path).localeCompare(String(b.doc.id ?? b.path)));
		const blocks: ContentBlock[] = [];
		const results: { id: string; text: string; error: boolean; when: number | null; line: number }[] = [];
		let usage: Obj | null = null;
		const msgModel = str(msg.modelID) ?? (isObj(msg.model) ? str(msg.model.modelID) : null);
		if (msgModel) model = msgModel;
		for (const p of parts) {
			const pl = count(p);
			const part = p.doc;
			const type = str(part.type) ?? '';
			if (type === 'text') {
				if (part.synthetic === true && role === 'user') d.meta(pl, 'opencode:part:synthetic', when, undefined, 'synthetic text');
				else if (typeof part.text === 'string') {
					blocks.push({ type: 'text', text: part.text });
					d.partOfAtom(pl);
				} else d.meta(pl, 'opencode:part:text', when, part);
			} else if (type === 'reasoning') {
				blocks.push({ type: 'thinking', thinking: str(part.text) ?? '' });
				d.partOfAtom(pl);
			}
			else if (type === 'tool') {
				const tool = str(part.tool) ?? '(unnamed)';
				const state = isObj(part.state) ? part.state : {};
				const callId = str(part.callID) ?? str(part.id) ?? `${mid}:${pl}`;
				const c = canonical(tool, state.input);
				if (c.name === 'Task') agentCalls.push({ callId, sessionId: isObj(state.metadata) ? str(state.metadata.sessionId) : null });
				blocks.push({ type: 'tool_use', id: callId, name: c.name, input: c.input, harnessTool: tool });
				d.partOfAtom(pl);
				const status = str(state.status);
				if (status === 'completed' || status === 'error') {
					const t = isObj(state.time) ? msOf(state.time.end) : null;
					const out = status === 'error' ? (str(state.error) ?? 'error') : typeof state.output === 'string' ? state.output : JSON.stringify(state.output ?? '');
					const exit = isObj(state.metadata) ? num(state.metadata.exit) : null;
					results.push({ id: callId, text: out, error: status === 'error' || (exit !== null && exit !== 0), when: t ?? when, line: pl });
				}
			} else if (type === 'step-finish' && isObj(part.tokens)) {
				const tk = part.tokens;
				const cache = isObj(tk.cache) ? tk.cache : {};
				usage = { input_tokens: num(tk.input) ?? 0, output_tokens: num(tk.output) ?? 0, cache_read_input_tokens: num(cache.read) ?? 0, cache_creation_input_tokens: num(cache.write) ?? 0 };
				d.meta(pl, 'opencode:part:step-finish', when);
			} else if (type === 'step-start') d.meta(pl, 'opencode:part:step-start', when);
			else if (type === 'compaction') d.compaction(null, { when, line: pl, uuid: `${x.id}:${str(part.id) ?? pl}`, trigger: part.auto === true ? 'auto' : 'manual' });
			else d.meta(pl, `opencode:part:${type || '?'}`, when, part);
		}
		const uuid = `${x.id}:${mid}`;
		if (role === 'user') {
			if (blocks.length) d.user(blocks, 'human', { when, line: ln, uuid });
			else d.meta(ln, 'opencode:message', when, undefined, 'user message without text parts');
		} else if (blocks.length) {
			d.assistant(blocks, { when, line: ln, uuid, model: msgModel, usage: usage ?? (isObj(msg.tokens) ? { input_tokens: num(msg.tokens.input) ?? 0, output_tokens: num(msg.tokens.output) ?? 0 } : null) });
		} else d.meta(ln, 'opencode:message', when, undefined, 'message without parts');
		results.forEach((r, i) => d.result(r.id, [{ type: 'text', text: r.text }], r.error, { when: r.when, line: r.line, uuid: `${uuid}:r${i}` }));
		if (isObj(msg.error)) {
			const data = isObj(msg.error.data) ? msg.error.data : {};
			d.error(str(data.message) ?? str(msg.error.name) ?? 'error', { when, line: ln, uuid: `${uuid}:error` });
		}
	}
	for (const o of x.orphans) d.meta(count(o), 'opencode:part:orphan', null, o.doc, 'part of a message not in the drop');
	const base = d.finish({ endedAtEof: true });
	const s = x.session?.doc ?? {};
	const span = d.span();
	return {
		...base,
		harness: 'opencode',
		children: {},
		agentCalls,
		info: {
			id: x.id,
			cwd: str(s.directory),
			model,
			startedAt: msOf(isObj(s.time) ? s.time.created : null) ?? span.first,
			endedAt: span.last,
			title: str(s.title),
			parentId: str(s.parentID)
		}
	};
}
