// The tool normalizer: the ONLY place in the chat view that knows tool names. It classifies a
// tool_use by name into a verb (for group summaries), a renderer and an item type, and builds the
// ToolCallView (title, target, per-renderer facts) from the call, its paired result and the
// result line's `toolUseResult`. Grouping never sees a tool name; it sees the item type this
// module chose.

import { basename, cap, isRecord, resultImages, resultText, str, toJson } from './content';
import { diffsForCall } from './diff';
import type { CallStatus, TodoView, ToolCallView, ToolRenderer, ToolVerb } from './types';

/** What kind of item a call becomes. 'tool' folds into runs; 'plan' travels with them; the rest stand alone. */
export type CallItemType = 'tool' | 'plan' | 'delegation' | 'question' | 'approval';

interface Classified {
	verb: ToolVerb;
	renderer: ToolRenderer;
	itemType: CallItemType;
}

const BY_NAME: Record<string, Classified> = {
	Bash: { verb: 'run', renderer: 'bash', itemType: 'tool' },
	BashOutput: { verb: 'run', renderer: 'bash', itemType: 'tool' },
	KillBash: { verb: 'run', renderer: 'generic', itemType: 'tool' },
	KillShell: { verb: 'run', renderer: 'generic', itemType: 'tool' },
	Read: { verb: 'read', renderer: 'read', itemType: 'tool' },
	NotebookRead: { verb: 'read', renderer: 'read', itemType: 'tool' },
	LS: { verb: 'read', renderer: 'read', itemType: 'tool' },
	Grep: { verb: 'search', renderer: 'search', itemType: 'tool' },
	Glob: { verb: 'search', renderer: 'search', itemType: 'tool' },
	ToolSearch: { verb: 'search', renderer: 'search', itemType: 'tool' },
	Edit: { verb: 'edit', renderer: 'edit', itemType: 'tool' },
	MultiEdit: { verb: 'edit', renderer: 'edit', itemType: 'tool' },
	Write: { verb: 'edit', renderer: 'edit', itemType: 'tool' },
	NotebookEdit: { verb: 'edit', renderer: 'edit', itemType: 'tool' },
	WebFetch: { verb: 'web', renderer: 'web-fetch', itemType: 'tool' },
	WebSearch: { verb: 'web', renderer: 'web-search', itemType: 'tool' },
	TodoWrite: { verb: 'plan', renderer: 'todo', itemType: 'plan' },
	Task: { verb: 'delegate', renderer: 'generic', itemType: 'delegation' },
	Agent: { verb: 'delegate', renderer: 'generic', itemType: 'delegation' },
	AskUserQuestion: { verb: 'ask', renderer: 'generic', itemType: 'question' },
	ExitPlanMode: { verb: 'approve', renderer: 'generic', itemType: 'approval' }
};

const GENERIC: Classified = { verb: 'tool', renderer: 'generic', itemType: 'tool' };

export function classifyTool(name: string): Classified {
	return Object.prototype.hasOwnProperty.call(BY_NAME, name) ? BY_NAME[name] : GENERIC;
}

/** `mcp__server__tool` → {server, tool}; null for other names. */
export function splitMcp(name: string): { server: string; tool: string } | null {
	const m = /^mcp__(.+?)__(.+)$/.exec(name);
	return m ? { server: m[1], tool: m[2] } : null;
}

const READ_CMDS = new Set(['cat', 'head', 'tail', 'ls', 'less', 'more', 'pwd', 'tree', 'stat', 'file', 'nl']);
const SEARCH_CMDS = new Set(['grep', 'rg', 'find', 'fd', 'wc', 'ag', 'ack']);
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'branch', 'blame']);

/**
 * A Bash command that only explores counts as a read or a search: every part of a pipe / chain
 * must be exploratory, and any unquoted `>` redirect makes it a command.
 */
export function bashVerb(command: string): 'run' | 'read' | 'search' {
	const unquoted = command.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, '""');
	if (/>/.test(unquoted.replace(/2>&1|&>\/dev\/null|2>\/dev\/null/g, ''))) return 'run';
	const parts = unquoted.split(/\|\||&&|[|;]/).map((p) => p.trim()).filter(Boolean);
	if (!parts.length) return 'run';
	let search = false;
	for (const p of parts) {
		const words = p.split(/\s+/).filter((w) => !/^\w+=/.test(w));
		const cmd = basename(words[0] ?? '');
		if (cmd === 'cd') continue;
		if (SEARCH_CMDS.has(cmd)) search = true;
		else if (READ_CMDS.has(cmd)) continue;
		else if (cmd === 'git' && GIT_READ.has(words[1] ?? '')) continue;
		else return 'run';
	}
	return search ? 'search' : 'read';
}

export interface PairedResult {
	block: Record<string, unknown>;
	uuid: string | null;
	ms: number | null;
	toolUseResult: unknown;
}

function todosOf(v: unknown): TodoView[] | undefined {
	if (!Array.isArray(v)) return undefined;
	return v.filter(isRecord).map((t) => ({
		content: str(t.content) ?? str(t.subject) ?? toJson(t),
		status: str(t.status) ?? 'pending',
		...(str(t.activeForm) ? { activeForm: str(t.activeForm) as string } : {})
	}));
}

