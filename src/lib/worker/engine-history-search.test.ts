// History scope through the engine: a big drop's listed sessions get their search index built by
// the history index service (its lanes, with each session's digest), and a history-scoped query returns exactly what the scan over every listed
// session returns, before indexing (all by scan), part-way (indexed ones from the index, the rest
// by scan) and after (every session from its index, most ruled out by their filters for a rare
// string). Lanes run in-process (Node has no nested workers), and with no pool at all.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../../scripts/lib/files.ts';
import { LocalLane, type LaneJob, type LaneResult } from '../view/search/lane.ts';
import { SearchPool } from '../view/search/pool.ts';
import type { SearchOutcome, SearchRequest } from '../view/search/run.ts';
import { Engine } from './engine.ts';

let root = '';
let files: { path: string; blob: Blob }[] = [];

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'loupe-history-engine-'));
	const tree = join(root, 'projects');
	execFileSync('node', [join(__dirname, '../../../../shared/bench/gen-project.mjs'), '--mb', '1', '--sessions', '26', '--projects', '2', '--seed', '5', '--out', tree]);
	files = filesUnder(tree).map((p) => ({ path: relative(root, p), blob: new Blob([readFileSync(p)]) }));
});

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

const strip = (r: SearchOutcome) => (r.ok ? { total: r.total, hits: r.hits, ids: r.ids, truncated: r.truncated, sessions: r.sessions } : r);

async function loaded(pool: boolean) {
	const e = new Engine({ searchPool: () => (pool ? new SearchPool([new LocalLane(20_000_000), new LocalLane(20_000_000)], () => new LocalLane(1_000_000)) : null) });
	const out = await e.load(1, { files });
	if (!out.ok || !out.scanned) throw new Error('expected a listed (scanned) drop');
	return e;
}

describe.each([true, false])('history scope (pool: %s)', (pool) => {
	it('answers what the scan answers, before, during and after indexing', async () => {
		const e = await loaded(pool);
		const queries: SearchRequest[] = [
			{ query: 'parser', ids: true, maxHits: 50 },
			{ query: 'CAFÉ', options: { ignoreDiacritics: true }, ids: true },
			{ query: 'rows\\d+ = walk', options: { regex: true }, ids: true },
			{ query: '\\d{4}\\)', options: { regex: true }, ids: true, maxHits: 10 }
		];
		let gen = 1;
		const scan = [];
		for (const q of queries) scan.push(await e.search(gen++, q, []));
		expect(scan.every((r) => r.ok && r.total > 0)).toBe(true);
		const before = await e.search(gen++, { ...queries[0], history: true }, []);
		expect(strip(before)).toEqual(strip(scan[0]));
		expect(before.ok && before.history).toMatchObject({ indexed: 0, scanned: 26 });

		// Part-way: a search while the history service indexes (indexed sessions from their index, the rest scanned).
		const indexing = e.history.start();
		await new Promise((r) => setTimeout(r, 30));
		const during = await e.search(gen++, { ...queries[1], history: true }, []);
		expect(strip(during)).toEqual(strip(scan[1]));
		expect((await indexing).ready).toBe(true);
		const status = e.historySearch.status();
		expect(status).toMatchObject({ listed: 26, indexed: 26 });
		expect(status.indexBytes).toBeGreaterThan(0);
		expect(status.indexBytes / status.treeBytes).toBeLessThan(0.25);

		for (let i = 0; i < queries.length; i++) {
			const r = await e.search(gen++, { ...queries[i], history: true }, []);
			expect(strip(r), queries[i].query).toEqual(strip(scan[i]));
			expect(r.ok && r.history).toMatchObject({ indexed: 26, scanned: 0 });
		}
		// A phrase from one session's text: the filters rule the others out.
		const rare = scan[0].ok ? scan[0].hits[0].snippet.text.replace(/^…/, '').slice(0, 60) : '';
		const rareScan = await e.search(gen++, { query: rare, ids: true }, []);
		const rareIndex = await e.search(gen++, { query: rare, ids: true, history: true }, []);
		expect(strip(rareIndex)).toEqual(strip(rareScan));
		expect(rareIndex.ok && rareIndex.history!.candidates).toBeLessThan(5);
	});
});

