// Strap state documents → the shared Session / Turn / Atom model: strap.state.v0.2 (actors with
// kind, a root scope tree), v0.3 (grouped actors), v0.4 (flat actors, a flat `history`), and the
// seed's event list (JSON array or JSONL of `{type:"event", from, agent?, kind, text, calls?}`).
// `from` (and `agent`) decide the author and speaker; a call carries its result (ok / output /
// error), so it becomes a tool_use and a tool_result atom (no `ok`: still pending). `agent.fork`
// is a delegation (canonical Task) with a child built from `hidden.messages`, recursively; a
// collapsed scope or `history.summarize` is a compaction; runtime items are notices. Strap
// records no times and no ids: atoms have no time (t is NaN, never invented) and uuids come from
// the item's path in the document.
import type { ContentBlock, FileRecords } from '../types.ts';
import { isObj, msOf, num, SessionDraft, str, type HarnessChild, type HarnessResult, type Obj, type When } from '../harness/kit.ts';

type Role = 'human' | 'agent' | 'runtime';

interface Ctx {
	actors: Map<string, Role>;
	children: Record<string, HarnessChild>;
	usedIds: Set<string>;
	file: string;
}

/** Does this parsed JSON look like a Strap state or event list? (Used by ingest's classifier.) */
export function isStrapDocument(doc: unknown): boolean {
	if (isObj(doc)) {
		if (typeof doc.version === 'string' && doc.version.startsWith('strap.')) return true;
		// An export without a version: a list of events under `events` / `history`.
		const list = Array.isArray(doc.events) ? doc.events : Array.isArray(doc.history) ? doc.history : null;
		return !!list && list.length > 0 && list.slice(0, 5).every(isStrapEvent);
	}
	if (Array.isArray(doc)) return doc.length > 0 && doc.slice(0, 5).every(isStrapEvent);
	return false;
}

export function isStrapEvent(v: unknown): boolean {
	return isObj(v) && v.type === 'event' && typeof v.from === 'string' && ('text' in v || 'calls' in v || 'kind' in v);
}

function actorRoles(actors: unknown): Map<string, Role> {
	const out = new Map<string, Role>([['user', 'human'], ['model', 'agent'], ['assistant', 'agent'], ['harness', 'runtime']]);
	if (!isObj(actors)) return out;
	const groups: [string, Role][] = [['humans', 'human'], ['agents', 'agent'], ['runtimes', 'runtime']];
	for (const [g, role] of groups) if (isObj(actors[g])) for (const id of Object.keys(actors[g] as Obj)) out.set(id, role);
	for (const [id, a] of Object.entries(actors)) {
		if (!isObj(a) || typeof a.kind !== 'string') continue;
		out.set(id, a.kind === 'human' ? 'human' : a.kind === 'runtime' ? 'runtime' : 'agent');
	}
	return out;
}

function callText(call: Obj): string {
	const out = call.output;
	if (isObj(out)) {
		if (Array.isArray(out.content)) return out.content.filter(isObj).map((c) => (typeof c.text === 'string' ? c.text : JSON.stringify(c))).join('\n');
		if (typeof out.summary === 'string') return out.summary;
		return JSON.stringify(out);
	}
	if (typeof out === 'string') return out;
	return typeof call.error === 'string' ? call.error : call.error !== undefined ? JSON.stringify(call.error) : '';
}

/** Strap tool names → canonical calls (harness/kit.ts). */
function canonical(tool: string, input: unknown): { name: string; input: unknown } {
	const a = isObj(input) ? input : {};
	const path = str(a.path) ?? str(a.file_path) ?? str(a.file);
	if (/(^|\.)(shell|bash|exec|run)$/.test(tool) || tool === 'process.shell') return { name: 'Bash', input: { command: str(a.command) ?? str(a.cmd) ?? JSON.stringify(input) } };
	if (/^fs\.(read|read_file|cat)$/.test(tool)) return { name: 'Read', input: { file_path: path ?? '' } };
	if (/^fs\.(write|write_file)$/.test(tool)) return { name: 'Write', input: { file_path: path ?? '', content: str(a.content) ?? '' } };
	if (/^fs\.(edit|replace)$/.test(tool)) return { name: 'Edit', input: { file_path: path ?? '', old_string: str(a.old) ?? str(a.old_string) ?? '', new_string: str(a.new) ?? str(a.new_string) ?? '' } };
	if (/^fs\.(list|ls|list_dir)$/.test(tool)) return { name: 'LS', input: { path: path ?? '' } };
	if (/^(fs|code)\.(search|grep)$/.test(tool)) return { name: 'Grep', input: { pattern: str(a.pattern) ?? str(a.query) ?? '', ...(path ? { path } : {}) } };
	if (/^web\.search$/.test(tool)) return { name: 'WebSearch', input: { query: str(a.query) ?? '' } };
	if (/^web\.fetch$/.test(tool)) return { name: 'WebFetch', input: { url: str(a.url) ?? '' } };
	return { name: tool, input };
}

