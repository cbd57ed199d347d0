// Prompt gist: the one-line summary a timeline tooltip shows for a segment's input — the first
// meaningful line of the prompt, with romp / Claude Code markers and XML-ish wrapper tags
// stripped, repeated-token storms collapsed ("retry ×14"), cut at a word boundary.
// Pure string work; the text is untrusted and is only ever rendered as text.

export const GIST_MAX = 90;

/** Lines that frame a postal delivery rather than say anything (event-model reference §1.4). */
const FRAMING_LINES = [
	/^stop hook feedback:?$/i,
	/^📬/u,
	/^new message\(s\) from your romp peers:?$/i,
	/^[—–-]\s*from\s.+:$/u,
	/^#{3,}$/
];

/** Removes HTML comments (romp markers), XML-ish tags (keeping their inner text) and `[romp]`. */
export function stripMarkers(text: string): string {
	return text
		.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
		.replace(/<\/?[A-Za-z][\w:.-]*(?:\s[^<>]*)?\/?>/g, ' ')
		.replace(/\[romp\]/gi, ' ');
}

/** "retry retry retry retry" → "retry ×4" (three or more in a row). */
export function collapseRepeats(line: string): string {
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

/** Cuts at the last word boundary before `max` characters (code points) and adds "…". */
export function cutAtWord(line: string, max = GIST_MAX): string {
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
	// A raw slash-command invocation reads best as "/name args", wherever its tags sit.
	const name = /<command-name>([\s\S]*?)<\/command-name>/.exec(text)?.[1].trim();
	if (name) {
		const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1].trim();
		text = args ? `${name} ${args}` : name;
	}
	for (const raw of stripMarkers(text).split(/\r?\n/)) {
		const line = raw.replace(/\s+/gu, ' ').trim();
		if (!line || FRAMING_LINES.some((re) => re.test(line))) continue;
		return cutAtWord(collapseRepeats(line), max);
	}
	return '';
}
