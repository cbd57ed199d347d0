// The engine's search through the pool of search lanes gives exactly what the one-by-one search
// gives: the same count, the same hits in the same order, the same cut at maxHits, whatever order
// the lanes finish in. Lanes run in-process here (Node has no nested workers; the e2e search
// spec drives real ones), each delayed at random so sessions complete out of order.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../../scripts/lib/files.ts';
import { LocalLane, type LaneJob, type LaneResult, type SearchLane } from '../view/search/lane.ts';
import { SearchPool } from '../view/search/pool.ts';
import type { SearchOutcome, SearchRequest } from '../view/search/run.ts';
import { Engine } from './engine.ts';

let root = '';
let files: { path: string; blob: Blob }[] = [];

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'loupe-search-pool-'));
	const tree = join(root, 'projects');
	// 30 sessions (a big drop: listed, built on demand), 3 projects, subagents included.
	execFileSync('node', [join(__dirname, '../../../../shared/bench/gen-project.mjs'), '--mb', '1', '--sessions', '30', '--projects', '3', '--seed', '4', '--out', tree]);
	files = filesUnder(tree).map((p) => ({ path: relative(root, p), blob: new Blob([readFileSync(p)]) }));
});

afterAll(() => {
	if (root) rmSync(root, { recursive: true, force: true });
});

/** An in-process lane that answers after a random delay (seeded), and records what it ran. */
class ShuffledLane implements SearchLane {
	inner = new LocalLane(50_000_000);
	ran: { cacheKey: string; wasCached: boolean }[] = [];
	#seed: number;
	constructor(seed: number) {
		this.#seed = seed;
	}
	async run(job: LaneJob): Promise<LaneResult> {
		this.ran.push({ cacheKey: job.cacheKey, wasCached: !!this.inner.state.cache.get(job.cacheKey) });
		this.#seed = (this.#seed * 1103515245 + 12345) % 2 ** 31;
		await new Promise((r) => setTimeout(r, this.#seed % 7));
		return this.inner.run(job);
	}
}

async function engines() {
	const lanes = [new ShuffledLane(1), new ShuffledLane(2), new ShuffledLane(3)];
	const pooled = new Engine({ searchPool: () => new SearchPool(lanes, () => new LocalLane(1_000_000)) });
	const sequential = new Engine({ searchPool: () => null });
	for (const e of [pooled, sequential]) {
		const out = await e.load(1, { files });
		if (!out.ok || !out.scanned) throw new Error('expected a listed (scanned) drop');
	}
	return { pooled, sequential, lanes };
}

/** The outcome without its timings. */
function same(r: SearchOutcome) {
	return r.ok ? { ...r, ms: 0, firstMs: 0, pooled: 0, pooledMs: 0 } : r;
}

describe('search through the pool', () => {
	it('finds exactly what the one-by-one search finds: count, hits, order, the cut at maxHits', async () => {
		const { pooled, sequential, lanes } = await engines();
		const requests: SearchRequest[] = [
			{ query: 'parser', maxHits: 1_000_000 },
			{ query: 'parser', maxHits: 57 },
			{ query: 'cafe', options: { ignoreDiacritics: true }, maxHits: 200 },
			{ query: 'worker', scope: { kinds: ['tool-output', 'tool-call'] } },
			{ query: '\\bhash\\b', options: { regex: true, caseSensitive: true }, maxHits: 5 },
			{ query: 'parser', maxHits: 20, ids: true }
		];
		let g = 10;
		for (const req of requests) {
			g++;
			const batches: { hits: number; total: number }[] = [];
			const a = await pooled.search(g, req, [], (b) => batches.push({ hits: b.hits.length, total: b.total }));
			const b = await sequential.search(g, req, []);
			expect(a.ok && b.ok).toBe(true);
			expect(same(a)).toEqual(same(b));
			if (a.ok) {
				expect(a.total).toBeGreaterThan(0);
				expect(a.sessions).toBe(30);
				// Every session but the one the load built went to the lanes.
				expect(a.pooled).toBe(29);
				expect(b.ok && b.pooled).toBe(0);
				// Streamed batches carry every returned hit once, and end on the full count.
				expect(batches.reduce((n, x) => n + x.hits, 0)).toBe(a.hits.length);
				expect(batches.at(-1)?.total).toBe(a.total);
				if (req.ids) {
					// Every matching field by its atom, in the order of the hits, past maxHits too.
					const ids = (a.ids ?? []).flatMap((x) => x.atomUuids.map((u) => `${x.sessionKey} ${u}`));
					expect(ids).toHaveLength(a.total);
					expect(a.total).toBeGreaterThan(a.hits.length);
					expect(ids.slice(0, a.hits.length)).toEqual(a.hits.map((h) => `${h.sessionKey} ${h.atomUuid}`));
				} else expect(a.ids).toBeUndefined();
			}
		}
		// The queries after the first found most sessions' text in the lane that kept it.
		const later = lanes.flatMap((l) => l.ran.slice(l.ran.findIndex((x) => x.wasCached)));
		expect(lanes.every((l) => l.ran.length > 0)).toBe(true);
		expect(later.length).toBeGreaterThan(0);
		expect(later.every((x) => x.wasCached)).toBe(true);
		expect(lanes.flatMap((l) => l.ran).filter((x) => !x.wasCached).length).toBe(29);
	});

	it('a newer query cancels the pooled one: queued sessions are dropped, and the newer result is exact', async () => {
		const { pooled, sequential, lanes } = await engines();
		const older = pooled.search(1, { query: 'parser' }, []);
		const newer = pooled.search(2, { query: 'thread' }, []);
		expect(await older).toMatchObject({ ok: false, cancelled: true });
		expect(same(await newer)).toEqual(same(await sequential.search(2, { query: 'thread' }, [])));
		// The older query reached at most the sessions the lanes had been sent (two each) before the cancel.
		const ran = lanes.flatMap((l) => l.ran.map((x) => x.cacheKey));
		expect(ran.length).toBeLessThanOrEqual(29 + 2 * lanes.length);
		const stopped = pooled.search(3, { query: 'cache' }, []);
		pooled.cancelSearch(3);
		expect(await stopped).toMatchObject({ ok: false, cancelled: true });
		expect(same(await pooled.search(4, { query: 'cache' }, []))).toEqual(same(await sequential.search(4, { query: 'cache' }, [])));
	});
});
