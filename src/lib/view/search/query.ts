// The search query compiler: a query string and its options → one matcher over plain text, or a
// sentence saying why the query cannot run (an invalid regular expression is reported, never
// thrown). Every mode compiles to a JavaScript RegExp with the `u` flag, so case-insensitive
// matching uses Unicode simple case folding (ſ finds s, the Kelvin sign K finds k, ς finds σ)
// without keeping a lower-cased copy of the text. CJK needs nothing special: substring matching
// finds a word without spaces around it.

export interface SearchOptions {
	/** Match case exactly (default: fold case). */
	caseSensitive?: boolean;
	/** Only matches that start and end on a word boundary (Unicode letters, digits, marks). */
	wholeWord?: boolean;
	/** The query is a regular expression (JavaScript syntax, `u` mode). */
	regex?: boolean;
	/** é finds e and e finds é: the text and the query are compared without combining marks. */
	ignoreDiacritics?: boolean;
}

export interface Matcher {
	/** The RegExp actually run (global, sticky off); exposed for tests and benchmarks. */
	re: RegExp;
	/** True when the text must be folded with foldDiacritics() before matching. */
	diacritics: boolean;
}

export type Compiled = { ok: true; matcher: Matcher } | { ok: false; error: string };

/** Longest accepted query (a pasted log line is fine; a pasted file is not a query). */
export const MAX_QUERY_CHARS = 1000;

// Ideographs and kana are written without spaces, so every character boundary next to one is a
// word boundary; other letters, digits, marks and connector punctuation form words.
const WORD = String.raw`(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}\p{Pc}])`;
const WORD_START = `(?<!${WORD})`;
const WORD_END = `(?!${WORD})`;

/** Compiles a query; an empty (all-space) query is an error the caller shows as "type to search". */
export function compileQuery(query: string, opts: SearchOptions = {}): Compiled {
	if (typeof query !== 'string' || !query.trim()) return { ok: false, error: 'Type something to search for.' };
	if (query.length > MAX_QUERY_CHARS) return { ok: false, error: `The query is longer than ${MAX_QUERY_CHARS} characters.` };
	const diacritics = !!opts.ignoreDiacritics;
	let body: string;
	if (opts.regex) {
		body = diacritics ? foldDiacritics(query) : query;
		const problem = checkRegex(body);
		if (problem) return { ok: false, error: problem };
	} else {
		body = escapeRegex(diacritics ? foldDiacritics(query) : query);
	}
	if (opts.wholeWord) body = `${WORD_START}(?:${body})${WORD_END}`;
	try {
		const re = new RegExp(body, opts.caseSensitive ? 'gu' : 'giu');
		if (re.test('')) return { ok: false, error: 'This regular expression matches empty text; add something it must find.' };
		re.lastIndex = 0;
		return { ok: true, matcher: { re, diacritics } };
	} catch (e) {
		return { ok: false, error: `Invalid regular expression: ${regexMessage(e)}` };
	}
}

function checkRegex(source: string): string | null {
	try {
		new RegExp(source, 'u');
		return null;
	} catch (e) {
		return `Invalid regular expression: ${regexMessage(e)}`;
	}
}

/** V8 says "Invalid regular expression: /x(/u: Unterminated group"; keep the reason only. */
function regexMessage(e: unknown): string {
	const m = e instanceof Error ? e.message : String(e);
	const reason = m.split(': ').pop() ?? m;
	return reason.trim() || 'it cannot be parsed';
}

export function escapeRegex(s: string): string {
	// Only the syntax characters: with the `u` flag any other escaped character ("\-") is an error.
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const MARKS = /\p{M}+/gu;
const HAS_DECOMPOSABLE = /[^\u0000-\u00bf]/;

/** The text with combining marks removed after canonical decomposition (é → e, ü → u). */
export function foldDiacritics(text: string): string {
	if (!HAS_DECOMPOSABLE.test(text)) return text;
	return text.normalize('NFD').replace(MARKS, '');
}

/**
 * foldDiacritics plus, for each folded UTF-16 index, the index in the original text it came from
 * (one extra entry for the end), so a match in folded text maps back to the original for snippets
 * and highlighting. Only computed for the few texts that have a hit.
 */
export function foldWithMap(text: string): { folded: string; map: Int32Array | null } {
	if (!HAS_DECOMPOSABLE.test(text)) return { folded: text, map: null };
	let folded = '';
	const map: number[] = [];
	let i = 0;
	for (const ch of text) {
		const decomposed = ch.normalize('NFD').replace(MARKS, '');
		for (let k = 0; k < decomposed.length; k++) map.push(i);
		folded += decomposed;
		i += ch.length;
	}
	map.push(text.length);
	return { folded, map: Int32Array.from(map) };
}

/** All match ranges [start, end) in text (original indices), at most `limit`. */
export function findAll(m: Matcher, text: string, limit = Infinity): [number, number][] {
	const { folded, map } = m.diacritics ? foldWithMap(text) : { folded: text, map: null };
	const out: [number, number][] = [];
	const re = m.re;
	re.lastIndex = 0;
	let hit: RegExpExecArray | null;
	while (out.length < limit && (hit = re.exec(folded))) {
		const s = hit.index;
		const e = s + hit[0].length;
		if (e === s) {
			re.lastIndex = s + 1;
			continue;
		}
		out.push(map ? [map[s], map[e]] : [s, e]);
	}
	re.lastIndex = 0;
	return out;
}
