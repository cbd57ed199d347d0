// Lists a remote tree's files: a web server's folder listings walked breadth-first (bounded in
// folders, files and depth; a folder seen twice is not read again), a loupe.json manifest, S3
// ListObjectsV2 pages (continuation tokens, a token seen twice ends it), or GitHub's one
// recursive git tree. The parsing is ingest/remote/listing.ts; this layer only fetches.
import { pathStyleBucket, rootName, type GithubBases, type RemoteAddress } from '../../ingest/remote/address.ts';
import { MANIFEST_NAME, parseGithubTree, parseHtmlIndex, parseJsonIndex, parseManifest, parseS3List, type FolderListing } from '../../ingest/remote/listing.ts';
import { encodePath, readableName, safeRelPath, type RemoteEntry } from '../../ingest/remote/names.ts';
import { RemoteError, type Http } from './http.ts';

export interface ListLimits {
	/** Files listed at most (the rest are left out, and a note says so). */
	maxFiles: number;
	/** Folder listings (or listing pages) read at most. */
	maxListings: number;
	maxDepth: number;
	/** Keys per ListObjectsV2 page (the server's default, 1,000 on S3, when not set). */
	s3PageSize?: number;
}

export const LIMITS: ListLimits = { maxFiles: 50_000, maxListings: 5_000, maxDepth: 16 };

export interface Listed {
	entries: RemoteEntry[];
	notes: string[];
}

interface Ctx {
	http: Http;
	limits: ListLimits;
	github: GithubBases;
	onCount?: (files: number) => void;
	notes: string[];
	entries: RemoteEntry[];
	/** Names left out: not JSON lines or JSON, and refused names. */
	skipped: number;
	refused: string[];
	capped: boolean;
}

export async function listRemote(address: RemoteAddress, http: Http, opts: { limits?: ListLimits; github: GithubBases; onCount?: (n: number) => void }): Promise<Listed> {
	const ctx: Ctx = { http, limits: opts.limits ?? LIMITS, github: opts.github, onCount: opts.onCount, notes: [], entries: [], skipped: 0, refused: [], capped: false };
	const root = rootName(address);
	switch (address.kind) {
		case 'folder':
			await listFolder(ctx, address.url, root);
			break;
		case 'manifest':
			await listManifest(ctx, address.url, root, true);
			break;
		case 's3':
			await listBucket(ctx, address, root);
			break;
		case 'github':
			await listGithub(ctx, address, root);
			break;
		default:
			throw new RemoteError(address.kind === 'invalid' ? address.reason : 'That address names one file, not a folder.');
	}
	if (ctx.capped) ctx.notes.push(`The listing was cut at ${ctx.limits.maxFiles.toLocaleString('en-US')} files or ${ctx.limits.maxListings.toLocaleString('en-US')} listings; the rest was not opened.`);
	if (ctx.refused.length) ctx.notes.push(`${ctx.refused.length} name${ctx.refused.length === 1 ? '' : 's'} that could reach outside the folder (${ctx.refused.slice(0, 3).map((r) => JSON.stringify(r)).join(', ')}) ${ctx.refused.length === 1 ? 'was' : 'were'} refused.`);
	if (ctx.skipped) ctx.notes.push(`${ctx.skipped} file${ctx.skipped === 1 ? '' : 's'} that ${ctx.skipped === 1 ? 'is' : 'are'} not .jsonl or .json ${ctx.skipped === 1 ? 'was' : 'were'} left out.`);
	return { entries: ctx.entries, notes: ctx.notes };
}

/** Adds a listed file (false once the cap is reached). */
function add(ctx: Ctx, path: string, url: string, size: number | null, version: string | null): boolean {
	if (ctx.entries.length >= ctx.limits.maxFiles) {
		ctx.capped = true;
		return false;
	}
	// The manifest is how the tree is listed, not part of it.
	if (path.endsWith(`/${MANIFEST_NAME}`)) return true;
	if (!readableName(path)) {
		ctx.skipped++;
		return true;
	}
	ctx.entries.push({ path, url, size, version });
	if (ctx.entries.length % 100 === 0) ctx.onCount?.(ctx.entries.length);
	return true;
}

/** A web server's folder: JSON or HTML listings, breadth-first. At the top, a folder that gives no
 *  listing is read from its loupe.json, else as a path-style S3 bucket. */
