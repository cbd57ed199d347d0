// The reference's timestamp reader (parse_z), for the forms Claude Code does not write itself
// (timestamp.ts parses its own "YYYY-MM-DDTHH:MM:SS.sssZ" directly). Python does:
//   s = s.strip()
//   datetime.fromisoformat(s.replace("Z", "+00:00"))                      (Python 3.11 grammar)
//   else datetime.strptime(s.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z")
//   else datetime.strptime(same, "%Y-%m-%dT%H:%M:%S%z")
//   then int(dt.timestamp())  (a naive time is local time; the reference ran with TZ=UTC)
// fromisoformat reads ASCII digits only, but strptime's pattern is re with Unicode \d under
// IGNORECASE, and int() reads digits of any script: "２０２６-06-10T13:05:09Z" is a valid time
// to the reference. pyre.test.ts checks this module against thousands of Python answers.
import { pyStrip } from './pystr.ts';
import { pyRegExp } from './pyre.ts';

/** int(dt.timestamp()) and the exact epoch microseconds. */
export interface PyTime {
	t: number;
	us: number;
}

export function pyParseZ(raw: string): PyTime | null {
	if (!raw) return null;
	const s = pyStrip(raw);
	const iso = fromIsoFormat(s.replaceAll('Z', '+00:00'));
	if (iso) return iso;
	const z = s.replaceAll('Z', '+0000');
	return strptime(STRPTIME_FRACTION, z) ?? strptime(STRPTIME_WHOLE, z);
}

// ── datetime.fromisoformat (CPython 3.11, _datetimemodule.c) ──────────────────────────────────
// CPython parses the UTF-8 bytes: positions and lengths count bytes, and only the separator may
// be a multi-byte character. So the string is read as byte tokens: each character, then one ""
// per continuation byte (never a digit or a sign), with the byte length of each lead kept aside.

const isDigit = (c: string | undefined) => c !== undefined && c.length === 1 && c >= '0' && c <= '9';

/** parse_digits: exactly n ASCII digits from cps[at], or null. */
function digits(cps: string[], at: number, n: number): number | null {
	let v = 0;
	for (let k = 0; k < n; k++) {
		const c = cps[at + k];
		if (!isDigit(c)) return null;
		v = v * 10 + (c.charCodeAt(0) - 48);
	}
	return v;
}

/** Where the date ends (the separator's index), decided from characters 4, 5, 8 and 10. */
function separatorAt(cps: string[]): number {
	const len = cps.length;
	if (len === 7) return 7;
	if (cps[4] === '-') {
		if (cps[5] !== 'W') return 10;
		if (len < 8) return -1;
		if (len > 8 && cps[8] === '-') {
			if (len === 9) return -1;
			return len > 10 && isDigit(cps[10]) ? 8 : 10;
		}
		return 8;
	}
	if (cps[4] !== 'W') return 8;
	let idx = 7;
	while (idx < len && isDigit(cps[idx])) idx++;
	if (idx < 9) return idx;
	return idx % 2 === 0 ? 7 : 8;
}

/** parse_isoformat_date over cps[0, end): [year, month, day] or null. */
function isoDate(cps: string[], end: number): [number, number, number] | null {
	const year = digits(cps, 0, 4);
	if (year === null) return null;
	let p = 4;
	const sep = cps[p] === '-';
	if (sep) p++;
	if (cps[p] === 'W') {
		p++;
		const week = digits(cps, p, 2);
		if (week === null) return null;
		p += 2;
		let day = 1;
		if (p < end) {
			if (sep && cps[p++] !== '-') return null;
			const d = digits(cps, p, 1);
			if (d === null) return null;
			day = d;
		}
		return isoWeekDate(year, week, day);
	}
	const month = digits(cps, p, 2);
	if (month === null) return null;
	p += 2;
	if (sep && cps[p++] !== '-') return null;
	const day = digits(cps, p, 2);
	return day === null ? null : [year, month, day];
}

