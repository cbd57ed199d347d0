// Python 3 `re` semantics for JavaScript regexes. The reference is Python, whose `re` on str is
// Unicode-aware where JavaScript's is not (even with the u flag, \w \d \b stay ASCII and \s is a
// different set), so a pattern copied as is would match different strings. pyRegExp() takes a
// pattern in Python syntax and returns a u-flag RegExp that matches what Python's would:
//
//   \w  [\p{L}\p{N}_]        Python: str.isalnum() or "_" = categories L*, N* and "_" (combining
//                            marks are NOT word characters)
//   \d  \p{Nd}               Python: str.isdecimal() = category Nd
//   \s  str.isspace()        includes U+001C–U+001F, U+0085, NBSP and the Unicode spaces; not
//                            U+200B or U+FEFF (pystr.ts PY_WS)
//   \b  \w / non-\w edge     built from the \w above with lookarounds
//   .   [^\n]                Python's dot stops only at "\n" (JS also at \r, U+2028, U+2029)
//   $   end or final "\n"    Python's $ also matches just before a trailing newline
//   re.I                     ASCII letters fold as Python folds them: "i" also matches U+0130 and
//                            U+0131, "k" the KELVIN SIGN U+212A, "s" the LONG S U+017F
//
// The character tables follow the JS engine's Unicode database; Python 3.11 (the reference's)
// uses Unicode 14.0, so they agree on every character assigned in 14.0 (pyre.test.ts checks all
// of them against tables Python itself wrote). Only what the model's patterns use is supported;
// anything else throws when the pattern is built, never silently differs. One limit: V8 may try
// an empty match between the two halves of a surrogate pair (a position Python's code-point
// strings do not have) when a pattern STARTS with a lookaround such as \b; none of the model's do.
import { isPyWs, PY_WS } from './pystr.ts';

/** Class body of Python's \w (use inside [...], u flag). */
export const PY_WORD = '\\p{L}\\p{N}_';
/** Class body of Python's \d. */
export const PY_DIGIT = '\\p{Nd}';
/** Class body of Python's \s. */
export const PY_SPACE = PY_WS;

const W = `[${PY_WORD}]`;
const BOUNDARY = `(?:(?<=${W})(?!${W})|(?<!${W})(?=${W}))`;
const NOT_BOUNDARY = `(?:(?<=${W})(?=${W})|(?<!${W})(?!${W}))`;
/** Non-ASCII characters Python's re.IGNORECASE lets an ASCII letter match. */
const FOLD_EXTRA: Record<string, string> = { i: '\\u0130\\u0131', k: '\\u212a', s: '\\u017f' };
/** Characters JS (u flag) lets, or needs, a backslash before, outside and inside classes. */
const JS_SYNTAX = new Set('^$\\.*+?()[]{}|/');

export interface PyFlags {
	/** re.IGNORECASE */
	ignoreCase?: boolean;
	/** the JS g flag (findall / sub / finditer loops) */
	global?: boolean;
}

/** A RegExp (u flag) matching what Python's re.compile(source, flags) matches. */
export function pyRegExp(source: string, flags: PyFlags = {}): RegExp {
	return new RegExp(pyToJs(source, !!flags.ignoreCase), flags.global ? 'gu' : 'u');
}

/** The JS source (for the u flag) of a Python pattern. */
export function pyToJs(src: string, ignoreCase: boolean): string {
	let out = '';
	let i = 0;
	while (i < src.length) {
		const c = src[i];
		if (c === '\\') {
			const [js, next] = escapeOutside(src, i);
			out += js;
			i = next;
		} else if (c === '[') {
			const [js, next] = charClass(src, i, ignoreCase);
			out += js;
			i = next;
		} else if (c === '.') {
			out += '[^\\n]';
			i++;
		} else if (c === '$') {
			out += '(?=\\n?$)';
			i++;
		} else if (c === '(' && src[i + 1] === '?') {
			const [js, next] = groupOpen(src, i);
			out += js;
			i = next;
		} else if (c === '{') {
			// A quantifier, or (as Python reads any other brace) a literal brace.
			const q = /^\{\d*(?:,\d*)?\}/.exec(src.slice(i));
			out += q && q[0] !== '{}' && q[0] !== '{,}' ? q[0] : '\\{';
			i += q && q[0] !== '{}' && q[0] !== '{,}' ? q[0].length : 1;
		} else if (c === '}' || c === ']') {
			out += '\\' + c;
			i++;
		} else if (ignoreCase && /[A-Za-z]/.test(c)) {
			out += foldClass(c);
			i++;
		} else if (ignoreCase && c.toLowerCase() !== c.toUpperCase()) {
			throw new Error(`pyRegExp: a non-ASCII cased letter under IGNORECASE is not supported (${c})`);
		} else {
			out += c;
			i++;
		}
	}
	return out;
}

