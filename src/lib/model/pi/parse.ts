// pi (pi-mono coding agent) session v3 JSONL → the shared Session / Turn / Atom model. Line 1 is
// `{type:"session", version, id, timestamp, cwd}`; every later entry has `{type, id, parentId,
// timestamp}` and the entries form a tree (branches via parentId). The active branch is the
// chain from the last entry back to the root; entries on other branches are off-path. Messages
// map almost one to one: user → human prompt, assistant → text / thinking / toolCall blocks with
// usage and stopReason, toolResult → a result with its own isError; `compaction` entries carry
// their summary. model_change / thinking_level_change are bookkeeping; unknown entries are raw
// cards.
import type { ContentBlock, FileRecords, StopReason } from '../types.ts';
import { isObj, msOf, num, SessionDraft, str, type HarnessResult, type Obj } from '../harness/kit.ts';

const STOP: Record<string, StopReason> = { stop: 'end_turn', toolUse: 'tool_use', length: 'max_tokens' };

function canonical(name: string, args: unknown): { name: string; input: unknown } {
	const a = isObj(args) ? args : {};
	const path = str(a.path) ?? str(a.file_path) ?? '';
	switch (name) {
		case 'bash':
			return { name: 'Bash', input: { command: str(a.command) ?? '' } };
		case 'read':
			return { name: 'Read', input: { file_path: path, ...(num(a.offset) !== null ? { offset: a.offset } : {}), ...(num(a.limit) !== null ? { limit: a.limit } : {}) } };
		case 'edit':
			return { name: 'Edit', input: { file_path: path, old_string: str(a.oldText) ?? str(a.old_string) ?? '', new_string: str(a.newText) ?? str(a.new_string) ?? '' } };
		case 'write':
			return { name: 'Write', input: { file_path: path, content: str(a.content) ?? '' } };
		case 'grep':
			return { name: 'Grep', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'find':
			return { name: 'Glob', input: { pattern: str(a.pattern) ?? '', ...(path ? { path } : {}) } };
		case 'ls':
			return { name: 'LS', input: { path } };
		default:
			return { name, input: args ?? {} };
	}
}

function blocksOf(content: unknown): ContentBlock[] {
	if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
	if (!Array.isArray(content)) return [];
	const out: ContentBlock[] = [];
	for (const b of content) {
		if (!isObj(b)) continue;
		if (b.type === 'text' && typeof b.text === 'string') out.push({ type: 'text', text: b.text });
		else if (b.type === 'thinking') out.push(b.redacted === true ? { type: 'redacted_thinking' } : { type: 'thinking', thinking: str(b.thinking) ?? '' });
		else if (b.type === 'toolCall') {
			const name = str(b.name) ?? '(unnamed)';
			const c = canonical(name, b.arguments);
			out.push({ type: 'tool_use', id: str(b.id) ?? '', name: c.name, input: c.input, harnessTool: name });
		} else if (b.type === 'image' && typeof b.data === 'string') out.push({ type: 'image', source: { type: 'base64', media_type: str(b.mimeType) ?? 'image/png', data: b.data } });
		else out.push(b as ContentBlock);
	}
	return out;
}

/** Ids on the chain from the last entry back to the root (the branch the session ended on). */
function activeBranch(entries: { id: string | null; parentId: string | null }[]): Set<string> {
	const parent = new Map<string, string | null>();
	for (const e of entries) if (e.id) parent.set(e.id, e.parentId);
	const out = new Set<string>();
	let at = [...entries].reverse().find((e) => e.id)?.id ?? null;
	while (at && !out.has(at)) {
		out.add(at);
		at = parent.get(at) ?? null;
	}
	return out;
}

export function parsePi(fr: FileRecords): HarnessResult {
	const header = fr.records.find((r) => r.value.type === 'session')?.value ?? {};
	const id = str(header.id) ?? fr.file.replace(/^.*\//, '').replace(/\.jsonl?$/, '');
	const d = new SessionDraft(id, fr.file);
	for (let i = 0; i < fr.lines; i++) d.countLine();
	for (const i of fr.issues) i.line !== null ? d.bad(i.line, i.kind, i.message) : d.warn(null, i.kind, i.message);
	const entries = fr.records.filter((r) => r.value.type !== 'session').map((r) => ({ r, id: str(r.value.id), parentId: str(r.value.parentId) }));
	const branch = activeBranch(entries);
	let model: string | null = null;
	for (const { r, id: eid } of entries) {
		const v = r.value as Obj;
		const when = msOf(v.timestamp) ?? (isObj(v.message) ? msOf(v.message.timestamp) : null);
		const o = { when, line: r.line, ...(eid ? { uuid: `${id}:${eid}` } : {}) };
		if (eid && !branch.has(eid)) {
			d.off(r.line, 'branch');
			continue;
		}
		const type = str(v.type) ?? '';
		if (type === 'message' && isObj(v.message)) {
			const m = v.message;
			const role = str(m.role);
			if (role === 'user') d.user(blocksOf(m.content), 'human', o);
			else if (role === 'assistant') {
				const u = isObj(m.usage) ? m.usage : null;
				const usage = u ? { input_tokens: num(u.input) ?? 0, output_tokens: num(u.output) ?? 0, cache_read_input_tokens: num(u.cacheRead) ?? 0, cache_creation_input_tokens: num(u.cacheWrite) ?? 0, ...(isObj(u.cost) ? { cost: u.cost } : {}) } : null;
				model = str(m.model) ?? model;
				const a = d.assistant(blocksOf(m.content), { ...o, model: str(m.model), usage });
				const stop = str(m.stopReason);
				if (stop && a.message) a.message.stop_reason = STOP[stop] ?? stop;
				if (stop === 'error' && typeof m.errorMessage === 'string') d.error(m.errorMessage, { when, line: r.line, uuid: `${id}:${eid}:error` });
			} else if (role === 'toolResult') {
				d.result(str(m.toolCallId) ?? '', blocksOf(m.content), m.isError === true, { ...o, toolUseResult: isObj(m.details) ? m.details : undefined });
			} else d.meta(r.line, `message:${role ?? '?'}`, when, v);
		} else if (type === 'compaction') {
			d.compaction(str(v.summary), { ...o, preTokens: num(v.tokensBefore), trigger: v.fromHook === true ? 'hook' : 'auto' });
		} else if (type === 'model_change' || type === 'thinking_level_change' || type === 'label' || type === 'custom') {
			if (type === 'model_change') model = str(v.modelId) ?? model;
			d.meta(r.line, type, when);
		} else d.meta(r.line, type || '(entry without type)', when, v);
	}
	// The header, and any repeated header line (a concatenated or resumed file), are bookkeeping.
	fr.records.forEach((r, i) => {
		if (r.value.type === 'session') d.meta(r.line, i === 0 ? 'session' : 'session:repeated', msOf(r.value.timestamp));
	});
	const base = d.finish({ endedAtEof: true });
	const span = d.span();
	return {
		...base,
		harness: 'pi',
		children: {},
		info: { id, cwd: str(header.cwd), model, startedAt: msOf(header.timestamp) ?? span.first, endedAt: span.last, title: null, parentId: null }
	};
}
