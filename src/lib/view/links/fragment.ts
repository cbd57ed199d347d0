// The URL fragment that names what is open: `#s=<session key>&a=<atom uuid>` (or `t=<turn id>`),
// plus `q=<search query>` (a search run when the link opens; `qs=<scope>` when it is not the
// session's, e.g. `qs=history`) and `z=<share payload>` for a
// session carried inside the link. Parsing is tolerant: unknown
// keys, empty values, bad percent-escapes and over-long values are dropped, never thrown on.

export interface Fragment {
	/** Session key. */
	s?: string;
	/** Focused atom uuid. */
	a?: string;
	/** Focused turn id. */
	t?: string;
	/** Search query. */
	q?: string;
	/** The search query's scope, when not the open session (`history`, `loaded`, …). */
	qs?: string;
	/** Share payload (see share.ts). */
	z?: string;
}

const KEYS = ['s', 'a', 't', 'q', 'qs', 'z'] as const;
type Key = (typeof KEYS)[number];

/** Longest accepted s / a / t value; z has its own limit in share.ts. */
export const MAX_ID_CHARS = 1024;
export const MAX_PAYLOAD_CHARS = 2_000_000;

function decode(v: string): string | null {
	try {
		return decodeURIComponent(v.replace(/\+/g, '%20'));
	} catch {
		return null;
	}
}

/** Parses `#s=…&a=…` (leading '#' optional). The first occurrence of a key wins. */
export function parseFragment(hash: string | null | undefined): Fragment {
	const out: Fragment = {};
	if (typeof hash !== 'string') return out;
	const body = hash.startsWith('#') ? hash.slice(1) : hash;
	for (const part of body.split('&')) {
		const eq = part.indexOf('=');
		if (eq <= 0) continue;
		const key = part.slice(0, eq) as Key;
		if (!KEYS.includes(key) || out[key] !== undefined) continue;
		const raw = part.slice(eq + 1);
		if (raw.length > (key === 'z' ? MAX_PAYLOAD_CHARS : MAX_ID_CHARS * 3)) continue;
		const value = key === 'z' ? raw : decode(raw);
		if (!value || (key !== 'z' && value.length > MAX_ID_CHARS)) continue;
		out[key] = value;
	}
	return out;
}

/** Percent-encodes a value, keeping ':' '@' '/' readable (allowed in fragments; turn ids use ':'). */
function encode(v: string): string {
	return encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%40/gi, '@').replace(/%2F/gi, '/');
}

/** Formats a fragment in key order s, a, t, q, qs, z; returns '' when nothing is set. */
export function formatFragment(f: Fragment): string {
	const parts: string[] = [];
	for (const key of KEYS) {
		const v = f[key];
		if (typeof v === 'string' && v) parts.push(`${key}=${key === 'z' ? v : encode(v)}`);
	}
	return parts.length ? `#${parts.join('&')}` : '';
}
