// Timestamp parsing. The reference turns an ISO-8601 timestamp into integer epoch seconds
// (fraction truncated, quirk 6); Loupe also keeps full-precision milliseconds for the viewer.
// Claude Code's own form is read directly; any other string is read exactly as the reference
// reads it (pytime.ts: fromisoformat, then strptime with Unicode digits). Anything else
// (numbers, garbage) is reported so the caller can record an issue; a lower-case "z" zone, which
// the reference cannot read, is read as UTC and flagged (D5).
import { pyParseZ } from './pytime.ts';

export interface ParsedTime {
	/** Epoch milliseconds (sub-millisecond digits dropped). */
	ms: number;
	/** Integer epoch seconds, truncated toward zero like Python int(). */
	t: number;
	/** Set when the value parsed but in a form the reference would reject. */
	warn?: string;
}

function d2(s: string, i: number): number {
	const a = s.charCodeAt(i) - 48;
	const b = s.charCodeAt(i + 1) - 48;
	return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** Fast path for Claude Code's own form "YYYY-MM-DDTHH:MM:SS.sssZ" (no regex, no allocation). */
function fastIso(s: string): ParsedTime | null {
	if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */ || s.charCodeAt(4) !== 45 ||
		s.charCodeAt(7) !== 45 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46) return null;
	const yh = d2(s, 0), yl = d2(s, 2), mo = d2(s, 5), da = d2(s, 8), hh = d2(s, 11), mi = d2(s, 14), se = d2(s, 17);
	const f1 = d2(s, 20), f2 = s.charCodeAt(22) - 48;
	if ((yh | yl | mo | da | hh | mi | se | f1) < 0 || f2 < 0 || f2 > 9) return null;
	if (yh * 100 + yl < 100 || mo < 1 || mo > 12 || da < 1 || da > 31 || hh > 23 || mi > 59 || se > 59) return null;
	if (da > 28 && da > daysInMonth(yh * 100 + yl, mo)) return null; // e.g. Feb 30: the reference rejects it
	const ms = Date.UTC(yh * 100 + yl, mo - 1, da, hh, mi, se, f1 * 10 + f2);
	return { ms, t: Math.trunc(ms / 1000) };
}

function daysInMonth(y: number, mo: number): number {
	if (mo === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
	return mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
}

/** Parse a transcript timestamp; null when it is missing or cannot be parsed at all. */
export function parseTimestamp(v: unknown): ParsedTime | null {
	if (typeof v !== 'string') return null;
	const fast = fastIso(v);
	if (fast) return fast;
	const py = pyParseZ(v);
	if (py) return { ms: Math.floor(py.us / 1000), t: py.t };
	const lower = /z$/.exec(v.trimEnd()) ? pyParseZ(v.trimEnd().slice(0, -1) + 'Z') : null;
	return lower ? { ms: Math.floor(lower.us / 1000), t: lower.t, warn: 'lower-case "z" time zone' } : null;
}
