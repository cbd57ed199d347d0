// Path helpers for dropped files: normalise separators, split into segments, and read the
// names Claude Code gives its files (<sid>.jsonl, <sid>/subagents/agent-<id>.jsonl, ...).

/** '/'-separated, without a leading './' or '/'. */
export function normPath(path: string): string {
	return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

export function segments(path: string): string[] {
	return normPath(path).split('/').filter((s) => s.length > 0);
}

export function baseName(path: string): string {
	const s = segments(path);
	return s.length ? s[s.length - 1] : '';
}

/** File name without its last extension ('a.jsonl' → 'a'; 'agent-x.meta.json' → 'agent-x.meta'). */
export function stemOf(path: string): string {
	const b = baseName(path);
	const dot = b.lastIndexOf('.');
	return dot > 0 ? b.slice(0, dot) : b;
}

/** Folder part of the path ('' at the top). */
export function dirOf(path: string): string {
	const s = segments(path);
	return s.slice(0, -1).join('/');
}

/** `agent-<id>.jsonl` / `agent-<id>.meta.json` → id. */
export function agentIdFromName(name: string): string | null {
	const m = /^agent-(.+?)(?:\.meta\.json|\.jsonl)$/.exec(name);
	return m ? m[1] : null;
}

/** The parent session id of `<sid>/subagents/...` paths: the segment before 'subagents'. */
export function sessionFromSubagentPath(path: string): string | null {
	const s = segments(path);
	const i = s.lastIndexOf('subagents');
	return i > 0 ? s[i - 1] : null;
}

export function isUnderSubagents(path: string): boolean {
	return segments(path).slice(0, -1).includes('subagents');
}

/** `states/<sid>.jsonl` → sid. */
export function stateLogSid(path: string): string | null {
	const s = segments(path);
	if (s.length >= 2 && s[s.length - 2] === 'states' && s[s.length - 1].endsWith('.jsonl')) return stemOf(path);
	return null;
}

export function isPostalPath(path: string): boolean {
	const s = segments(path);
	return s.length >= 2 && s[s.length - 2] === 'timeline' && s[s.length - 1] === 'messages.jsonl';
}