/** A speaker's label: the actor id, with the agent profile when one is named. */
function speakerOf(item: Obj): string {
	const from = str(item.from) ?? '?';
	const agent = str(item.agent);
	return agent && agent !== from ? `${agent}` : from;
}

function hiddenTranscript(items: unknown[], ctx: Ctx): string {
	return items
		.filter(isObj)
		.map((m) => {
			const calls = Array.isArray(m.calls) ? m.calls.filter(isObj).map((c) => `  [${str(c.tool) ?? 'call'}] ${callText(c)}`.trimEnd()) : [];
			const who = speakerOf(m);
			const text = str(m.text) ?? (Array.isArray(m.children) ? `(scope ${str(m.label) ?? ''})` : '');
			return [`**${who}** (${ctx.actors.get(str(m.from) ?? '') ?? 'unknown'}): ${text}`, ...calls].join('\n');
		})
		.join('\n\n');
}

function uniqueId(ctx: Ctx, id: string | null, path: string): string {
	let out = id ?? path;
	if (ctx.usedIds.has(out)) out = `${out}@${path}`;
	ctx.usedIds.add(out);
	return out;
}

class Walker {
	line = 0;
	constructor(readonly d: SessionDraft, readonly ctx: Ctx) {}

	items(list: unknown[], path: string): void {
		list.forEach((it, i) => this.item(it, `${path}[${i}]`));
	}

