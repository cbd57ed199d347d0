// Share payload: a session's input files carried inside a link's fragment (`#z=…`), never sent to
// any server. Format (version 1): base64url without padding of
//   [ version byte = 1 ] ++ deflate-raw( UTF-8( JSON [[name, text], …] ) )
// Compression uses the platform's CompressionStream (browsers, Node 20). Decoding validates
// everything (alphabet, length, version, decompressed size, JSON shape) and answers with one
// human sentence instead of throwing, because links arrive damaged: truncated by chat apps,
// wrapped by mail clients, hand-edited.

export interface ShareFile {
	name: string;
	text: string;
}

export type ShareDecodeResult = { ok: true; files: ShareFile[] } | { ok: false; message: string };
export type ShareEncodeResult =
	| { ok: true; payload: string }
	| { ok: false; message: string; chars: number };

export const SHARE_VERSION = 1;
/** Longest payload we put in (or accept from) a link: about 1.5 MB of URL. */
export const MAX_SHARE_CHARS = 1_500_000;
/** Decompression stops here, so a tiny link cannot expand into gigabytes. */
export const MAX_SHARE_BYTES = 64 * 1024 * 1024;
export const MAX_SHARE_FILES = 1000;

const MESSAGES = {
	empty: 'This link carries no session.',
	alphabet: 'This share link is damaged (it contains characters a share link never has).',
	tooLong: 'This share link is too long to be a Loupe share link.',
	version: 'This share link was made by a newer or unknown version of Loupe and cannot be opened here.',
	corrupt: 'This share link is damaged or cut short; ask the sender for the link again.',
	tooBig: 'This share link expands to more data than Loupe will open from a link.',
	shape: 'This share link decodes, but not to a list of transcript files.'
} as const;

// ── base64url ──────────────────────────────────────────────────────────────

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;

export function toBase64Url(bytes: Uint8Array): string {
	let out = '';
	let i = 0;
	for (; i + 2 < bytes.length; i += 3) {
		const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
		out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
	}
	const rest = bytes.length - i;
	if (rest === 1) {
		const n = bytes[i] << 16;
		out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
	} else if (rest === 2) {
		const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
		out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
	}
	return out;
}

/** Decodes base64url (no padding; '=' padding tolerated). null on a bad character or length. */
export function fromBase64Url(s: string): Uint8Array | null {
	const str = s.replace(/=+$/, '');
	if (str.length % 4 === 1) return null;
	const out = new Uint8Array(Math.floor((str.length * 3) / 4));
	let o = 0;
	let acc = 0;
	let bits = 0;
	for (let i = 0; i < str.length; i++) {
		const c = str.charCodeAt(i);
		const v = c < 128 ? LOOKUP[c] : -1;
		if (v < 0) return null;
		acc = (acc << 6) | v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (acc >> bits) & 255;
		}
	}
	return out.subarray(0, o);
}

// ── streams ────────────────────────────────────────────────────────────────

/** Runs bytes through a transform stream, collecting at most `limit` output bytes. */
async function pump(bytes: Uint8Array, stream: CompressionStream | DecompressionStream, limit: number): Promise<Uint8Array | 'too-big'> {
	// Blob.stream().pipeThrough() keeps the pipe's own promise handled, so a corrupt input
	// surfaces as a rejected read() below and never as an unhandled rejection.
	const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(stream).getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > limit) {
			await reader.cancel().catch(() => undefined);
			return 'too-big';
		}
		chunks.push(value);
	}
	const out = new Uint8Array(total);
	let at = 0;
	for (const c of chunks) {
		out.set(c, at);
		at += c.byteLength;
	}
	return out;
}

// ── encode / decode ────────────────────────────────────────────────────────

/** The payload for `#z=` — or a message when it would not fit in about 1.5 MB of URL. */
export async function encodeShare(files: readonly ShareFile[], maxChars = MAX_SHARE_CHARS): Promise<ShareEncodeResult> {
	if (files.length > MAX_SHARE_FILES) {
		return { ok: false, chars: 0, message: `This session has too many files (${files.length}) to travel inside a link.` };
	}
	const json = JSON.stringify(files.map((f) => [f.name, f.text]));
	const deflated = await pump(new TextEncoder().encode(json), new CompressionStream('deflate-raw'), Infinity);
	if (deflated === 'too-big') throw new Error('unreachable: no limit on compression');
	const bytes = new Uint8Array(deflated.byteLength + 1);
	bytes[0] = SHARE_VERSION;
	bytes.set(deflated, 1);
	const payload = toBase64Url(bytes);
	if (payload.length > maxChars) {
		const mb = (payload.length / 1_000_000).toFixed(1);
		return {
			ok: false,
			chars: payload.length,
			// The caller adds where to host it (it knows the viewer's own URL for ?src=).
			message: `This session is too large to travel inside a link (${mb} MB compressed; links carry at most ${(maxChars / 1_000_000).toFixed(1)} MB).`
		};
	}
	return { ok: true, payload };
}

function isFileList(v: unknown): v is [string, string][] {
	return (
		Array.isArray(v) &&
		v.length <= MAX_SHARE_FILES &&
		v.every((f) => Array.isArray(f) && f.length === 2 && typeof f[0] === 'string' && typeof f[1] === 'string')
	);
}

/** Decodes a `#z=` payload. Never throws. */
export async function decodeShare(payload: unknown): Promise<ShareDecodeResult> {
	try {
		if (typeof payload !== 'string') return { ok: false, message: MESSAGES.empty };
		const s = payload.replace(/\s+/g, '');
		if (!s) return { ok: false, message: MESSAGES.empty };
		if (s.length > MAX_SHARE_CHARS) return { ok: false, message: MESSAGES.tooLong };
		const bytes = fromBase64Url(s);
		if (!bytes) return { ok: false, message: MESSAGES.alphabet };
		if (bytes.length < 2) return { ok: false, message: MESSAGES.corrupt };
		if (bytes[0] !== SHARE_VERSION) return { ok: false, message: MESSAGES.version };

		let inflated: Uint8Array | 'too-big';
		try {
			inflated = await pump(bytes.subarray(1), new DecompressionStream('deflate-raw'), MAX_SHARE_BYTES);
		} catch {
			return { ok: false, message: MESSAGES.corrupt };
		}
		if (inflated === 'too-big') return { ok: false, message: MESSAGES.tooBig };

		let value: unknown;
		try {
			value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
		} catch {
			return { ok: false, message: MESSAGES.corrupt };
		}
		if (!isFileList(value)) return { ok: false, message: MESSAGES.shape };
		return { ok: true, files: value.map(([name, text]) => ({ name, text })) };
	} catch {
		// Anything unforeseen (a platform without DecompressionStream, …) is still one sentence.
		return { ok: false, message: MESSAGES.corrupt };
	}
}
