// Python string semantics the reference relies on (quirk 7): str.strip()/str.split() whitespace
// (also the body of regex \s; pyre.ts has the other classes), and UTF-8 encoding with the
// "replace" error handler (a lone surrogate becomes "?"). JS trim() differs: it strips U+FEFF and keeps
// \x1c-\x1f and \x85, so it must not be used where the result feeds a hash or a comparison.

/** Python str.isspace() characters, as a regex character-class body. */
export const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const WS_SET = new Set<number>([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
	0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);

/** True when the UTF-16 code unit is Python whitespace (all such chars are in the BMP). */
export function isPyWs(code: number): boolean {
	if (code === 0x20) return true;
	if (code < 0x09) return false;
	if (code <= 0x0d) return true;
	if (code < 0x1c) return false;
	if (code <= 0x1f) return true;
	if (code < 0x85) return false;
	return WS_SET.has(code);
}

/** Python str.strip() with no argument. */
export function pyStrip(s: string): string {
	let a = 0;
	let b = s.length;
	while (a < b && isPyWs(s.charCodeAt(a))) a++;
	while (b > a && isPyWs(s.charCodeAt(b - 1))) b--;
	return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Python str.lstrip() with no argument. */
export function pyLstrip(s: string): string {
	let a = 0;
	while (a < s.length && isPyWs(s.charCodeAt(a))) a++;
	return a === 0 ? s : s.slice(a);
}

/** Python str.split() with no argument: runs of whitespace separate, no empty parts. */
export function pySplit(s: string): string[] {
	const out: string[] = [];
	let i = 0;
	const n = s.length;
	while (i < n) {
		while (i < n && isPyWs(s.charCodeAt(i))) i++;
		if (i >= n) break;
		const start = i;
		while (i < n && !isPyWs(s.charCodeAt(i))) i++;
		out.push(s.slice(start, i));
	}
	return out;
}

/** UTF-8 bytes of s, Python-style: errors="replace" turns a lone surrogate into "?". */
const encoder = new TextEncoder();

export function utf8Replace(s: string): Uint8Array {
	// TextEncoder writes a lone surrogate as U+FFFD where Python's 'replace' handler writes '?',
	// so it is only used for well-formed text (nearly all of it; the byte loop below is slow).
	if ((s as { isWellFormed?: () => boolean }).isWellFormed?.()) return encoder.encode(s);
	const out: number[] = [];
	for (let i = 0; i < s.length; i++) {
		let c = s.charCodeAt(i);
		if (c < 0x80) { out.push(c); continue; }
		if (c < 0x800) { out.push(0xc0 | (c >> 6), 0x80 | (c & 63)); continue; }
		if (c >= 0xd800 && c <= 0xdfff) {
			const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
			if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
				c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
				i++;
				out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
			} else {
				out.push(0x3f);
			}
			continue;
		}
		out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
	}
	return Uint8Array.from(out);
}

/** Number of Unicode code points (Python len()). */
export function codePointLength(s: string): number {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) i++;
		}
		n++;
	}
	return n;
}

/** Python s[:n] in code points. */
export function codePointSlice(s: string, n: number): string {
	let i = 0;
	let k = 0;
	while (i < s.length && k < n) {
		const c = s.charCodeAt(i);
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) i++;
		}
		i++;
		k++;
	}
	return s.slice(0, i);
}
