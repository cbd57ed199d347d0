// Cursor agent transcripts (JSONL of `{role, message: {content: [blocks]}}`) → the shared
// Session / Turn / Atom model. The blocks are Claude-style (text, thinking, tool_use,
// tool_result), but Cursor records no ids, no times and no model: tool_use blocks get ids from
// their position, a tool_result pairs with its tool_use_id when that names a call, else with the
// oldest call still waiting; user text loses its `<user_query>` wrapper. `turn_ended` lines are
// bookkeeping; anything else is a raw card. Sub-agent transcripts (a `subagents/` folder beside
// the parent) are tied to the parent's Agent / Task calls by ingest.
import type { ContentBlock, FileRecords } from '../types.ts';
import { isObj, SessionDraft, str, type HarnessResult } from '../harness/kit.ts';

export const CURSOR_BLOCKS = new Set(['text', 'thinking', 'tool_use', 'tool_result', 'image', 'redacted_thinking']);

function canonical(name: string, input: unknown): { name: string; input: unknown } {
	const a = isObj(input) ? input : {};
	if (name === 'Shell' || name === 'run_terminal_cmd' || name === 'Terminal') return { name: 'Bash', input: { command: str(a.command) ?? '', ...(str(a.description) ? { description: a.description } : {}) } };
	if (name === 'Agent' || name === 'Task' || name === 'Subagent') {
		const prompt = str(a.prompt) ?? str(a.task) ?? '';
		return { name: 'Task', input: { description: str(a.description) ?? (prompt.split('\n')[0] || 'Sub-agent'), prompt, subagent_type: str(a.subagent_type) ?? null } };
	}
	return { name, input: input ?? {} };
}

function unwrapQuery(text: string): string {
	const m = /^\s*<user_query>\s*([\s\S]*?)\s*<\/user_query>\s*$/.exec(text);
	return m ? m[1] : text;
}

export interface CursorResult extends HarnessResult {
	/** Delegating calls in order (ingest ties sub-agent files to them). */
	agentCalls: string[];
}

export function parseCursor(fr: FileRecords): CursorResult {
	const id = fr.file.replace(/^.*\//, '').replace(/\.jsonl?$/, '');
	const d = new SessionDraft(id, fr.file);
	for (let i = 0; i < fr.lines; i++) d.countLine();
	for (const i of fr.issues) i.line !== null ? d.bad(i.line, i.kind, i.message) : d.warn(null, i.kind, i.message);
	const waiting: string[] = [];
	const known = new Set<string>();
	const agentCalls: string[] = [];
	for (const r of fr.records) {
		const v = r.value;
		const o = { when: null, line: r.line };
		if (v.type === 'turn_ended') {
			d.meta(r.line, 'turn_ended', null);
			continue;
		}
		const role = str(v.role);
		const content = isObj(v.message) ? v.message.content : undefined;
		const list: unknown[] = Array.isArray(content) ? content : typeof content === 'string' ? [{ type: 'text', text: content }] : [];
		if (role !== 'user' && role !== 'assistant') {
			d.meta(r.line, str(v.type) ?? '(record without role)', null, v);
			continue;
		}
		const blocks: ContentBlock[] = [];
		const results: { id: string; content: unknown; error: boolean }[] = [];
		list.forEach((b, k) => {
			if (!isObj(b)) return;
			if (b.type === 'tool_use') {
				const callId = str(b.id) ?? `${id}:${r.line}:${k}`;
				const name = str(b.name) ?? '(unnamed)';
				const c = canonical(name, b.input);
				if (c.name === 'Task') agentCalls.push(callId);
				known.add(callId);
				waiting.push(callId);
				blocks.push({ type: 'tool_use', id: callId, name: c.name, input: c.input, harnessTool: name });
			} else if (b.type === 'tool_result') {
				const named = str(b.tool_use_id);
				const callId = named && known.has(named) && waiting.includes(named) ? named : (waiting[0] ?? named ?? `${id}:${r.line}:${k}`);
				const at = waiting.indexOf(callId);
				if (at >= 0) waiting.splice(at, 1);
				results.push({ id: callId, content: b.content, error: b.is_error === true });
			} else if (b.type === 'text' && typeof b.text === 'string') blocks.push({ type: 'text', text: role === 'user' ? unwrapQuery(b.text) : b.text });
			else blocks.push(b as ContentBlock);
		});
		if (role === 'assistant' && blocks.length) d.assistant(blocks, o);
		else if (role === 'user' && blocks.length) d.user(blocks, 'human', o);
		results.forEach((x, i) => d.result(x.id, x.content, x.error, { ...o, uuid: `${id}:${r.line}:r${i}` }));
		if (!blocks.length && !results.length) d.meta(r.line, `${role}:empty`, null, undefined, 'no content');
	}
	const base = d.finish({ endedAtEof: true });
	return { ...base, harness: 'cursor', children: {}, agentCalls, info: { id, cwd: null, model: null, startedAt: null, endedAt: null, title: null, parentId: null } };
}