async function listFolder(ctx: Ctx, top: string, root: string): Promise<void> {
	const seen = new Set<string>([top]);
	let level: { url: string; path: string }[] = [{ url: top, path: root }];
	let listings = 0;
	for (let depth = 0; level.length && depth <= ctx.limits.maxDepth; depth++) {
		const next: { url: string; path: string }[] = [];
		const read = await Promise.all(
			level.map(async (dir) => {
				if (++listings > ctx.limits.maxListings) {
					ctx.capped = true;
					return null;
				}
				return { dir, listing: await readListing(ctx, dir.url, depth === 0) };
			})
		);
		for (const r of read) {
			if (!r) continue;
			if (r.listing === 'other') return depth === 0 ? fallback(ctx, top, root) : undefined;
			const { dir, listing } = r;
			ctx.refused.push(...listing.refused.map((n) => `${dir.path}/${n}`));
			const sizeless: RemoteEntry[] = [];
			for (const f of listing.files) {
				const before = ctx.entries.length;
				if (!add(ctx, `${dir.path}/${f.name}`, f.url, f.size, f.version)) break;
				if (f.size === null && ctx.entries.length > before) sizeless.push(ctx.entries[before]);
			}
			await sizesOf(ctx, sizeless);
			for (const d of listing.dirs) {
				// A tool-results folder holds side files the scan never reads: not listed at all.
				if (d.name === 'tool-results' || seen.has(d.url)) continue;
				seen.add(d.url);
				next.push({ url: d.url, path: `${dir.path}/${d.name}` });
			}
		}
		if (depth === ctx.limits.maxDepth && next.length) ctx.capped = true;
		level = next;
	}
}

/** One folder's listing, or 'other' when the answer is not a listing (only the top may be that). */
async function readListing(ctx: Ctx, url: string, top: boolean): Promise<FolderListing | 'other'> {
	let r;
	try {
		r = await ctx.http.fetchText(url);
	} catch (e) {
		// Below the top, a folder that cannot be read is said and skipped; the rest is listed.
		if (top || !(e instanceof RemoteError)) throw e;
		ctx.notes.push(e.message);
		return { files: [], dirs: [], refused: [] };
	}
	if (!r.ok) {
		if (top) return 'other';
		ctx.notes.push(`${decodeURIComponent(new URL(url).pathname)}: the server answered ${r.status}; that folder was not opened.`);
		return { files: [], dirs: [], refused: [] };
	}
	const json = parseJsonIndex(r.text, url);
	if (json) return json;
	if (/<a\s/i.test(r.text) && /<html|<!doctype|<table|<pre|<ul/i.test(r.text)) return parseHtmlIndex(r.text, url);
	return top ? 'other' : { files: [], dirs: [], refused: [] };
}

/** A folder without a listing: its manifest, else a bucket (path-style: host/BUCKET/PREFIX/). */
async function fallback(ctx: Ctx, folder: string, root: string): Promise<void> {
	if (await listManifest(ctx, new URL(MANIFEST_NAME, folder).href, root, false)) return;
	const bucket = pathStyleBucket(folder);
	if (bucket && (await listBucket(ctx, bucket, root, false))) return;
	throw new RemoteError(`${new URL(folder).host} gave no folder listing for ${decodeURIComponent(new URL(folder).pathname)} (and no ${MANIFEST_NAME} or S3 bucket listing): Loupe cannot tell which files are there.`);
}

async function sizesOf(ctx: Ctx, entries: RemoteEntry[]): Promise<void> {
	await Promise.all(
		entries.map(async (e) => {
			try {
				const h = await ctx.http.head(e.url);
				e.size = h.size;
				e.version = h.version;
			} catch (err) {
				if (!(err instanceof RemoteError)) throw err;
				ctx.http.failed.set(e.url, err.message);
				e.size = -1;
			}
		})
	);
	// A file whose size could not be learnt is not listed; its failure is said with the others.
	if (entries.some((e) => e.size === -1)) for (let i = ctx.entries.length - 1; i >= 0; i--) if (ctx.entries[i].size === -1) ctx.entries.splice(i, 1);
}

