// Real servers for the remote-tree tests, on loopback ports, started and stopped by the tests:
// Debian's nginx over a generated projects tree (nginx.mjs: JSON and HTML autoindex, no listing,
// no Range, no CORS; a 403 file, a redirect to another origin), s3rver with a CORS configuration
// (s3rver-child.mjs), and a stand-in for GitHub serving the recorded git-trees answer
// (fixtures/remote/) and the raw files.
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, startNginx, type Nginx } from './nginx.mjs';

export { freePort, startNginx, type Nginx };

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** A generated projects tree (gen-project.mjs, deterministic) plus the bad files the tests expect:
 *  a transcript-named file the server refuses (403), a .jsonl that is not JSON lines, a .txt. */
export function makeTree(opts: { sessions?: number; mb?: number; seed?: number } = {}): { dir: string; projects: string; files: string[]; bytes: number; cleanup: () => void } {
	const dir = mkdtempSync(join(tmpdir(), 'loupe-remote-'));
	const projects = join(dir, 'projects');
	execFileSync(process.execPath, [join(ROOT, '../shared/bench/gen-project.mjs'), '--mb', String(opts.mb ?? 2), '--sessions', String(opts.sessions ?? 30), '--projects', '3', '--seed', String(opts.seed ?? 7), '--out', projects], { stdio: 'ignore' });
	const first = readdirSync(projects).sort()[0];
	const someFile = readdirSync(join(projects, first)).find((n) => n.endsWith('.jsonl'))!;
	copyFileSync(join(projects, first, someFile), join(projects, first, 'forbidden-0000.jsonl'));
	writeFileSync(join(projects, first, 'garbage.jsonl'), 'this is not JSON\nnor is this\n');
	writeFileSync(join(projects, first, 'notes.txt'), 'a text file\n');
	// nginx answers /json/projects/moved/ with a redirect to another origin.
	mkdirSync(join(projects, 'moved'));
	const files = listFiles(projects);
	return { dir, projects, files, bytes: files.reduce((n, f) => n + statSync(join(projects, f)).size, 0), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function listFiles(dir: string): string[] {
	const out: string[] = [];
	const walk = (d: string) => {
		for (const n of readdirSync(d)) {
			const p = join(d, n);
			if (statSync(p).isDirectory()) walk(p);
			else out.push(relative(dir, p).split(sep).join('/'));
		}
	};
	walk(dir);
	return out.sort();
}

export interface S3 {
	origin: string;
	bucket: string;
	stop: () => Promise<void>;
}

/** s3rver on loopback (s3rver-child.mjs), a bucket with CORS, `files` put under `prefix`; `more`:
 *  other prefixes, each with [file, key below it] pairs. */
export async function startS3(root: string, files: string[], prefix: string, more: Record<string, [string, string][]> = {}): Promise<S3> {
	const directory = mkdtempSync(join(tmpdir(), 'loupe-s3-'));
	const bucket = 'team-logs';
	const proc = spawn(process.execPath, ['--openssl-legacy-provider', join(ROOT, 'tests/servers/s3rver-child.mjs'), directory, bucket], { stdio: ['ignore', 'pipe', 'inherit'] });
	const port = await new Promise<number>((done, fail) => {
		let out = '';
		proc.stdout!.on('data', (d) => {
			out += d;
			if (out.includes('\n')) done(Number(out.trim()));
		});
		proc.once('exit', (code) => fail(new Error(`s3rver exited (${code})`)));
	});
	const origin = `http://127.0.0.1:${port}`;
	const puts = [...files.map((f) => [f, prefix + f]), ...Object.entries(more).flatMap(([p, pairs]) => pairs.map(([f, k]) => [f, p + k]))];
	for (const [f, key] of puts) {
		const res = await fetch(`${origin}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`, { method: 'PUT', body: readFileSync(join(root, f)) });
		if (!res.ok) throw new Error(`s3rver PUT ${key}: ${res.status} ${await res.text()}`);
	}
	const stop = async () => {
		if (proc.exitCode === null) {
			const gone = new Promise((r) => proc.once('exit', r));
			proc.kill('SIGTERM');
			await gone;
		}
		rmSync(directory, { recursive: true, force: true });
	};
	return { origin, bucket, stop };
}

export interface FakeGithub {
	origin: string;
	/** Makes the next API answer a rate-limit 403 (as GitHub's unauthenticated limit does). */
	limitNext: () => void;
	stop: () => Promise<void>;
}

/** GitHub's API and raw-file hosts on one loopback server: the recorded trees answer for
 *  demo/transcripts at main, and its files from fixtures/corpus (see fixtures/remote/README.md). */
export async function startGithub(): Promise<FakeGithub> {
	const tree = readFileSync(join(ROOT, 'fixtures/remote/github-trees.json'));
	const files = join(ROOT, 'fixtures/corpus/claude-code-log/test/test_data/real_projects');
	let limited = false;
	const server: Server = createServer((req, res) => {
		res.setHeader('Access-Control-Allow-Origin', '*');
		res.setHeader('Access-Control-Expose-Headers', 'ETag, X-RateLimit-Remaining, X-RateLimit-Reset');
		const url = new URL(req.url ?? '/', 'http://x');
		if (url.pathname === '/repos/demo/transcripts/git/trees/main' && url.searchParams.get('recursive') === '1') {
			if (limited) {
				limited = false;
				res.writeHead(403, { 'content-type': 'application/json', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Date.UTC(2026, 11, 7, 19, 5) / 1000) });
				return res.end('{"message":"API rate limit exceeded for 127.0.0.1."}');
			}
			res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '59' });
			return res.end(tree);
		}
		const raw = /^\/demo\/transcripts\/main\/\.claude\/projects\/(.+)$/.exec(url.pathname);
		const path = raw ? join(files, decodeURIComponent(raw[1])) : null;
		if (path && path.startsWith(files + sep) && existsSync(path) && statSync(path).isFile()) {
			const body = readFileSync(path);
			const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
			if (range) {
				const a = Number(range[1]);
				const b = Math.min(Number(range[2]), body.length - 1);
				res.writeHead(206, { 'content-range': `bytes ${a}-${b}/${body.length}`, 'content-length': String(b - a + 1) });
				return res.end(body.subarray(a, b + 1));
			}
			res.writeHead(200, { 'content-length': String(body.length) });
			return res.end(req.method === 'HEAD' ? undefined : body);
		}
		res.writeHead(404).end('404: Not Found');
	});
	const port = await freePort();
	await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
	return { origin: `http://127.0.0.1:${port}`, limitNext: () => (limited = true), stop: () => new Promise((r) => server.close(() => r())) };
}
