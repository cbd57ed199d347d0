// Codex tool identity → the canonical calls the chat draws (see harness/kit.ts): shell /
// shell_command / exec_command / local_shell_call → Bash, apply_patch (custom tool, or inside a
// shell argv) → Edit / Write / MultiEdit with the patch's files, update_plan → TodoWrite,
// view_image → Read, web_search_call → WebSearch, spawn_agent → Task (a delegation), MCP names
// unchanged. Output text is read for the exit code, since Codex stores no is_error.
import { isObj, parseApplyPatch, patchCall, str, type Obj } from '../harness/kit.ts';

export interface CanonicalCall {
	name: string;
	input: unknown;
	/** What the result's toolUseResult starts from (a patch's files). */
	resultBase?: Obj;
	/** Kind of result reading to apply. */
	kind: 'shell' | 'patch' | 'plan' | 'spawn' | 'other';
}

export function parseArgs(v: unknown): unknown {
	if (typeof v !== 'string') return v ?? {};
	try {
		return JSON.parse(v);
	} catch {
		return { raw: v };
	}
}

function argvText(v: unknown): string | null {
	if (typeof v === 'string') return v;
	if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
		const argv = v as string[];
		// ["bash", "-lc", "<script>"] is how Codex wraps every command: show the script.
		if (argv.length === 3 && /(^|\/)(ba|z)?sh$/.test(argv[0]) && /^-l?c$/.test(argv[1])) return argv[2];
		return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
	}
	return null;
}

function patchFromArgv(v: unknown): string | null {
	if (!Array.isArray(v)) return null;
	if (v[0] === 'apply_patch' && typeof v[1] === 'string') return v[1];
	const script = argvText(v);
	const m = script ? /apply_patch\s+<<\s*['"]?EOF['"]?\n([\s\S]*?)\nEOF/.exec(script) : null;
	return m ? m[1] : null;
}

function patchOf(raw: string): CanonicalCall {
	const { name, input, toolUseResult } = patchCall(parseApplyPatch(raw), raw);
	return { name, input, resultBase: toolUseResult, kind: 'patch' };
}

/** A function_call / custom_tool_call / local_shell_call as a canonical call. */
export function canonicalCall(name: string, args: unknown): CanonicalCall {
	const a = isObj(args) ? args : {};
	switch (name) {
		case 'shell':
		case 'container.exec':
		case 'local_shell':
		case 'shell_command':
		case 'exec_command': {
			const cmdField = a.command ?? a.cmd;
			const patch = patchFromArgv(cmdField);
			if (patch !== null) return patchOf(patch);
			const command = argvText(cmdField) ?? '';
			return { name: 'Bash', input: { command, ...(str(a.workdir) ? { workdir: a.workdir } : {}), ...(str(a.justification) ? { description: a.justification } : {}) }, kind: 'shell' };
		}
		case 'write_stdin':
			return { name: 'BashOutput', input: { bash_id: String(a.session_id ?? ''), chars: a.chars ?? '' }, kind: 'shell' };
		case 'apply_patch':
			return patchOf(typeof args === 'string' ? args : (str(a.input) ?? str(a.patch) ?? str(a.raw) ?? ''));
		case 'update_plan': {
			const plan = Array.isArray(a.plan) ? a.plan : [];
			const todos = plan.filter(isObj).map((p) => ({ content: str(p.step) ?? '', status: str(p.status) ?? 'pending' }));
			return { name: 'TodoWrite', input: { todos, ...(str(a.explanation) ? { explanation: a.explanation } : {}) }, kind: 'plan' };
		}
		case 'view_image':
			return { name: 'Read', input: { file_path: str(a.path) ?? '' }, kind: 'other' };
		case 'spawn_agent':
			return {
				name: 'Task',
				input: {
					description: str(a.task_name) ?? str(a.agent_nickname) ?? str(a.nickname) ?? 'Sub-agent',
					prompt: str(a.message) ?? str(a.prompt) ?? str(a.task) ?? '',
					subagent_type: str(a.agent_role) ?? str(a.agent_type) ?? str(a.role) ?? null
				},
				kind: 'spawn'
			};
		default:
			return { name, input: args, kind: 'other' };
	}
}

export interface ReadOutput {
	text: string;
	exitCode: number | null;
	error: boolean;
	images: string[];
}

/** Read a function_call_output / custom_tool_call_output value: its text, exit code, failure. */
export function readOutput(output: unknown): ReadOutput {
	const images: string[] = [];
	let text = '';
	let exitCode: number | null = null;
	let explicitError = false;
	if (typeof output === 'string') {
		text = output;
		const t = output.trim();
		if (t.startsWith('{')) {
			try {
				const j = JSON.parse(t);
				if (isObj(j) && ('output' in j || 'metadata' in j)) {
					text = typeof j.output === 'string' ? j.output : JSON.stringify(j.output ?? '');
					const md = isObj(j.metadata) ? j.metadata : {};
					if (typeof md.exit_code === 'number') exitCode = md.exit_code;
				}
			} catch {
				/* not JSON: plain text */
			}
		}
	} else if (Array.isArray(output)) {
		for (const p of output) {
			if (!isObj(p)) continue;
			if (typeof p.text === 'string') text += (text ? '\n' : '') + p.text;
			if (typeof p.image_url === 'string') images.push(p.image_url);
		}
	} else if (isObj(output)) {
		if (typeof output.text === 'string') text = output.text;
		else if (typeof output.content === 'string') text = output.content;
		else if (typeof output.image_url === 'string') images.push(output.image_url);
		if (output.success === false) explicitError = true;
	}
	if (exitCode === null) {
		const m = /^(?:Exit code:|Process exited with code)\s*(-?\d+)/m.exec(text);
		if (m) exitCode = Number(m[1]);
	}
	const failedText = /^(aborted|tool call error:|error:)/i.test(text.trim()) || /^execution error/i.test(text.trim());
	return { text, exitCode, error: explicitError || failedText || (exitCode !== null && exitCode !== 0), images };
}

/** The command output without Codex's header lines (Exit code / Wall time / Chunk ID / …). */
export function shellBody(text: string): string {
	const i = text.indexOf('\nOutput:\n');
	if (i >= 0 && /^(Exit code|Command|Chunk ID|Wall time)/.test(text)) return text.slice(i + '\nOutput:\n'.length);
	return text;
}