/** iso_to_ymd: the calendar date of ISO year / week / weekday. */
function isoWeekDate(year: number, week: number, day: number): [number, number, number] | null {
	if (week <= 0 || week >= 53) {
		// Week 53 exists only in years that start on a Thursday (or a Wednesday in a leap year).
		const first = utcDay(year, 1, 1).getUTCDay();
		if (week !== 53 || !(first === 4 || (first === 3 && isLeap(year)))) return null;
	}
	if (day <= 0 || day >= 8) return null;
	// Monday of week 1 is the Monday on or before January 4th.
	const jan4 = utcDay(year, 1, 4);
	const dow = (jan4.getUTCDay() + 6) % 7;
	const d = new Date(jan4.getTime() + ((week - 1) * 7 + (day - 1) - dow) * 86400000);
	return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

/** Midnight UTC of a date; unlike Date.UTC, years 0–99 are not moved to the 1900s. */
function utcDay(y: number, mo: number, d: number): Date {
	const day = new Date(0);
	day.setUTCFullYear(y, mo - 1, d);
	return day;
}

/** parse_hh_mm_ss_ff over cps[p, end): [h, m, s, us, notAtEnd] or null. */
function hhmmssff(cps: string[], p: number, end: number): [number, number, number, number, boolean] | null {
	const vals = [0, 0, 0];
	let hasSep = true;
	for (let i = 0; i < 3; i++) {
		const v = digits(cps, p, 2);
		if (v === null) return null;
		vals[i] = v;
		p += 2;
		const c = cps[p++];
		if (i === 0) hasSep = c === ':';
		if (p >= end) return [vals[0], vals[1], vals[2], 0, c !== undefined];
		if (hasSep && c === ':') continue;
		if (c === '.' || c === ',') break;
		if (!hasSep) p--;
		else return null;
		if (i === 2) break;
	}
	const take = Math.max(0, Math.min(end - p, 6));
	const f = digits(cps, p, take);
	if (f === null) return null;
	p += take;
	const us = f * 10 ** (6 - take);
	while (isDigit(cps[p])) p++;
	return [vals[0], vals[1], vals[2], us, p < cps.length];
}

/** The byte tokens of a string, or null when it cannot be UTF-8 (a lone surrogate). */
function byteTokens(str: string): { cps: string[]; lens: number[] } | null {
	const chars = Array.from(str);
	// A lone surrogate is allowed as the separator only (positions 7, 8, 10; the first wins).
	for (const pos of [7, 8, 10]) {
		if (pos > chars.length) break;
		const c = chars[pos]?.charCodeAt(0);
		if (c !== undefined && chars[pos].length === 1 && c >= 0xd800 && c <= 0xdfff) {
			chars[pos] = 'T';
			break;
		}
	}
	const cps: string[] = [];
	const lens: number[] = [];
	for (const ch of chars) {
		const cp = ch.codePointAt(0)!;
		if (cp >= 0xd800 && cp <= 0xdfff) return null;
		const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
		cps.push(ch);
		lens.push(n);
		for (let k = 1; k < n; k++) {
			cps.push('');
			lens.push(0);
		}
	}
	return { cps, lens };
}

function fromIsoFormat(str: string): PyTime | null {
	if (Array.from(str).length < 7) return null;
	const bytes = byteTokens(str);
	if (!bytes) return null;
	const { cps, lens } = bytes;
	const sepAt = separatorAt(cps);
	if (sepAt < 0) return null;
	const date = isoDate(cps, sepAt);
	if (!date) return null;
	let time: [number, number, number, number] = [0, 0, 0, 0];
	let offUs = 0;
	let aware = false;
	if (cps.length > sepAt) {
		// The separator is skipped by its lead byte's length (a continuation byte counts as two).
		const lead = lens[sepAt];
		const start = sepAt + (lead === 1 ? 1 : lead === 3 ? 3 : lead === 4 ? 4 : 2);
		let tz = start;
		while (tz < cps.length && cps[tz] !== 'Z' && cps[tz] !== '+' && cps[tz] !== '-') tz++;
		const hm = hhmmssff(cps, start, tz);
		if (!hm) return null;
		time = [hm[0], hm[1], hm[2], hm[3]];
		if (tz >= cps.length) {
			if (hm[4]) return null;
		} else if (cps[tz] === 'Z') {
			if (tz + 1 < cps.length) return null;
			aware = true;
		} else {
			const sign = cps[tz] === '-' ? -1 : 1;
			const z = hhmmssff(cps, tz + 1, cps.length);
			if (!z || z[4]) return null;
			offUs = sign * ((z[0] * 3600 + z[1] * 60 + z[2]) * 1e6 + z[3]);
			aware = true;
			if (Math.abs(offUs) >= 86400e6) return null;
		}
	}
	return epochOf(date[0], date[1], date[2], time[0], time[1], time[2], time[3], aware ? offUs : 0);
}

// ── datetime.strptime with the two formats (Lib/_strptime.py, IGNORECASE) ─────────────────────

// The patterns _strptime builds for the two formats (its %Y %m %d %H %M %S %f %z pieces), in
// Python syntax; pyRegExp gives them Python's Unicode \d. _strptime matches them at the start
// and then requires the whole string to be used.
const Y = String.raw`(?P<Y>\d\d\d\d)-(?P<m>1[0-2]|0[1-9]|[1-9])-(?P<d>3[0-1]|[1-2]\d|0[1-9]|[1-9]| [1-9])T(?P<H>2[0-3]|[0-1]\d|\d):(?P<M>[0-5]\d|\d):(?P<S>6[0-1]|[0-5]\d|\d)`;
const ZONE = String.raw`(?P<z>[+-]\d\d:?[0-5]\d(:?[0-5]\d(\.\d{1,6})?)?)`;
const STRPTIME_FRACTION = pyRegExp(String.raw`^${Y}\.(?P<f>[0-9]{1,6})${ZONE}`, { ignoreCase: true });
const STRPTIME_WHOLE = pyRegExp(String.raw`^${Y}${ZONE}`, { ignoreCase: true });

/** Python int() of a string of decimal digits of any script (each a \p{Nd} character). */
function pyInt(s: string): number {
	let v = 0;
	for (const ch of s) v = v * 10 + digitValue(ch.codePointAt(0)!);
	return v;
}

/** The value of a \p{Nd} digit. Each script's digits are a contiguous run 0–9, and runs that
 *  abut (the mathematical digits) are whole runs of ten, so the offset in the run says the value. */
function digitValue(cp: number): number {
	if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
	let start = cp;
	while (ND.test(String.fromCodePoint(start - 1))) start--;
	return (cp - start) % 10;
}
const ND = /^\p{Nd}$/u;

function strptime(rx: RegExp, s: string): PyTime | null {
	const m = rx.exec(s);
	if (!m || m[0].length !== s.length || !m.groups) return null;
	const g = m.groups;
	const frac = g.f !== undefined ? Number((g.f + '000000').slice(0, 6)) : 0;
	let zc = Array.from(g.z);
	if (zc[3] === ':') {
		zc = [...zc.slice(0, 3), ...zc.slice(4)];
		if (zc.length > 5) {
			if (zc[5] !== ':') return null;
			zc = [...zc.slice(0, 5), ...zc.slice(6)];
		}
	}
	const off = pyInt(zc.slice(1, 3).join('')) * 3600 + pyInt(zc.slice(3, 5).join('')) * 60 + (zc.length > 5 ? pyInt(zc.slice(5, 7).join('')) : 0);
	const rest = zc.slice(8).join('');
	const offFrac = rest ? pyInt((rest + '000000').slice(0, 6)) : 0;
	const sign = zc[0] === '-' ? -1 : 1;
	const offUs = sign * (off * 1e6 + offFrac);
	if (Math.abs(offUs) >= 86400e6) return null;
	return epochOf(pyInt(g.Y), pyInt(g.m), pyInt(g.d.trim()), pyInt(g.H), pyInt(g.M), pyInt(g.S), frac, offUs);
}

// ── datetime(...) validation and timestamp() ──────────────────────────────────────────────────

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function epochOf(y: number, mo: number, d: number, h: number, mi: number, s: number, us: number, offUs: number): PyTime | null {
	if (y < 1 || y > 9999 || mo < 1 || mo > 12 || d < 1) return null;
	if (d > (mo === 2 && isLeap(y) ? 29 : MONTH_DAYS[mo - 1])) return null;
	if (h > 23 || mi > 59 || s > 59) return null;
	const secs = utcDay(y, mo, d).getTime() / 1000 + h * 3600 + mi * 60 + s;
	const total = secs * 1e6 + us - offUs;
	return { t: Math.trunc(total / 1e6), us: total };
}