	item(it: unknown, path: string, line?: number): void {
		const d = this.d;
		const ln = line ?? ++this.line;
		if (line === undefined) d.countLine();
		if (!isObj(it)) {
			d.bad(ln, 'bad-item', `${path} is not an object`);
			return;
		}
		if (it.type === 'scope') return this.scope(it, path, ln);
		const from = str(it.from);
		if (from === null) {
			d.meta(ln, 'strap:item-without-from', null, it);
			return;
		}
		const role = this.ctx.actors.get(from) ?? (str(it.agent) ? 'agent' : 'runtime');
		const kind = str(it.kind);
		const text = str(it.text) ?? '';
		const prov = isObj(it.provider) ? it.provider : {};
		// Strap writes no times; a time an exporter chose to add is read, never made up.
		const when: When = msOf(it.timestamp ?? it.time);
		const o = { when, line: ln, uuid: path, model: str(prov.model), usage: isObj(prov.usage) ? prov.usage : null };
		if (kind === 'summary') {
			d.compaction(text || null, { ...o, trigger: 'manual' });
			return;
		}
		if (kind === 'agent_fold' && isObj(it.hidden) && it.hidden.child_state !== undefined) {
			// v0.2 folds carried the child's whole state: a delegation whose child is that state.
			const id = uniqueId(this.ctx, null, `${path}.fold`);
			d.assistant([{ type: 'tool_use', id, name: 'Task', input: { description: text.split('\n')[0] || 'Folded agent', prompt: text, subagent_type: str(it.agent) ?? from }, harnessTool: 'agent_fold' }], { ...o, uuid: `${path}#fold` });
			d.result(id, [{ type: 'text', text }], false, { when, line: ln, uuid: `${path}#fold:result` });
			const state = it.hidden.child_state;
			const child = buildDraft(itemsOf(state).items, { ...this.ctx, actors: actorRoles(isObj(state) ? state.actors : null) }, `${d.sessionId}/${path}`);
			this.ctx.children[id] = { toolUseId: id, agentType: str(it.agent) ?? from, description: text || null, file: `${this.ctx.file}#${path}`, result: child };
			return;
		}
		const calls = Array.isArray(it.calls) ? it.calls : [];
		const attachments = Array.isArray(it.attachments) ? it.attachments.map((a) => ({ type: 'attachment', attachment: a })) : [];
		if (role === 'runtime' || (kind !== null && ['checkpoint', 'context', 'note', 'tool_budget_exhausted', 'quoted_context'].includes(kind) && role !== 'agent')) {
			if (text || !calls.length) d.user([{ type: 'text', text: text || `(${kind ?? 'runtime item'})` }, ...attachments] as ContentBlock[], 'system', { ...o, speaker: kind && kind !== 'message' ? `${from} \u00b7 ${kind}` : from });
		} else if (role === 'human') {
			if (text || attachments.length) d.user([{ type: 'text', text }, ...attachments] as ContentBlock[], 'human', { ...o, ...(from !== 'user' ? { speaker: from } : {}) });
		}
		const blocks: ContentBlock[] = [];
		// The format has no reasoning field; an event kind that says so is drawn as thinking.
		if (role === 'agent' && text) blocks.push(kind === 'thinking' || kind === 'reasoning' ? { type: 'thinking', thinking: text } : { type: 'text', text });
		if (role === 'agent') blocks.push(...(attachments as ContentBlock[]));
		const results: { id: string; call: Obj; tur: Obj | undefined }[] = [];
		calls.forEach((c, ci) => {
			const cpath = `${path}.calls[${ci}]`;
			if (!isObj(c)) {
				blocks.push({ type: 'strap_call', value: c });
				return;
			}
			const tool = str(c.tool) ?? '(unnamed)';
			if (tool === 'history.summarize') {
				this.flush(blocks, o, role, from);
				const hidden = isObj(c.hidden) && Array.isArray(c.hidden.messages) ? c.hidden.messages : [];
				// An exporter may say why and from how many tokens (Loupe writes both); otherwise a summarize is asked for.
				const inp = isObj(c.input) ? c.input : {};
				this.compaction(isObj(c.output) ? str(c.output.summary) : null, hidden, { ...o, uuid: cpath, trigger: str(inp.trigger) ?? 'manual', preTokens: num(inp.pre_tokens) });
				return;
			}
			const id = uniqueId(this.ctx, str(c.id), cpath);
			if (tool === 'agent.fork') {
				const inp = isObj(c.input) ? c.input : {};
				const task = str(inp.task) ?? '';
				// The seed's fork input is only `task`; a short `description` an exporter adds is the row's title.
				const description = str(inp.description) ?? (task.split('\n')[0] || 'Fork');
				blocks.push({ type: 'tool_use', id, name: 'Task', input: { description, prompt: task, subagent_type: str(inp.agent) ?? str(it.agent) ?? null }, harnessTool: tool });
				const hidden = isObj(c.hidden) && Array.isArray(c.hidden.messages) ? c.hidden.messages : null;
				if (hidden) this.fork(id, hidden, cpath, str(inp.agent) ?? str(it.agent), str(inp.description) ?? task);
			} else {
				const m = canonical(tool, c.input);
				blocks.push({ type: 'tool_use', id, name: m.name, input: m.input, harnessTool: tool });
			}
			if ('ok' in c || 'output' in c || 'error' in c) {
				const sc = isObj(c.output) && isObj(c.output.structuredContent) ? c.output.structuredContent : undefined;
				const tur: Obj | undefined = sc ? { ...sc, ...(typeof sc.exit_code === 'number' ? { exitCode: sc.exit_code } : {}) } : undefined;
				results.push({ id, call: c, tur });
			}
		});
		this.flush(blocks, o, role, from);
		results.forEach((r, i) => d.result(r.id, [{ type: 'text', text: callText(r.call) }], r.call.ok === false || (r.call.error !== undefined && r.call.ok !== true), { when, line: ln, uuid: `${path}.calls:result${i}`, toolUseResult: r.tur }));
		if (!text && !calls.length && !attachments.length && role !== 'runtime') d.meta(ln, `strap:empty:${kind ?? 'item'}`, null, undefined, 'empty item');
	}

	/** Blocks gathered so far become one atom (an agent's reply, or a human's own tool calls). */
	flush(blocks: ContentBlock[], o: { when: When; line: number; uuid: string; model?: string | null; usage?: Obj | null }, role: Role, from: string): void {
		if (!blocks.length) return;
		const a = this.d.assistant(blocks.splice(0), { ...o, uuid: `${o.uuid}#${this.line}:${this.d.atoms.length}` });
		o.usage = null; // a provider's usage belongs to the item's first model atom only
		if (role !== 'agent') a.speaker = from;
	}

	compaction(summary: string | null, hidden: unknown[], o: { when: When; line: number; uuid: string; trigger?: string; preTokens?: number | null }): void {
		const behind = hidden.length ? `\n\n---\nHidden messages (${hidden.length}):\n\n${hiddenTranscript(hidden, this.ctx)}` : '';
		this.d.compaction(`${summary ?? ''}${behind}`.trim() || null, { ...o, trigger: o.trigger ?? 'manual' });
	}