function oneLine(s: string, max = 160): string {
	const t = s.replace(/\s+/g, ' ').trim();
	return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Build the display view of one tool_use block and its paired result. */
export function buildCallView(
	block: Record<string, unknown>,
	callUuid: string | null,
	callMs: number | null,
	result: PairedResult | null,
	turnOver: boolean
): ToolCallView {
	const id = str(block.id) ?? '';
	const name = str(block.name) ?? '(unnamed tool)';
	const input = block.input;
	const inp = isRecord(input) ? input : {};
	const cls = classifyTool(name);
	const mcp = splitMcp(name);
	const tur = result ? result.toolUseResult : undefined;
	const tr = isRecord(tur) ? tur : {};

	const status: CallStatus = result ? (result.block.is_error === true ? 'error' : 'ok') : turnOver ? 'no-result' : 'running';
	const output = result ? cap(resultText(result.block.content)) : null;

	const view: ToolCallView = {
		id,
		name,
		verb: cls.verb,
		renderer: cls.renderer,
		title: '',
		target: null,
		mcp,
		inputJson: toJson(input ?? {}),
		status,
		output,
		images: result ? resultImages(result.block.content) : [],
		startMs: callMs,
		endMs: result ? result.ms : null,
		callUuid,
		resultUuid: result ? result.uuid : null
	};

	switch (name) {
		case 'Bash':
		case 'BashOutput': {
			const command = str(inp.command) ?? (str(inp.bash_id) ? `(output of ${str(inp.bash_id)})` : '');
			view.command = command;
			view.target = oneLine(command);
			const desc = str(inp.description);
			if (desc) view.description = desc;
			if (name === 'Bash') view.verb = bashVerb(command);
			const stdout = str(tr.stdout);
			const stderr = str(tr.stderr);
			if (stdout !== null) view.stdout = cap(stdout);
			if (stderr) view.stderr = cap(stderr);
			view.title = desc ? oneLine(desc) : `Ran ${oneLine(command, 80)}`;
			break;
		}
		case 'Read':
		case 'NotebookRead':
		case 'LS': {
			const p = str(inp.file_path) ?? str(inp.notebook_path) ?? str(inp.path) ?? '';
			const off = typeof inp.offset === 'number' ? inp.offset : null;
			const lim = typeof inp.limit === 'number' ? inp.limit : null;
			view.target = p + (off !== null || lim !== null ? `:${off ?? 1}${lim !== null ? `+${lim}` : ''}` : '');
			view.title = `${name === 'LS' ? 'Listed' : 'Read'} ${basename(p) || p}`;
			break;
		}
		case 'Grep':
		case 'Glob':
		case 'ToolSearch': {
			const pattern = str(inp.pattern) ?? str(inp.query) ?? '';
			const where = str(inp.path) ?? str(inp.glob);
			view.target = where ? `${pattern} in ${where}` : pattern;
			view.title = `${name === 'Glob' ? 'Found files' : 'Searched'} ${oneLine(pattern, 80)}`;
			break;
		}
		case 'Edit':
		case 'MultiEdit':
		case 'Write':
		case 'NotebookEdit': {
			const p = str(inp.file_path) ?? str(inp.notebook_path) ?? str(tr.filePath) ?? '';
			view.target = p;
			const diffs = diffsForCall(name, input, tur);
			if (diffs) view.diffs = diffs;
			view.title = `${name === 'Write' ? (tr.type === 'create' ? 'Created' : 'Wrote') : 'Edited'} ${basename(p) || p}`;
			break;
		}
		case 'WebFetch': {
			view.target = str(inp.url) ?? '';
			view.title = `Fetched ${oneLine(view.target, 100)}`;
			break;
		}
		case 'WebSearch': {
			view.target = str(inp.query) ?? '';
			view.title = `Searched the web for ${oneLine(view.target, 100)}`;
			break;
		}
		case 'TodoWrite': {
			const todos = todosOf(inp.todos) ?? todosOf(tr.newTodos) ?? [];
			view.todos = todos;
			const done = todos.filter((t) => t.status === 'completed').length;
			view.title = `Updated the plan (${done}/${todos.length} done)`;
			break;
		}
		default: {
			if (mcp) {
				view.title = `Used ${mcp.server} \u00b7 ${mcp.tool}`;
				view.target = mcp.tool;
			} else {
				const desc = str(inp.description) ?? str(inp.prompt) ?? str(inp.query) ?? str(inp.url) ?? str(inp.file_path);
				view.target = desc ? oneLine(desc, 100) : null;
				view.title = `Used ${name}`;
			}
		}
	}
	// The recorded result adds something only when it is more than the result content itself.
	if (tur !== undefined && view.renderer === 'generic' && !(Array.isArray(tur) && result && tur.length === (Array.isArray(result.block.content) ? result.block.content.length : -1))) {
		view.resultJson = toJson(tur);
	}
	return view;
}
