// Names a remote listing gives: which are safe to turn into a relative path, and which files are
// worth reading. Pure; the listing parsers (listing.ts) and the worker's walk use them.

/** One file a remote listing names: its path below the listed folder ('/'-separated, no `..`),
 *  the absolute URL it is read from, and what the listing said of its size and version. */
export interface RemoteEntry {
	path: string;
	url: string;
	/** Bytes, when the listing says (an HTML listing does not: a HEAD request finds out). */
	size: number | null;
	/** A version tag (ETag, a git blob sha, a modification time) that changes when the bytes do. */
	version: string | null;
}

/** A listed name's decoded form, or null when it could escape the folder or hide a separator:
 *  `..` / `.`, an encoded slash or backslash, a backslash, a control character. */
export function safeSegment(raw: string): string | null {
	if (/%(2f|5c|00)/i.test(raw)) return null;
	let name: string;
	try {
		name = decodeURIComponent(raw);
	} catch {
		return null;
	}
	if (!name || name === '.' || name === '..' || /[/\\\u0000-\u001f]/.test(name)) return null;
	return name;
}

/** A '/'-separated relative path whose every segment is safe (raw: percent-encoded or not), or null. */
export function safeRelPath(raw: string, encoded: boolean): string | null {
	const parts = raw.split('/');
	if (parts.some((p) => p === '')) return null;
	const out: string[] = [];
	for (const p of parts) {
		// A plain name that reads as an encoded separator or dot-dot would be one once a server decodes it.
		const s = encoded ? safeSegment(p) : /%(2f|5c|00)|%2e%2e/i.test(p) ? null : safeSegment(encodeURIComponent(p));
		if (s === null) return null;
		out.push(s);
	}
	return out.join('/');
}

/** Files the scan can use: JSON lines and JSON documents (other harnesses write .json). */
export function readableName(path: string): boolean {
	return /\.jsonl?$/i.test(path);
}

/** A path's segments percent-encoded again, to build a file's URL below a folder URL. */
export function encodePath(path: string): string {
	return path.split('/').map(encodeURIComponent).join('/');
}

/** A version tag as a number (what a File's lastModified holds), so a file's scan identity
 *  (ingest/scan.ts fileIdentity: path, size, lastModified) changes when the remote bytes do. */
export function versionNumber(version: string | null): number {
	if (!version) return 0;
	const t = /^\d{4}-\d\d-\d\dT|^[A-Z][a-z]{2}, \d/.test(version) ? Date.parse(version) : NaN;
	if (Number.isFinite(t)) return t;
	// Two 32-bit hashes of the tag (FNV-1a and djb2), 48 bits together: an exact integer.
	let a = 0x811c9dc5;
	let b = 5381;
	for (let i = 0; i < version.length; i++) {
		const c = version.charCodeAt(i);
		a = Math.imul(a ^ c, 0x01000193) >>> 0;
		b = (Math.imul(b, 33) ^ c) >>> 0;
	}
	return (b & 0xffff) * 2 ** 32 + a;
}