function groupOpen(src: string, i: number): [string, number] {
	if (src.startsWith('(?P<', i)) {
		const end = src.indexOf('>', i);
		return [`(?<${src.slice(i + 4, end)}>`, end + 1];
	}
	if (src.startsWith('(?P=', i)) {
		const end = src.indexOf(')', i);
		return [`\\k<${src.slice(i + 4, end)}>`, end + 1];
	}
	for (const g of ['(?:', '(?=', '(?!', '(?<=', '(?<!']) if (src.startsWith(g, i)) return [g, i + g.length];
	throw new Error(`pyRegExp: unsupported group ${src.slice(i, i + 4)}`);
}

function escapeOutside(src: string, i: number): [string, number] {
	const e = src[i + 1];
	switch (e) {
		case 'w': return [W, i + 2];
		case 'W': return [`[^${PY_WORD}]`, i + 2];
		case 'd': return [PY_DIGIT, i + 2];
		case 'D': return ['\\P{Nd}', i + 2];
		case 's': return [`[${PY_SPACE}]`, i + 2];
		case 'S': return [`[^${PY_SPACE}]`, i + 2];
		case 'b': return [BOUNDARY, i + 2];
		case 'B': return [NOT_BOUNDARY, i + 2];
		case 'A': return ['^', i + 2];
		case 'Z': return ['$', i + 2];
		default: return commonEscape(src, i);
	}
}

/** Escapes that mean the same single character (or back-reference) in both dialects. */
function commonEscape(src: string, i: number): [string, number] {
	const e = src[i + 1];
	if (e === undefined) throw new Error('pyRegExp: pattern ends with a backslash');
	if ('ntrfv'.includes(e)) return ['\\' + e, i + 2];
	if (e === 'a') return ['\\x07', i + 2];
	if (e === 'x') return ['\\x' + src.slice(i + 2, i + 4), i + 4];
	if (e === 'u') return ['\\u' + src.slice(i + 2, i + 6), i + 6];
	if (e === 'U') return [`\\u{${src.slice(i + 2, i + 10)}}`, i + 10];
	if (/[0-9]/.test(e)) return ['\\' + e, i + 2];
	if (/[A-Za-z]/.test(e)) throw new Error(`pyRegExp: unsupported escape \\${e}`);
	// Python lets any punctuation be escaped; JS (u flag) only its syntax characters (and "-").
	return [JS_SYNTAX.has(e) || e === '-' ? '\\' + e : e, i + 2];
}

/** A [...] class from src[i] = "["; returns the JS class and the index after its "]". */
function charClass(src: string, i: number, ignoreCase: boolean): [string, number] {
	let j = i + 1;
	let out = '[';
	if (src[j] === '^') {
		out += '^';
		j++;
	}
	let first = true;
	while (j < src.length && (src[j] !== ']' || first)) {
		first = false;
		const c = src[j];
		if (c === '\\') {
			const e = src[j + 1];
			if (e === 'w') out += PY_WORD;
			else if (e === 'd') out += PY_DIGIT;
			else if (e === 's') out += PY_SPACE;
			else if (e === 'D') out += '\\P{Nd}';
			else if (e === 'S') out += NOT_SPACE;
			else if (e === 'W' || e === 'b' || e === 'B') throw new Error(`pyRegExp: \\${e} inside a class is not supported`);
			else {
				const [js, next] = commonEscape(src, j);
				out += js;
				j = next;
				continue;
			}
			j += 2;
			continue;
		}
		if (ignoreCase && c.toLowerCase() !== c.toUpperCase()) throw new Error('pyRegExp: letters inside a class under IGNORECASE are not supported');
		out += c === ']' ? '\\]' : c === '[' ? '\\[' : c;
		j++;
	}
	if (j >= src.length) throw new Error('pyRegExp: unterminated character class');
	return [out + ']', j + 1];
}

function foldClass(letter: string): string {
	const lo = letter.toLowerCase();
	return `[${lo}${lo.toUpperCase()}${FOLD_EXTRA[lo] ?? ''}]`;
}

/** Class body of everything but Python whitespace (\S inside a class); all of it is below U+3001. */
const NOT_SPACE = ((): string => {
	const hex = (n: number) => `\\u{${n.toString(16)}}`;
	let body = '';
	let start = 0;
	for (let c = 0; c <= 0x3000; c++) {
		if (!isPyWs(c)) continue;
		if (start < c) body += start === c - 1 ? hex(start) : `${hex(start)}-${hex(c - 1)}`;
		start = c + 1;
	}
	return body + `${hex(start)}-${hex(0x10ffff)}`;
})();
