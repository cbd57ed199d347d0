// What a `?src=` address names: one file, a folder on a web server, an S3 bucket prefix, a GitHub
// folder, a loupe.json manifest; and which hosts reading it may ask (its own, plus GitHub's API and
// raw-file hosts for a github.com address). Pure.
import { MANIFEST_NAME } from './listing.ts';

export type RemoteAddress =
	| { kind: 'file'; url: string }
	/** A folder URL (ends in '/'): a web server's listing, else a manifest in it, else an S3 path-style bucket. */
	| { kind: 'folder'; url: string }
	| { kind: 'manifest'; url: string }
	/** `endpoint`: where ListObjectsV2 is asked (the bucket's own URL, ending in '/'); `prefix`: keys below it. */
	| { kind: 's3'; endpoint: string; bucket: string; prefix: string }
	| { kind: 'github'; owner: string; repo: string; ref: string; path: string }
	| { kind: 'invalid'; reason: string };

/** Where GitHub is read: its API and raw-file hosts (tests point them at a local server). */
export interface GithubBases {
	api: string;
	raw: string;
}

export const GITHUB: GithubBases = { api: 'https://api.github.com', raw: 'https://raw.githubusercontent.com' };

/** Virtual-hosted S3: BUCKET.s3.amazonaws.com, BUCKET.s3.REGION.amazonaws.com, BUCKET.s3-REGION.amazonaws.com. */
const S3_VIRTUAL = /^(.+)\.s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/i;
/** Path-style S3: s3.amazonaws.com/BUCKET/…, s3.REGION.amazonaws.com/BUCKET/…. */
const S3_PATH = /^s3(?:[.-][a-z0-9-]+)?\.amazonaws\.com$/i;

export function classifyAddress(input: string, base?: string): RemoteAddress {
	let url: URL;
	try {
		url = new URL(input.trim(), base);
	} catch {
		return { kind: 'invalid', reason: `“${input}” is not a web address Loupe can open.` };
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') return { kind: 'invalid', reason: `Loupe only opens http(s) addresses, not “${url.protocol}”.` };
	if (url.username || url.password) return { kind: 'invalid', reason: 'Loupe does not send credentials: remove the user name and password from the address.' };
	url.hash = '';
	const parts = url.pathname.split('/').filter(Boolean);
	if (url.hostname === 'github.com' || url.hostname === 'www.github.com') {
		if (parts.length >= 4 && parts[2] === 'tree') {
			return { kind: 'github', owner: parts[0], repo: parts[1], ref: decodeURIComponent(parts[3]), path: parts.slice(4).map(decodeURIComponent).join('/') };
		}
		if (parts.length === 2) return { kind: 'github', owner: parts[0], repo: parts[1], ref: 'HEAD', path: '' };
		return { kind: 'invalid', reason: 'A GitHub address Loupe opens is a folder: https://github.com/OWNER/REPO/tree/BRANCH/PATH.' };
	}
	const last = parts.at(-1) ?? '';
	if (last === MANIFEST_NAME && !url.pathname.endsWith('/')) return { kind: 'manifest', url: url.href };
	if (!url.pathname.endsWith('/') && /\.[a-z0-9]{1,8}$/i.test(last)) return { kind: 'file', url: url.href };
	const virtual = S3_VIRTUAL.exec(url.hostname);
	if (virtual) return { kind: 's3', endpoint: `${url.origin}/`, bucket: virtual[1], prefix: prefixOf(parts) };
	if (S3_PATH.test(url.hostname) && parts.length) return { kind: 's3', endpoint: `${url.origin}/${parts[0]}/`, bucket: parts[0], prefix: prefixOf(parts.slice(1)) };
	const folder = new URL(url.href);
	folder.search = '';
	if (!folder.pathname.endsWith('/')) folder.pathname += '/';
	return { kind: 'folder', url: folder.href };
}

/** The key prefix a folder address names ('' or ending in '/'). */
function prefixOf(parts: string[]): string {
	const p = parts.map(decodeURIComponent).join('/');
	return p ? `${p}/` : '';
}

/** A folder URL read as a path-style bucket: the first segment is the bucket, the rest the prefix. */
export function pathStyleBucket(folderUrl: string): Extract<RemoteAddress, { kind: 's3' }> | null {
	const url = new URL(folderUrl);
	const parts = url.pathname.split('/').filter(Boolean);
	if (!parts.length) return null;
	return { kind: 's3', endpoint: `${url.origin}/${parts[0]}/`, bucket: parts[0], prefix: prefixOf(parts.slice(1)) };
}

/** The origins reading an address may send requests to. */
export function allowedOrigins(address: RemoteAddress, github: GithubBases = GITHUB): string[] {
	switch (address.kind) {
		case 'github':
			return [new URL(github.api).origin, new URL(github.raw).origin];
		case 'invalid':
			return [];
		case 's3':
			return [new URL(address.endpoint).origin];
		default:
			return [new URL(address.url).origin];
	}
}

/** The name a remote tree's files are listed under, as a dropped folder's name is: the folder's
 *  last segment, else the host (or the repository). */
export function rootName(address: RemoteAddress): string {
	switch (address.kind) {
		case 'github':
			return address.path.split('/').filter(Boolean).at(-1) ?? address.repo;
		case 's3':
			return address.prefix.split('/').filter(Boolean).at(-1) ?? address.bucket;
		case 'invalid':
			return 'remote';
		default: {
			const u = new URL(address.url);
			const parts = u.pathname.split('/').filter(Boolean);
			if (address.kind === 'manifest') parts.pop();
			return decodeURIComponent(parts.at(-1) ?? u.hostname);
		}
	}
}
