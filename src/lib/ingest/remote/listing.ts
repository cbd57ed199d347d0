// The listings a remote tree is read from, parsed as text: a web server's JSON or HTML folder
// index, an S3 ListObjectsV2 page, GitHub's recursive git tree, a loupe.json manifest. Pure (no
// fetch, no DOM: an HTML listing is matched by pattern, never inserted or parsed into a document,
// so a listing's scripts cannot run); the worker's walk (worker/remote/) fetches and calls them.
import { safeRelPath, safeSegment } from './names.ts';

/** One folder's listing: its files and subfolders (absolute URLs) and the names refused. */
export interface FolderListing {
	files: { name: string; url: string; size: number | null; version: string | null }[];
	dirs: { name: string; url: string }[];
	/** Names that could escape the folder or hide a separator (names.ts safeSegment). */
	refused: string[];
}

const empty = (): FolderListing => ({ files: [], dirs: [], refused: [] });

/** A JSON folder index: nginx `autoindex_format json` ({name, type, mtime, size}) or Caddy's
 *  browse JSON ({name, size, url, mod_time, is_dir}). Null when the text is not one. */
export function parseJsonIndex(text: string, folderUrl: string): FolderListing | null {
	let doc: unknown;
	try {
		doc = JSON.parse(text);
	} catch {
		return null;
	}
	if (!Array.isArray(doc)) return null;
	const out = empty();
	for (const raw of doc) {
		if (!raw || typeof raw !== 'object' || typeof (raw as { name?: unknown }).name !== 'string') return null;
		const e = raw as { name: string; type?: string; is_dir?: boolean; size?: number; mtime?: string; mod_time?: string };
		const dir = e.type === 'directory' || e.is_dir === true;
		const name = e.name.replace(/\/$/, '');
		const safe = safeSegment(encodeURIComponent(name)) === name && !/%2f|%5c/i.test(name) ? name : null;
		if (safe === null) {
			out.refused.push(e.name);
			continue;
		}
		const url = new URL(encodeURIComponent(name) + (dir ? '/' : ''), folderUrl).href;
		if (dir) out.dirs.push({ name, url });
		else if (e.type === undefined || e.type === 'file' || e.is_dir === false) {
			out.files.push({ name, url, size: typeof e.size === 'number' ? e.size : null, version: e.mtime ?? e.mod_time ?? null });
		}
	}
	return out;
}

const HREF = /<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** An HTML folder index (nginx, Apache, `python -m http.server`): the links one level below the
 *  folder, a trailing '/' marking a subfolder. Parent, sort and off-site links are not entries. */
export function parseHtmlIndex(text: string, folderUrl: string): FolderListing {
	const out = empty();
	const base = new URL(folderUrl);
	const seen = new Set<string>();
	for (const m of text.matchAll(HREF)) {
		const href = unescapeEntities(m[1] ?? m[2] ?? m[3] ?? '');
		if (!href || href.startsWith('?') || href.startsWith('#')) continue;
		let url: URL;
		try {
			url = new URL(href, base);
		} catch {
			continue;
		}
		if (url.origin !== base.origin || url.search || !url.pathname.startsWith(base.pathname)) continue;
		const rest = url.pathname.slice(base.pathname.length);
		const dir = rest.endsWith('/');
		const raw = dir ? rest.slice(0, -1) : rest;
		if (!raw || seen.has(raw)) continue;
		seen.add(raw);
		// The URL parser already resolved '..' and '.', so a raw name with '/' is deeper than one
		// level (not an entry of this folder) unless it was an encoded slash: refused either way.
		const name = raw.includes('/') ? null : safeSegment(raw);
		if (name === null) {
			out.refused.push(raw);
			continue;
		}
		url.hash = '';
		if (dir) out.dirs.push({ name, url: url.href });
		else out.files.push({ name, url: url.href, size: null, version: null });
	}
	return out;
}

/** Also rejects names the listing HTML-escaped oddly; only the entities listings write. */
function unescapeEntities(s: string): string {
	return s.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" })[e] ?? '');
}

/** One page of an S3 ListObjectsV2 answer. */
export interface S3Page {
	objects: { key: string; size: number; version: string | null }[];
	next: string | null;
}

/** An S3 ListObjectsV2 (or v1) XML answer, read by pattern (workers have no DOMParser). Null when
 *  the text is not a ListBucketResult; an S3 <Error> gives its code and message. */
export function parseS3List(xml: string): S3Page | { error: string } | null {
	const err = /<Error>[\s\S]*?<Code>([^<]*)<\/Code>(?:[\s\S]*?<Message>([^<]*)<\/Message>)?/.exec(xml);
	if (err) return { error: `${xmlText(err[1])}${err[2] ? `: ${xmlText(err[2])}` : ''}` };
	if (!/<ListBucketResult[\s>]/.test(xml)) return null;
	const objects: S3Page['objects'] = [];
	for (const m of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
		const key = tag(m[1], 'Key');
		if (key === null) continue;
		const etag = tag(m[1], 'ETag');
		objects.push({ key, size: Number(tag(m[1], 'Size') ?? 0), version: etag ?? tag(m[1], 'LastModified') });
	}
	const truncated = tag(xml, 'IsTruncated') === 'true';
	return { objects, next: truncated ? (tag(xml, 'NextContinuationToken') ?? null) : null };
}

function tag(xml: string, name: string): string | null {
	const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
	return m ? xmlText(m[1]) : null;
}

function xmlText(s: string): string {
	return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
		if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
		return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()];
	});
}

/** GitHub's recursive git tree (GET /repos/O/R/git/trees/REF?recursive=1): its blobs. */
export function parseGithubTree(text: string): { blobs: { path: string; size: number; sha: string }[]; truncated: boolean } | null {
	let doc: unknown;
	try {
		doc = JSON.parse(text);
	} catch {
		return null;
	}
	const d = doc as { tree?: unknown; truncated?: unknown };
	if (!d || !Array.isArray(d.tree)) return null;
	const blobs: { path: string; size: number; sha: string }[] = [];
	for (const e of d.tree as { path?: unknown; type?: unknown; size?: unknown; sha?: unknown }[]) {
		if (e?.type === 'blob' && typeof e.path === 'string' && typeof e.size === 'number' && typeof e.sha === 'string') blobs.push({ path: e.path, size: e.size, sha: e.sha });
	}
	return { blobs, truncated: d.truncated === true };
}

/** The manifest format `npm run manifest -- DIR` writes (scripts/manifest.mjs). */
export const MANIFEST_NAME = 'loupe.json';

/** A loupe.json manifest: files (paths below the manifest's folder) with sizes and, optionally, a
 *  modification time. Null when it is not one; unsafe paths are refused, not read. */
export function parseManifest(text: string): { files: { path: string; size: number; version: string | null }[]; refused: string[] } | null {
	let doc: unknown;
	try {
		doc = JSON.parse(text);
	} catch {
		return null;
	}
	const files = (doc as { files?: unknown })?.files;
	if (!Array.isArray(files)) return null;
	const out: { path: string; size: number; version: string | null }[] = [];
	const refused: string[] = [];
	for (const f of files as { path?: unknown; size?: unknown; modified?: unknown }[]) {
		if (typeof f?.path !== 'string' || typeof f.size !== 'number' || !(f.size >= 0)) continue;
		const path = safeRelPath(f.path, false);
		if (path === null) refused.push(f.path);
		else out.push({ path, size: f.size, version: typeof f.modified === 'string' ? f.modified : null });
	}
	return { files: out, refused };
}