/** A lane on this thread that notes, for each session decoded from its index, whether its bytes came along. */
class SpyLane extends LocalLane {
	bytes: boolean[] = [];
	run(job: LaneJob): Promise<LaneResult> {
		if (job.indexed) this.bytes.push(!!job.indexText);
		return super.run(job);
	}
	runBatch(jobs: LaneJob[]): Promise<LaneResult[]> {
		for (const j of jobs) if (j.indexed) this.bytes.push(!!j.indexText);
		return super.runBatch(jobs);
	}
}

describe('history scope with the lanes keeping what they decoded', () => {
	it('the field’s focus decodes the history into the lanes once it is indexed; later queries send no bytes and answer as the scan', async () => {
		const lanes = [new SpyLane(20_000_000), new SpyLane(20_000_000)];
		const e = new Engine({ searchPool: () => new SearchPool(lanes, () => new LocalLane(1_000_000)) });
		const out = await e.load(1, { files });
		if (!out.ok || !out.scanned) throw new Error('expected a listed (scanned) drop');
		// Not before the history index is ready.
		expect((await e.prepareSearch([], true)).warmed).toBe(0);
		expect((await e.history.start()).ready).toBe(true);
		const warmed = (await e.prepareSearch([], true)).warmed!;
		// Every listed session but the one the load built (its text is the engine's own).
		expect(warmed).toBe(25);
		expect(lanes.flatMap((l) => l.bytes).filter(Boolean).length).toBe(25);
		expect((await e.prepareSearch([], true)).warmed).toBe(0);
		for (const l of lanes) l.bytes = [];
		let gen = 1;
		for (const q of [{ query: 'parser', ids: true, maxHits: 50 }, { query: 'rows\\d+ = walk', options: { regex: true }, ids: true }] as SearchRequest[]) {
			const scan = await e.search(gen++, q, []);
			const history = await e.search(gen++, { ...q, history: true }, []);
			expect(scan.ok && scan.total).toBeGreaterThan(0);
			expect(strip(history), q.query).toEqual(strip(scan));
		}
		const sent = lanes.flatMap((l) => l.bytes);
		expect(sent.length).toBeGreaterThan(0);
		expect(sent.every((b) => !b)).toBe(true);
	});
});


describe('the search lanes, once the history is ready', () => {
	it('start when startHistory finds the history indexed, not on a load', async () => {
		let started = 0;
		const e = new Engine({ searchPool: () => (started++, new SearchPool([new LocalLane(20_000_000)], () => new LocalLane(1_000_000))) });
		const out = await e.load(1, { files });
		if (!out.ok || !out.scanned) throw new Error('expected a listed (scanned) drop');
		expect(started).toBe(0);
		expect((await e.startHistory()).ready).toBe(true);
		expect(started).toBe(1);
		// The first history query uses those lanes: none started for it.
		const r = await e.search(1, { query: 'parser', history: true }, []);
		expect(r.ok && r.total).toBeGreaterThan(0);
		expect(started).toBe(1);
	});

	it('do not start for a drop parsed whole (its sessions are searched on the engine’s thread)', async () => {
		let started = 0;
		const e = new Engine({ searchPool: () => (started++, new SearchPool([new LocalLane(20_000_000)], () => new LocalLane(1_000_000))) });
		const out = await e.load(1, { files: files.filter((f) => f.path.endsWith('.jsonl') && !f.path.includes('subagents')).slice(0, 3) });
		if (!out.ok || out.scanned) throw new Error('expected a drop parsed whole');
		expect((await e.startHistory()).ready).toBe(true);
		expect(started).toBe(0);
	});
});
