// Where a broad history query's time goes (issue 23): builds the search indexes of a subset of a
// generated tree's sessions (every Nth listed session, as the history pass builds them), caches
// them in /tmp, then times each step of answering "parser" and /timeout after \d+ms/ from them:
// inflate, JSON.parse, the scan (scanFields), and the totals.
// Run: npx tsx scripts/bench-history-search.ts [TREE] [--every N]
import { openAsBlob, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join, relative, dirname } from 'node:path';
import { filesUnder } from './lib/files.ts';
import { loadListed } from '../src/lib/ingest/listed.ts';
import { scanInputs } from '../src/lib/ingest/scan.ts';
import { fieldsOfLoaded } from '../src/lib/view/search/lane.ts';
import { buildSearchIndex, SEARCH_INDEX_VERSION, type SessionSearchIndex } from '../src/lib/view/search/history-index.ts';
import { compileQuery } from '../src/lib/view/search/query.ts';
import { scanFields } from '../src/lib/view/search/scan.ts';
import type { SearchField } from '../src/lib/view/search/fields.ts';
import { decodeFields, encodeFields } from '../src/lib/view/search/history-text.ts';
import { deepStrictEqual } from 'node:assert';

const args = process.argv.slice(2);
const tree = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--every') ?? '.bench-cache/projects-400mb-1500s-seed1-orphans0.15/projects';
const every = Number(args[args.indexOf('--every') + 1] || 10);
const cache = `/tmp/loupe-hs-v${SEARCH_INDEX_VERSION}-${tree.replace(/\W+/g, '_')}-${every}.json`;

async function indexes(): Promise<{ key: string; text: Uint8Array; chars: number }[]> {
	if (existsSync(cache)) return (JSON.parse(readFileSync(cache, 'utf8')) as { key: string; text: string; chars: number }[]).map((x) => ({ ...x, text: new Uint8Array(Buffer.from(x.text, 'base64')) }));
	const root = dirname(tree);
	const files = await Promise.all(filesUnder(tree).map(async (p) => ({ path: relative(root, p), blob: (await openAsBlob(p)) as Blob })));
	const { listing } = await scanInputs(files);
	const out: { key: string; text: Uint8Array; chars: number }[] = [];
	for (let i = 0; i < listing.sessions.length; i += every) {
		const s = listing.sessions[i];
		const mine = await Promise.all(files.filter((f) => s.files.includes(f.path)).map(async (f) => ({ ...f, bytes: new Uint8Array(await f.blob.arrayBuffer()) })));
		const loaded = await loadListed(s, mine);
		if (!loaded) continue;
		const idx: SessionSearchIndex = buildSearchIndex(fieldsOfLoaded(loaded));
		out.push({ key: s.key, text: idx.text, chars: idx.chars });
	}
	writeFileSync(cache, JSON.stringify(out.map((x) => ({ ...x, text: Buffer.from(x.text).toString('base64') }))));
	return out;
}

async function inflateBytes(bytes: Uint8Array): Promise<Uint8Array> {
	const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

const ix = await indexes();
const chars = ix.reduce((n, x) => n + x.chars, 0);
const stored = ix.reduce((n, x) => n + x.text.byteLength, 0);
console.log(`${ix.length} sessions, ${(chars / 1e6).toFixed(1)} M chars, ${(stored / 1e6).toFixed(1)} MB stored`);

// The fields from the cached indexes; then both formats made from them and timed.
const all: SearchField[][] = [];
for (const x of ix) all.push(decodeFields(x.text));
const v1 = await Promise.all(all.map(async (f) => new Uint8Array(await new Response(new Blob([JSON.stringify(f)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer())));
const t = { inflate: 0, decode: 0, parse: 0 };
const raw: Uint8Array[] = [];
let t0 = performance.now();
for (const b of v1) raw.push(await inflateBytes(b));
t.inflate = performance.now() - t0;
const jsonBytes = raw.reduce((n, r) => n + r.byteLength, 0);
const dec = new TextDecoder();
t0 = performance.now();
const strs = raw.map((r) => dec.decode(r));
t.decode = performance.now() - t0;
t0 = performance.now();
for (const x of strs) JSON.parse(x);
t.parse = performance.now() - t0;
console.log(`JSON format: ${(v1.reduce((n, b) => n + b.byteLength, 0) / 1e6).toFixed(1)} MB deflated, ${(jsonBytes / 1e6).toFixed(1)} MB inflated: inflate ${t.inflate.toFixed(0)} ms, TextDecoder ${t.decode.toFixed(0)} ms, JSON.parse ${t.parse.toFixed(0)} ms`);
// The index's text format (history-text.ts): bytes and decode time.
const v2 = all.map((f) => encodeFields(f));
t0 = performance.now();
const back = [];
for (const b of v2) back.push(decodeFields(b));
const v2ms = performance.now() - t0;
deepStrictEqual(back, all);
console.log(`history-text format: ${(v2.reduce((n, b) => n + b.byteLength, 0) / 1e6).toFixed(1)} MB compressed; decode (decompress + fields) ${v2ms.toFixed(0)} ms (JSON format: ${(t.inflate + t.decode + t.parse).toFixed(0)} ms)`);
const joined = all.map((fs) => fs.map((f) => f.text).join('\u0000'));

for (const [q, o] of [['parser', {}], ['timeout after \\d+ms', { regex: true }]] as const) {
	const c = compileQuery(q, o);
	if (!c.ok) throw new Error(c.error);
	t0 = performance.now();
	let total = 0;
	for (let i = 0; i < all.length; i++) total += scanFields(all[i], 0, all[i].length, c.matcher, undefined, ix[i].key, 1000, []).counted;
	const scan = performance.now() - t0;
	t0 = performance.now();
	let total0 = 0;
	for (let i = 0; i < all.length; i++) total0 += scanFields(all[i], 0, all[i].length, c.matcher, undefined, ix[i].key, 0, []).counted;
	const countOnly = performance.now() - t0;
	// Over the joined text: how many fields match, counted by a search of the whole string.
	t0 = performance.now();
	let bigMatches = 0;
	const re = new RegExp(c.matcher.re.source, c.matcher.re.flags.includes('g') ? c.matcher.re.flags : c.matcher.re.flags + 'g');
	for (const s of joined) { re.lastIndex = 0; while (re.exec(s)) bigMatches++; }
	const joinedScan = performance.now() - t0;
	console.log(`"${q}": ${total} fields; scan with hits ${scan.toFixed(0)} ms, counting only ${countOnly.toFixed(0)} ms (${total0}); regex over joined texts ${joinedScan.toFixed(0)} ms (${bigMatches} matches)`);
}
