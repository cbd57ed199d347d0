// The remote-tree reader against real servers on loopback (tests/servers/remote.ts): Debian's
// nginx (JSON and HTML autoindex, no listing + loupe.json, no Range), s3rver, and a stand-in for
// GitHub serving its recorded trees answer. Node's fetch has no CORS; the browser spec covers that.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { ROOT, makeTree, startGithub, startNginx, startS3, type FakeGithub, type Nginx, type S3 } from '../../../../tests/servers/remote.ts';
import { Http, MAX_IN_FLIGHT, RemoteFile } from './http.ts';
import { remoteList, remoteLoad, remoteStats } from './load.ts';

let tree: ReturnType<typeof makeTree>;
let nginx: Nginx;
let s3: S3;
let github: FakeGithub;
/** The .json/.jsonl files of the tree (what a listing should find), outside tool-results/. */
let readable: string[];
/** One project folder's session files, put flat under bob/ in the bucket. */
let flat: string[];

beforeAll(async () => {
	tree = makeTree();
	execFileSync(process.execPath, [join(ROOT, 'scripts/manifest.mjs'), tree.projects], { stdio: 'ignore' });
	readable = tree.files.filter((f) => /\.jsonl?$/.test(f) && !f.includes('/tool-results/') && f !== 'loupe.json').map((f) => `projects/${f}`);
	const project = tree.files[0].split('/')[0];
	flat = tree.files.filter((f) => f.startsWith(`${project}/`) && f.split('/').length === 2 && /\.jsonl$/.test(f));
	[nginx, s3, github] = await Promise.all([startNginx(tree.dir), startS3(tree.projects, tree.files, 'alice/projects/', { 'bob/': flat.map((f) => [f, f.split('/').pop()!]) }), startGithub()]);
}, 120_000);

afterAll(async () => {
	await Promise.all([nginx?.stop(), s3?.stop(), github?.stop()]);
	tree?.cleanup();
});

let generation = 1;
const listed = async (url: string, opts?: Parameters<typeof remoteList>[3]) => {
	const r = await remoteList(++generation, url, undefined, opts);
	if (!r.ok) throw new Error(r.message);
	return r;
};

describe('listing', () => {
	it('walks nginx JSON and HTML listings to the same files; says what it left out', async () => {
		const json = await listed(`${nginx.origin}/json/projects/`);
		const html = await listed(`${nginx.origin}/html/projects/`);
		expect(json.files.map((f) => f.path).sort()).toEqual(readable);
		// An HTML listing gives no sizes: HEAD requests find them (the 403 file's says it cannot be read).
		expect(html.files.map((f) => f.path).sort()).toEqual(readable.filter((p) => !p.includes('forbidden-')));
		const size = (r: typeof json) => Object.fromEntries(r.files.filter((f) => !f.path.includes('forbidden-')).map((f) => [f.path, f.size]));
		expect(size(html)).toEqual(size(json));
		expect(html.notes.some((n) => /^1 file could not be read \(.*forbidden-0000\.jsonl: the server answered 403 Forbidden\); everything else was opened\.$/.test(n))).toBe(true);
		expect(json.notes).toContain('1 file that is not .jsonl or .json was left out.');
		expect(json.notes.some((n) => /^\/json\/projects\/moved\/ redirected to another host \(127\.0\.0\.1:\d+\); Loupe does not follow redirects\.$/.test(n))).toBe(true);
	});

	it('reads a folder without a listing from its loupe.json (npm run manifest), by folder or by the file', async () => {
		const viaFolder = await listed(`${nginx.origin}/plain/projects/`);
		const viaFile = await listed(`${nginx.origin}/plain/projects/loupe.json`);
		expect(viaFolder.files.map((f) => f.path).sort()).toEqual(readable);
		expect(viaFile.files.map((f) => f.path).sort()).toEqual(readable);
	});

	it('lists an S3 bucket prefix (s3rver), path-style', async () => {
		const r = await listed(`${s3.origin}/${s3.bucket}/alice/projects/`);
		expect(r.files.map((f) => f.path).sort()).toEqual(readable);
	});

	it('follows ListObjectsV2 continuation tokens', async () => {
		// A prefix of one folder's sessions only: s3rver 3.7.1 pages keys out of S3's order where a
		// key `x.jsonl` and keys under `x/` meet, so a paged listing of the whole tree skips some.
		const r = await listed(`${s3.origin}/${s3.bucket}/bob/`, { limits: { maxFiles: 1000, maxListings: 100, maxDepth: 8, s3PageSize: 4 } });
		expect(r.files.map((f) => f.path).sort()).toEqual(flat.map((f) => `bob/${f.split('/').pop()}`).sort());
		expect(r.files.length).toBeGreaterThan(8); // three pages at least
	});

	it('lists a GitHub folder from one trees request and reads raw files; a used-up rate limit is one line', async () => {
		const gh = { api: github.origin, raw: github.origin };
		const r = await listed('https://github.com/demo/transcripts/tree/main/.claude/projects', { github: gh });
		expect(r.files.length).toBeGreaterThan(5);
		expect(r.files.every((f) => f.path.startsWith('projects/'))).toBe(true);
		const outcome = await remoteLoad(new Engine(), generation);
		expect(outcome.outcome.ok).toBe(true);
		github.limitNext();
		const limited = await remoteList(++generation, 'https://github.com/demo/transcripts/tree/main/.claude/projects', undefined, { github: gh });
		expect(limited).toEqual({ ok: false, message: "GitHub's limit on requests without an account is used up for now; it resets at 19:05 UTC." });
	});

	it('caps a listing and says so', async () => {
		const r = await listed(`${nginx.origin}/json/projects/`, { limits: { maxFiles: 5, maxListings: 100, maxDepth: 8 } });
		expect(r.files).toHaveLength(5);
		expect(r.notes).toContain('The listing was cut at 5 files or 100 listings; the rest was not opened.');
	});

	it('a folder with no listing, manifest or bucket is one sentence', async () => {
		const r = await remoteList(++generation, `${nginx.origin}/plain/`);
		expect(r).toEqual({ ok: false, message: `127.0.0.1:${new URL(nginx.origin).port} gave no folder listing for /plain/ (and no loupe.json or S3 bucket listing): Loupe cannot tell which files are there.` });
	});
});