async function listManifest(ctx: Ctx, url: string, root: string, required: boolean): Promise<boolean> {
	const r = required ? await ctx.http.fetchText(url) : await ctx.http.fetchText(url).catch(() => null);
	const parsed = r?.ok ? parseManifest(r.text) : null;
	if (!parsed) {
		if (required) throw new RemoteError(r?.ok ? `${decodeURIComponent(new URL(url).pathname)} is not a Loupe manifest (a JSON object with "files": [{ "path", "size" }]).` : `${decodeURIComponent(new URL(url).pathname)}: the server answered ${r?.status}.`);
		return false;
	}
	ctx.refused.push(...parsed.refused);
	for (const f of parsed.files) if (!add(ctx, `${root}/${f.path}`, new URL(encodePath(f.path), url).href, f.size, f.version)) break;
	return true;
}

async function listBucket(ctx: Ctx, s3: Extract<RemoteAddress, { kind: 's3' }>, root: string, required = true): Promise<boolean> {
	const tokens = new Set<string>();
	const keys = new Set<string>();
	let token: string | null = null;
	for (let page = 0; ; page++) {
		if (page >= ctx.limits.maxListings) {
			ctx.capped = true;
			return true;
		}
		const q = new URLSearchParams({ 'list-type': '2', prefix: s3.prefix });
		if (token) q.set('continuation-token', token);
		if (ctx.limits.s3PageSize) q.set('max-keys', String(ctx.limits.s3PageSize));
		const url = `${s3.endpoint}?${q}`;
		const r = required ? await ctx.http.fetchText(url) : await ctx.http.fetchText(url).catch(() => null);
		const parsed = r ? parseS3List(r.text) : null;
		if (!parsed || !r || 'error' in parsed || !r.ok) {
			if (!required && page === 0) return false;
			const why = parsed && 'error' in parsed ? parsed.error : `the server answered ${r?.status ?? 'nothing'}`;
			throw new RemoteError(`Could not list the bucket ${s3.bucket} at ${new URL(s3.endpoint).host}: ${why}.`);
		}
		for (const o of parsed.objects) {
			if (!o.key.startsWith(s3.prefix) || o.key.endsWith('/') || keys.has(o.key)) continue;
			keys.add(o.key);
			const rel = safeRelPath(o.key.slice(s3.prefix.length), false);
			if (rel === null) {
				ctx.refused.push(o.key);
				continue;
			}
			if (!add(ctx, `${root}/${rel}`, s3.endpoint + encodePath(o.key), o.size, o.version)) return true;
		}
		if (!parsed.next) return true;
		if (tokens.has(parsed.next)) {
			ctx.notes.push(`The bucket listing repeated itself; Loupe stopped reading it after ${page + 1} pages.`);
			return true;
		}
		tokens.add(parsed.next);
		token = parsed.next;
	}
}

async function listGithub(ctx: Ctx, gh: Extract<RemoteAddress, { kind: 'github' }>, root: string): Promise<void> {
	const repo = `${encodeURIComponent(gh.owner)}/${encodeURIComponent(gh.repo)}`;
	const r = await ctx.http.fetchText(`${ctx.github.api}/repos/${repo}/git/trees/${encodeURIComponent(gh.ref)}?recursive=1`);
	if (!r.ok) {
		const reset = Number(r.res.headers.get('x-ratelimit-reset'));
		if ((r.status === 403 || r.status === 429) && r.res.headers.get('x-ratelimit-remaining') === '0') {
			const at = Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString().slice(11, 16) : null;
			throw new RemoteError(`GitHub's limit on requests without an account is used up for now${at ? `; it resets at ${at} UTC` : ''}.`);
		}
		throw new RemoteError(`GitHub answered ${r.status} for ${gh.owner}/${gh.repo} at ${gh.ref}${r.status === 404 ? ': no such repository or branch (or it is private)' : ''}.`);
	}
	const tree = parseGithubTree(r.text);
	if (!tree) throw new RemoteError(`GitHub's answer for ${gh.owner}/${gh.repo} was not a file tree.`);
	if (tree.truncated) ctx.notes.push('GitHub cut the repository’s file tree short (it is very large); some files were not listed.');
	const under = gh.path ? `${gh.path.replace(/\/$/, '')}/` : '';
	for (const b of tree.blobs) {
		if (!b.path.startsWith(under)) continue;
		const rel = safeRelPath(b.path.slice(under.length), false);
		if (rel === null) {
			ctx.refused.push(b.path);
			continue;
		}
		const url = `${ctx.github.raw}/${repo}/${encodePath(gh.ref)}/${encodePath(b.path)}`;
		if (!add(ctx, `${root}/${rel}`, url, b.size, b.sha)) break;
	}
}
