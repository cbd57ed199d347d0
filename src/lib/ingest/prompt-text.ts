// Human-readable prompt text for titles and for matching an inline sidechain to its Task call:
// the text blocks of a user line, with Claude Code's XML-ish markers stripped or rewritten
// (<command-name>/x</command-name> → "/x", <system-reminder> dropped, ...).

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Markers whose whole content is noise for a title. */
const DROP_BLOCKS = ['system-reminder', 'local-command-caveat', 'local-command-stdout', 'local-command-stderr', 'bash-stdout', 'bash-stderr', 'task-notification'];
const DROP_RES = DROP_BLOCKS.map((tag) => new RegExp(`<${tag}>[\\s\\S]*?</${tag}>`, 'g'));

/** Plain text of a message content (string or blocks); null when it holds tool results or no text. */
export function contentText(content: unknown): string | null {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return null;
	const parts: string[] = [];
	for (const b of content) {
		if (!isObj(b)) continue;
		if (b.type === 'tool_result') return null;
		if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
	}
	return parts.length ? parts.join('\n') : null;
}

/** Strip markers; rewrite a slash-command echo as "/name args". */
export function stripMarkers(text: string): string {
	// Every marker starts with '<': text without one only has its spaces folded.
	if (!text.includes('<')) return text.replace(/\s+/g, ' ').trim();
	let t = text;
	for (const re of DROP_RES) t = t.replace(re, ' ');
	const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(t)?.[1]?.trim();
	if (name) {
		const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(t)?.[1]?.trim() ?? '';
		return (args ? `${name} ${args}` : name).trim();
	}
	const bash = /<bash-input>([\s\S]*?)<\/bash-input>/.exec(t)?.[1]?.trim();
	if (bash) return `! ${bash}`;
	t = t.replace(/<\/?[a-z][a-z0-9-]*>/g, ' ');
	return t.replace(/\s+/g, ' ').trim();
}

export function clip(text: string, max = 80): string {
	if (text.length <= max) return text;
	return text.slice(0, max - 1).trimEnd() + '…';
}

/** The prompt a person typed on this record, or null (meta lines, tool results, empty text). */
export function promptOf(rec: Obj, opts: { allowSidechain?: boolean } = {}): string | null {
	if (rec.type !== 'user' || rec.isMeta === true || rec.isCompactSummary === true) return null;
	if (rec.isSidechain === true && !opts.allowSidechain) return null;
	const msg = rec.message;
	if (!isObj(msg)) return null;
	const text = contentText(msg.content);
	if (text === null) return null;
	const stripped = stripMarkers(text);
	return stripped || null;
}

/** Whitespace-normalised text used to compare a sidechain's first prompt with a Task call's prompt. */
export function normForMatch(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}