describe('reading', () => {
	it('scans with Range requests, lists every session and builds the newest, reading a small share of the tree', async () => {
		const before = nginx.log().length;
		const r = await listed(`${nginx.origin}/json/projects/`);
		const engine = new Engine();
		const { outcome, notes } = await remoteLoad(engine, generation);
		if (!outcome.ok) throw new Error(outcome.message);
		expect(outcome.scanned).toBe(true);
		expect(outcome.list.length).toBeGreaterThan(24);
		expect(outcome.sessions).toHaveLength(1);
		// The 403 file and the file that is not JSON lines: one line / one reason each, the rest loaded.
		expect(notes.some((n) => /^1 file could not be read \(\/json\/projects\/.*forbidden-0000\.jsonl: the server answered 403 Forbidden\); everything else was opened\.$/.test(n))).toBe(true);
		expect(outcome.unknown.find((u) => u.name === 'garbage.jsonl')?.reason).toBeTruthy();
		const log = nginx.log().slice(before);
		expect(log.every((l) => l.method === 'GET' || l.method === 'HEAD')).toBe(true);
		expect(log.filter((l) => l.status === 206).length).toBeGreaterThan(r.files.length);
		const sent = log.reduce((n, l) => n + l.bytes, 0);
		expect(sent).toBeLessThan(tree.bytes * 0.5);
		expect(remoteStats().requests).toBe(log.length);

		// A second visit with the first's scans staged (the page keeps them in its scan index)
		// reads no file's head or tail again: only the newest session's files, to build it.
		const { records } = engine.scanRecords(0, 1e6);
		const again = await listed(`${nginx.origin}/json/projects/`);
		const from = nginx.log().length;
		engine.stage(generation, [], records);
		const second = await remoteLoad(engine, generation);
		expect(second.outcome.ok).toBe(true);
		expect(again.files.length).toBe(r.files.length);
		const newest = new Set(second.outcome.ok ? second.outcome.sessions[0].files.map((f) => `/json/${f.path}`) : []);
		const reread = nginx.log().slice(from).filter((l) => !l.uri.endsWith('/'));
		expect(reread.length).toBeGreaterThan(0);
		expect(reread.filter((l) => !newest.has(decodeURIComponent(l.uri)))).toEqual([]);
	});

	it('reads whole files from a host without Range support, and says so once', async () => {
		await listed(`${nginx.origin}/norange/projects/`);
		const { outcome, notes } = await remoteLoad(new Engine(), generation);
		expect(outcome.ok).toBe(true);
		expect(notes).toContain(`127.0.0.1:${new URL(nginx.origin).port} does not answer Range requests, so whole files were read to list the sessions.`);
	});
});

describe('Http', () => {
	it('refuses another host before sending anything', async () => {
		let sent = 0;
		const http = new Http({ origins: [nginx.origin], signal: new AbortController().signal, fetch: (...a) => (sent++, fetch(...a)) });
		await expect(http.get(`${s3.origin}/x`)).rejects.toThrow(/is on another host than the address given/);
		expect(sent).toBe(0);
	});

	it('has at most 6 requests in flight', async () => {
		let now = 0;
		let most = 0;
		const counting: typeof fetch = async (...a) => {
			most = Math.max(most, ++now);
			try {
				const res = await fetch(...a);
				await new Promise((r) => setTimeout(r, 5));
				return res;
			} finally {
				now--;
			}
		};
		const http = new Http({ origins: [nginx.origin], signal: new AbortController().signal, fetch: counting });
		const f = readable.find((p) => p.endsWith('.jsonl'))!;
		const file = new RemoteFile(http, `${nginx.origin}/json/${f}`, 'x', 10_000, 0);
		await Promise.all(Array.from({ length: 20 }, (_, i) => file.slice(i * 10, i * 10 + 10).arrayBuffer()));
		expect(most).toBe(MAX_IN_FLIGHT);
	});

	it('a RemoteFile slice is a Range request with the bytes of that slice', async () => {
		const http = new Http({ origins: [nginx.origin], signal: new AbortController().signal });
		const f = readable.find((p) => p.endsWith('.jsonl'))!;
		const whole = new Uint8Array(await (await fetch(`${nginx.origin}/json/${f}`)).arrayBuffer());
		const file = new RemoteFile(http, `${nginx.origin}/json/${f}`, 'x', whole.length, 0);
		expect(new Uint8Array(await file.slice(5, 105).arrayBuffer())).toEqual(whole.subarray(5, 105));
		expect(new Uint8Array(await file.slice(-50).arrayBuffer())).toEqual(whole.subarray(whole.length - 50));
		expect(await file.text()).toBe(new TextDecoder().decode(whole));
		const chunks: Uint8Array[] = [];
		for (const r = file.stream().getReader(); ; ) {
			const { done, value } = await r.read();
			if (done) break;
			chunks.push(value);
		}
		expect(Buffer.concat(chunks).equals(Buffer.from(whole))).toBe(true);
	});
});