	scope(s: Obj, path: string, ln: number): void {
		const children = Array.isArray(s.children) ? s.children : [];
		if (s.status === 'collapsed') {
			const hidden = isObj(s.hidden) && Array.isArray(s.hidden.children) ? s.hidden.children : [];
			const label = str(s.label);
			this.compaction(`${label ? `${label}: ` : ''}${str(s.summary) ?? ''}`, [...children, ...hidden], { when: null, line: ln, uuid: path });
			return;
		}
		this.d.meta(ln, 'strap:scope', null, undefined, `scope ${str(s.label) ?? ''}`.trim());
		this.items(children, `${path}.children`);
	}

	fork(id: string, hidden: unknown[], path: string, agent: string | null, task: string): void {
		const child = buildDraft(hidden, this.ctx, `${this.d.sessionId}/${path}`);
		this.ctx.children[id] = { toolUseId: id, agentType: agent, description: task || null, file: `${this.ctx.file}#${path}`, result: child };
	}
}

function buildDraft(items: unknown[], ctx: Ctx, sessionId: string): HarnessResult {
	const d = new SessionDraft(sessionId, ctx.file);
	const w = new Walker(d, ctx);
	w.items(items, 'hidden.messages');
	return wrap(d, ctx, sessionId, null);
}

function wrap(d: SessionDraft, ctx: Ctx, id: string, title: string | null): HarnessResult {
	// Strap events are ordered chat messages (the seed): a harness note before a prompt stays there.
	const base = d.finish({ endedAtEof: true, inOrder: true });
	const { first: startedAt, last: endedAt } = d.span();
	return { ...base, harness: 'strap', children: ctx.children, info: { id, cwd: null, model: null, startedAt, endedAt, title, parentId: null } };
}

function firstHumanText(items: unknown[], actors: Map<string, Role>): string | null {
	for (const it of items) {
		if (!isObj(it)) continue;
		if (it.type === 'scope' && Array.isArray(it.children)) {
			const t = firstHumanText(it.children, actors);
			if (t) return t;
		}
		if (actors.get(str(it.from) ?? '') === 'human' && str(it.text)) return str(it.text);
	}
	return null;
}

/** The items of a state (v0.4 history, v0.2/v0.3 root scope) or an event list, with their JSON path. */
function itemsOf(doc: unknown): { items: unknown[]; path: string | null } {
	if (Array.isArray(doc)) return { items: doc, path: '' };
	if (!isObj(doc)) return { items: [], path: null };
	if (Array.isArray(doc.history)) return { items: doc.history, path: 'history' };
	if (isObj(doc.root)) return { items: [doc.root], path: 'root' };
	if (Array.isArray(doc.events)) return { items: doc.events, path: 'events' };
	if (Array.isArray(doc.messages)) return { items: doc.messages, path: 'messages' };
	return { items: [], path: null };
}

/** A Strap state document (or the intended shape's event array), already parsed. */
export function parseStrapDocument(file: string, doc: unknown): HarnessResult {
	const id = file.replace(/^.*\//, '').replace(/\.(jsonl?|json)$/, '');
	const actors = actorRoles(isObj(doc) ? doc.actors : null);
	const ctx: Ctx = { actors, children: {}, usedIds: new Set(), file };
	const d = new SessionDraft(id, file);
	const w = new Walker(d, ctx);
	const { items, path } = itemsOf(doc);
	if (path === null) d.bad(null, 'strap-empty', 'a Strap document with no history, root scope or events');
	w.items(items, path ?? '');
	const result = wrap(d, ctx, id, firstHumanText(items, actors));
	if (isObj(doc) && typeof doc.version === 'string') result.info.model = null;
	return result;
}

/** The intended shape's events as JSON lines (one event per line). */
export function parseStrapRecords(fr: FileRecords): HarnessResult {
	const id = fr.file.replace(/^.*\//, '').replace(/\.(jsonl?|json)$/, '');
	const ctx: Ctx = { actors: actorRoles(null), children: {}, usedIds: new Set(), file: fr.file };
	const d = new SessionDraft(id, fr.file);
	for (let i = 0; i < fr.lines; i++) d.countLine();
	for (const i of fr.issues) i.line !== null ? d.bad(i.line, i.kind, i.message) : d.warn(null, i.kind, i.message);
	const w = new Walker(d, ctx);
	for (const r of fr.records) w.item(r.value, `line${r.line}`, r.line);
	return wrap(d, ctx, id, firstHumanText(fr.records.map((r) => r.value), ctx.actors));
}
