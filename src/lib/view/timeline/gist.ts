// Prompt gist: the one-line summary a timeline tooltip shows for a segment's input — the first
// meaningful line of the prompt, with romp / Claude Code markers and XML-ish wrapper tags
// stripped, repeated-token storms collapsed ("retry ×14"), cut at a word boundary.
// Pure string work; the text is untrusted and is only ever rendered as text.

export const GIST_MAX = 90;

/** Lines that frame a postal delivery rather than say anything (event-model reference §1.4). */
const FRAMING_START = /^[SsNn\uD83D—–#-]/;
const FRAMING_LINE = /^(?:stop hook feedback:?|📬.*|new message\(s\) from your romp peers:?|[—–-]\s*from\s.+:|#{3,})$/iu;

/** Context the harness wraps around a prompt (IDE state, reminders): not what the person asked. */
const CONTEXT_TAGS = /<(ide_opened_file|ide_selection|ide_diagnostics|system-reminder|local-command-caveat)\b[^>]*>[\s\S]*?<\/\1>/g;

/** Removes HTML comments (romp markers), XML-ish tags (keeping their inner text) and `[romp]`. */
export function stripMarkers(text: string): string {
	return text
		.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
		.replace(/<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/g, ' ')
		.replace(/\[romp\]/gi, ' ');
}

/** "retry retry retry retry" → "retry ×4" (three or more in a row). */
export function collapseRepeats(line: string): string {
	if (!hasStorm(line)) return line;
	const words = line.split(' ');
	const out: string[] = [];
	for (let i = 0; i < words.length; ) {
		let j = i + 1;
		while (j < words.length && words[j] === words[i]) j++;
		const n = j - i;
		out.push(n >= 3 ? `${words[i]} ×${n}` : words.slice(i, j).join(' '));
		i = j;
	}
	return out.join(' ');
}

/** Whether three ' '-separated words in a row are equal (scanned in place: no arrays). */
function hasStorm(line: string): boolean {
	let s2 = -1;
	let e2 = -1;
	let s1 = -1;
	let e1 = -1;
	for (let start = 0; ; ) {
		let end = line.indexOf(' ', start);
		if (end < 0) end = line.length;
		if (s2 >= 0 && sameSpan(line, s1, e1, start, end) && sameSpan(line, s2, e2, start, end)) return true;
		s2 = s1;
		e2 = e1;
		s1 = start;
		e1 = end;
		if (end === line.length) return false;
		start = end + 1;
	}
}

function sameSpan(s: string, a0: number, a1: number, b0: number, b1: number): boolean {
	if (a1 - a0 !== b1 - b0) return false;
	for (let i = 0; i < a1 - a0; i++) if (s.charCodeAt(a0 + i) !== s.charCodeAt(b0 + i)) return false;
	return true;
}

/** Whitespace other than single spaces (what firstLine's collapsing would change). */
const ODD_SPACE = /[^\S ]| {2}/;

/** Cuts at the last word boundary before `max` characters (code points) and adds "…". */
export function cutAtWord(line: string, max = GIST_MAX): string {
	if (line.length <= max) return line; // UTF-16 length ≥ code points
	const chars = Array.from(line);
	if (chars.length <= max) return line;
	const head = chars.slice(0, max - 1).join('');
	const space = head.lastIndexOf(' ');
	const cut = space >= max / 2 ? head.slice(0, space) : head;
	return cut.replace(/[\s,;:.]+$/u, '') + '…';
}

/** Only the head of a long prompt is looked at: the gist is its first meaningful line. */
const HEAD_CHARS = 4000;

/** The gist of a prompt's text: first meaningful line, markers stripped, ≤ max chars. '' if none. */
export function promptGist(text: string, max = GIST_MAX): string {
	text = text.length > HEAD_CHARS ? text.slice(0, HEAD_CHARS) : text;
	// Fast path: plain prose (most prompts) has no tags, comments or [romp] to strip.
	if (!text.includes('<') && !text.includes('[')) return firstLine(text, max);
	// A raw slash-command invocation reads best as "/name args", wherever its tags sit.
	const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1].trim();
	if (name) {
		const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1].trim();
		text = args ? `${name} ${args}` : name;
	}
	// Prefer the prompt without harness context; a prompt that is only context keeps it.
	return firstLine(stripMarkers(text.replace(CONTEXT_TAGS, ' ')), max) || firstLine(stripMarkers(text), max);
}

/** First line that says something (framing lines skipped), collapsed and cut. */
function firstLine(text: string, max: number): string {
	for (let at = 0; at <= text.length; ) {
		let nl = text.indexOf('\n', at);
		if (nl < 0) nl = text.length;
		let line = text.slice(at, nl);
		line = (ODD_SPACE.test(line) ? line.replace(/\s+/g, ' ') : line).trim();
		at = nl + 1;
		if (!line || (FRAMING_START.test(line) && FRAMING_LINE.test(line))) continue;
		return cutAtWord(collapseRepeats(line), max);
	}
	return '';
}
