// The history pass's parts (issue 21), in Node, over the listed sessions of a tree: what one lane
// does per session (view/history/lane.ts indexSession → entry.ts entryAndFields, withSearch), each part timed
// on its own so the slow one shows: loadListed (the build), digestOf, billedCalls, fieldsOfLoaded,
// the filter's grams (foldKey alone, then textGrams over every field into a GramSet and a
// GramList), buildFilter, the text's encoding (encodeFields); then buildSearchIndex whole, as the lane runs it. The floor beside them is the
// bench:browser one: every file's lines through JSON.parse. A benchmark, not a test: it prints
// CPU ms per part (process.cpuUsage: wall time swings on a shared machine) and its share of the
// floor, and one JSON line.
//
//   npm run bench:history-pass -- [--tree DIR] [--project NAME|all] [--runs 1]
// The default: one 61 MB project of the shared 1 GB tree (.bench-cache), read into memory first.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadListed } from '../src/lib/ingest/listed.ts';
import { scanInputs } from '../src/lib/ingest/scan.ts';
import type { InputFile, LoadedSession } from '../src/lib/ingest/types.ts';
import { billedCalls } from '../src/lib/view/history/calls.ts';
import { digestOf } from '../src/lib/view/history/digest.ts';
import * as hi from '../src/lib/view/search/history-index.ts';
import { fieldsOfLoaded } from '../src/lib/view/search/lane.ts';
import { encodeFields } from '../src/lib/view/search/history-text.ts';
import { GramList, GramSet } from '../src/lib/view/search/gram-set.ts';
import { filesUnder } from './lib/files.ts';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');
const arg = (name: string, fallback: string): string => {
	const i = process.argv.indexOf(`--${name}`);
	return i < 0 ? fallback : process.argv[i + 1];
};
const tree = resolve(REPO, arg('tree', '.bench-cache/projects-400mb-1500s-seed1-orphans0.15/projects'));
const project = arg('project', '-home-dev-work-docs');
const runs = Number(arg('runs', '1'));
const root = resolve(tree, '..');
const dir = project === 'all' ? tree : join(tree, project);

const paths = filesUnder(dir);
const files: InputFile[] = paths.map((p) => {
	const bytes = new Uint8Array(readFileSync(p));
	return { path: relative(root, p), blob: new Blob([bytes]), bytes };
});
const treeBytes = files.reduce((n, f) => n + f.bytes!.byteLength, 0);
const { listing } = await scanInputs(files.map((f) => ({ path: f.path, blob: f.blob })));
const byPath = new Map(files.map((f) => [f.path, f]));
process.stdout.write(`history pass parts: ${listing.sessions.length} sessions, ${(treeBytes / 1048576).toFixed(1)} MB (${relative(REPO, dir)})\n`);

/** The floor: every line of every file through JSON.parse (as bench:browser's floor worker does). */
function floor(): number {
	const t = cpu();
	const dec = new TextDecoder();
	for (const f of files) {
		const text = dec.decode(f.bytes);
		for (let i = 0; i < text.length; ) {
			let j = text.indexOf('\n', i);
			if (j < 0) j = text.length;
			if (j > i) {
				try {
					JSON.parse(text.slice(i, j));
				} catch {
					/* a torn line */
				}
			}
			i = j + 1;
		}
	}
	return cpu() - t;
}

const parts: Record<string, number> = {};
/** CPU time of the process (ms): on a shared machine wall time swings with the others' load. */
const cpu = (): number => {
	const u = process.cpuUsage();
	return (u.user + u.system) / 1000;
};
const time = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
	const t = cpu();
	const out = await f();
	parts[name] = (parts[name] ?? 0) + cpu() - t;
	return out;
};

let chars = 0;
let grams = 0;
let filterBytes = 0;
let textBytes = 0;
async function pass(): Promise<void> {
	for (const s of listing.sessions) {
		const mine = s.files.flatMap((p) => (byPath.has(p) ? [byPath.get(p)!] : []));
		const loaded = (await time('loadListed', () => loadListed(s, mine))) as LoadedSession | null;
		if (!loaded) continue;
		const listed = { key: s.key, project: s.project, harness: s.harness ?? 'claude-code', title: s.title } as Parameters<typeof digestOf>[1];
		await time('digestOf', () => digestOf(loaded, listed));
		await time('billedCalls', () => billedCalls(loaded, { sessionKey: s.key, project: s.project, harness: s.harness ?? 'claude-code' }));
		const fields = await time('fieldsOfLoaded', () => fieldsOfLoaded(loaded));
		const text = fields.reduce((n, f) => n + f.text.length, 0);
		await time('foldKey alone', () => fields.map((f) => hi.foldKey(f.text)));
		const [set, words] = await time('textGrams (GramSet + GramList, as built)', () => {
			const g = new GramSet(text / 32);
			const w = new GramList();
			for (const f of fields) hi.textGrams(f.text, g, w);
			return [g, w] as const;
		});
		const filter = await time('buildFilter', () => hi.buildFilter(set, words));
		await time('encodeFields (the text: history-text.ts)', () => encodeFields(fields));
		const index = await time('buildSearchIndex (whole)', () => hi.buildSearchIndex(fields));
		chars += index.chars;
		grams += set.size + words.distinctEstimate();
		filterBytes += filter.bits.byteLength;
		textBytes += index.text.byteLength;
	}
}

const floors: number[] = [];
for (let r = 0; r < runs; r++) {
	floors.push(floor());
	await pass();
}
const floorMs = floors.reduce((a, b) => a + b, 0) / runs;
for (const k of Object.keys(parts)) parts[k] /= runs;
const w = Math.max(...Object.keys(parts).map((k) => k.length));
process.stdout.write(`  ${'floor (JSON.parse of every line)'.padEnd(w + 2)} ${floorMs.toFixed(0).padStart(7)} ms\n`);
for (const [k, ms] of Object.entries(parts)) process.stdout.write(`  ${k.padEnd(w + 2)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / floorMs).toFixed(2)}× floor\n`);
const searchMs = parts['buildSearchIndex (whole)'] ?? 0;
const laneMs = (parts.loadListed ?? 0) + (parts.digestOf ?? 0) + (parts.billedCalls ?? 0) + (parts.fieldsOfLoaded ?? 0) + searchMs;
process.stdout.write(`  lane total (load + digest + calls + fields + index) ${laneMs.toFixed(0)} ms = ${(laneMs / floorMs).toFixed(2)}× floor; index ${(searchMs / floorMs).toFixed(2)}×\n`);
process.stdout.write(`  ${(chars / 1e6).toFixed(1)} M chars, ${(grams / 1e6).toFixed(2)} M distinct grams, filters ${(filterBytes / 1048576).toFixed(1)} MB, text ${(textBytes / 1048576).toFixed(1)} MB\n`);
process.stdout.write(JSON.stringify({ sessions: listing.sessions.length, treeBytes, floorMs: Math.round(floorMs), laneMs: Math.round(laneMs), parts: Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, Math.round(v)])), chars, grams, filterBytes, textBytes }) + '\n');
