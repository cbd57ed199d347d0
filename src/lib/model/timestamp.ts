// Timestamp parsing. The reference turns an ISO-8601 timestamp into integer epoch seconds
// (fraction truncated, quirk 6); Loupe also keeps full-precision milliseconds for the viewer.
// Anything else (numbers, garbage, lower-case "z") is reported so the caller can record an issue.

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|z|[+-]\d{2}:?\d{2})?$/;

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
	const ms = Date.UTC(yh * 100 + yl, mo - 1, da, hh, mi, se, f1 * 10 + f2);
	return { ms, t: Math.trunc(ms / 1000) };
}

/** Parse a transcript timestamp; null when it is missing or cannot be parsed at all. */
export function parseTimestamp(v: unknown): ParsedTime | null {
	if (typeof v !== 'string') return null;
	const fast = fastIso(v);
	if (fast) return fast;
	const m = ISO.exec(v);
	if (!m) return null;
	const frac = m[7] ? Number((m[7] + '000').slice(1, 4)) : 0;
	let ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6], frac);
	if (+m[1] < 100) ms = NaN; // Date.UTC maps years 0-99 to 1900+; never valid here
	const zone = m[8];
	if (zone && zone !== 'Z' && zone !== 'z') {
		const sign = zone[0] === '-' ? -1 : 1;
		const hh = +zone.slice(1, 3);
		const mm = +zone.slice(zone.length - 2);
		ms -= sign * (hh * 60 + mm) * 60000;
	}
	if (!Number.isFinite(ms) || +m[2] < 1 || +m[2] > 12 || +m[3] < 1 || +m[3] > 31 || +m[4] > 23 || +m[5] > 59 || +m[6] > 59) return null;
	const out: ParsedTime = { ms, t: Math.trunc(ms / 1000) };
	if (zone === 'z') out.warn = 'lower-case "z" time zone';
	return out;
}
