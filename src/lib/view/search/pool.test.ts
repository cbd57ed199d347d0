// The search pool's scheduling: at most two jobs per lane, list order (the first lane: largest
// first), sessions back to the lane that keeps their text, a cancel drops what is queued,
// discards what runs and tells the lanes to skip what waits there, a failed lane's work moves on.
import { describe, expect, it } from 'vitest';
import type { LaneJob, LaneResult, SearchLane } from './lane.ts';
import { SearchPool } from './pool.ts';

/** A lane whose jobs finish when the test says so; it reports every session as kept. */
class ManualLane implements SearchLane {
	ran: string[] = [];
	open: { job: LaneJob; finish: (r?: Partial<LaneResult>) => void; fail: () => void }[] = [];
	maxRunning = 0;
	skippedBefore = 0;
	jobs: LaneJob[] = [];
	run(job: LaneJob): Promise<LaneResult> {
		this.ran.push(job.cacheKey);
		this.jobs.push(job);
		return new Promise((resolve, reject) => {
			const entry = {
				job,
				finish: (r: Partial<LaneResult> = {}) => {
					this.open.splice(this.open.indexOf(entry), 1);
					resolve({ ok: true, hits: [], counted: 1, cached: true, evicted: [], ms: 1, ...r });
				},
				fail: () => {
					this.open.splice(this.open.indexOf(entry), 1);
					reject(new Error('gone'));
				}
			};
			this.open.push(entry);
			this.maxRunning = Math.max(this.maxRunning, this.open.length);
		});
	}
	skipBefore(generation: number) {
		this.skippedBefore = generation;
	}
}

const job = (key: string, maxHits = 10) => () => ({ cacheKey: key, key, files: [], listed: { key, id: key, project: '', harness: 'claude-code' as const, files: [] }, query: 'q', maxHits });
const tick = () => new Promise((r) => setTimeout(r, 0));
const noFallback = () => {
	throw new Error('no fallback expected');
};

async function finishAll(lanes: ManualLane[]) {
	await tick();
	for (let i = 0; i < 100 && lanes.some((l) => l.open.length); i++) {
		for (const l of lanes) l.open[0]?.finish();
		await tick();
	}
}

describe('SearchPool', () => {
	it('sends each lane at most two jobs; the first lane takes the largest, the others list order', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const sizes: Record<string, number> = { a: 1, b: 1, c: 50, d: 1, e: 9, f: 1 };
		const all = Object.keys(sizes).map((k) => pool.submit(k, sizes[k], job(k)));
		await Promise.resolve();
		expect(lanes.map((l) => l.ran)).toEqual([['c', 'e'], ['a', 'b']]);
		await finishAll(lanes);
		expect((await Promise.all(all)).every((r) => r?.counted === 1)).toBe(true);
		expect(lanes.map((l) => l.maxRunning)).toEqual([2, 2]);
		expect(lanes.flatMap((l) => l.ran).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
	});

	it('routes a session back to the lane that kept its text', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
		await Promise.all([...keys.map((k) => pool.submit(k, 1, job(k))), finishAll(lanes)]);
		const owner = Object.fromEntries(lanes.flatMap((l, i) => l.ran.map((k) => [k, i])));
		for (const l of lanes) l.ran = [];
		const again = [...keys].reverse().map((k) => pool.submit(k, 1, job(k)));
		await finishAll(lanes);
		await Promise.all(again);
		lanes.forEach((l, i) => expect(l.ran.every((k) => owner[k] === i)).toBe(true));
		expect(lanes.flatMap((l) => l.ran).sort()).toEqual(keys);
		// Jobs said so (a worker lane then reads no files for them); the first round's were not.
		expect(lanes.flatMap((l) => l.jobs.map((j) => [j.cacheKey, !!j.kept]))).toEqual(expect.arrayContaining(keys.map((k) => [k, false]).concat(keys.map((k) => [k, true]))));
		expect(lanes.flatMap((l) => l.jobs).filter((j) => j.kept)).toHaveLength(keys.length);
	});

	it('after clear (a new drop), no session is routed by what a lane kept before', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		let cleared = 0;
		for (const l of lanes) (l as SearchLane).clear = () => void cleared++;
		const pool = new SearchPool(lanes, noFallback);
		await Promise.all([pool.submit('a', 1, job('a')), pool.submit('b', 1, job('b')), finishAll(lanes)]);
		expect(lanes.map((l) => l.ran)).toEqual([['a'], ['b']]);
		pool.clear();
		expect(cleared).toBe(2);
		for (const l of lanes) l.ran = [];
		// 'b' was lane 1's; now both go by the shared queue: lane 0 (largest first) takes 'b'.
		await Promise.all([pool.submit('a', 1, job('a')), pool.submit('b', 5, job('b')), finishAll(lanes)]);
		expect(lanes.map((l) => l.ran)).toEqual([['b'], ['a']]);
	});

	it('a session a lane dropped from its cache goes to any lane', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const a = pool.submit('a', 1, job('a'));
		const b = pool.submit('b', 1, job('b'));
		await Promise.resolve();
		lanes[0].open[0].finish({ evicted: [] });
		lanes[1].open[0].finish({ cached: false });
		await Promise.all([a, b]);
		for (const l of lanes) l.ran = [];
		// Lane 0 keeps 'a'; nobody keeps 'b', so the shared queue gives it to lane 1.
		const again = [pool.submit('a', 1, job('a')), pool.submit('b', 1, job('b'))];
		await Promise.resolve();
		expect(lanes.map((l) => l.ran)).toEqual([['a'], ['b']]);
		await finishAll(lanes);
		await Promise.all(again);
	});

	it('asks for the hit budget when a lane takes the job, and stamps the generation', async () => {
		const lane = new ManualLane();
		const pool = new SearchPool([lane], noFallback);
		let budget = 10;
		const make = (k: string) => () => ({ ...job(k)(), maxHits: budget });
		const q = ['a', 'b', 'c'].map((k) => pool.submit(k, 1, make(k)));
		budget = 3;
		await finishAll([lane]);
		await Promise.all(q);
		expect(lane.ran).toEqual(['a', 'b', 'c']);
		expect(lane.open.length).toBe(0);
		// 'a' and 'b' went at once (two per lane), 'c' after the budget changed.
		const seen: [number, number][] = [];
		const spy = new (class extends ManualLane {
			run(j: LaneJob) {
				seen.push([j.maxHits, j.generation]);
				return super.run(j);
			}
		})();
		const pool2 = new SearchPool([spy], noFallback);
		budget = 10;
		const r = ['a', 'b', 'c'].map((k) => pool2.submit(k, 1, make(k)));
		await Promise.resolve();
		budget = 3;
		pool2.cancel();
		budget = 5;
		const d = pool2.submit('d', 1, make('d'));
		await finishAll([spy]);
		await Promise.all([...r, d]);
		expect(seen).toEqual([[10, 0], [10, 0], [5, 1]]);
	});

	it('cancel resolves queued and running jobs with null at once; lanes skip what waits; a running job is discarded', async () => {
		const lanes = [new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const results = ['a', 'b', 'c'].map((k) => pool.submit(k, 1, job(k)));
		await Promise.resolve();
		pool.cancel();
		expect(await Promise.all(results)).toEqual([null, null, null]);
		expect(lanes[0].skippedBefore).toBe(1);
		// The lane still has 'a' and 'b': a new query's job waits for room, then runs.
		const next = pool.submit('d', 1, job('d'));
		await Promise.resolve();
		expect(lanes[0].ran).toEqual(['a', 'b']);
		lanes[0].open[0].finish({ counted: 99 });
		await tick();
		expect(lanes[0].ran).toEqual(['a', 'b', 'd']);
		lanes[0].open[0].finish();
		lanes[0].open[0].finish({ counted: 7 });
		expect((await next)?.counted).toBe(7);
	});

	it('a lane that fails hands its jobs to another lane, and to the fallback when none is left', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		let fallbackRuns = 0;
		const pool = new SearchPool(lanes, () => ({
			run: async (j) => {
				fallbackRuns++;
				return { ok: true, hits: [], counted: j.cacheKey.length, cached: false, evicted: [], ms: 1 };
			}
		}));
		const p = ['a', 'b', 'c', 'd', 'e'].map((k) => pool.submit(k, 1, job(k)));
		await Promise.resolve();
		// lane 0 runs a, c; lane 1 runs b, d; e is queued.
		lanes[0].open[0].fail();
		lanes[0].open[0].fail();
		await tick();
		expect(pool.size).toBe(1);
		while (lanes[1].open.length) {
			lanes[1].open[0].fail();
			await tick();
		}
		expect(pool.size).toBe(0);
		const r = await Promise.all(p);
		expect(r.map((x) => x?.counted)).toEqual([1, 1, 1, 1, 1]);
		expect(fallbackRuns).toBe(5);
		expect((await pool.submit('zz', 1, job('zz')))?.counted).toBe(2);
	});

	it('sends a lane the sessions it keeps in batches, in order, without their index bytes; one it let go is sent again with them', async () => {
		const bytes = new Uint8Array([1, 2, 3]);
		// A lane on this thread that keeps what it is sent (its text is the key), except what the test drops.
		const dropped = new Set<string>();
		const kept = new Set<string>();
		const batches: string[][] = [];
		const singles: { key: string; bytes: boolean }[] = [];
		const answer = (j: LaneJob): LaneResult => {
			if (!j.indexText && !kept.has(j.cacheKey)) return { ok: false, missing: true, hits: [], counted: 0, cached: false, evicted: [], ms: 0 };
			kept.add(j.cacheKey);
			return { ok: true, hits: [], counted: j.cacheKey.charCodeAt(0), cached: true, evicted: [], ms: 0 };
		};
		const lane: SearchLane = {
			run: async (j) => {
				singles.push({ key: j.cacheKey, bytes: !!j.indexText });
				return answer(j);
			},
			runBatch: async (js) => {
				batches.push(js.map((j) => j.cacheKey));
				for (const k of dropped) kept.delete(k);
				return js.map(answer);
			}
		};
		const pool = new SearchPool([lane], noFallback);
		const keys = 'abcdefghij'.split('');
		const indexJob = (key: string) => (k: boolean) => ({ ...job(key)(), indexed: true, indexText: k ? undefined : bytes });
		const first = await Promise.all(keys.map((k) => pool.submit(k, 1, indexJob(k))));
		expect(first.map((r) => r?.counted)).toEqual(keys.map((k) => k.charCodeAt(0)));
		expect(batches).toEqual([]);
		expect(singles.every((s) => s.bytes)).toBe(true);
		singles.length = 0;
		dropped.add('d');
		const again = await Promise.all(keys.map((k) => pool.submit(k, 1, indexJob(k))));
		expect(again.map((r) => r?.counted)).toEqual(keys.map((k) => k.charCodeAt(0)));
		// Two in flight at most: the first batch, then the rest; d was let go, so it went again with its bytes.
		expect(batches.flat()).toEqual(keys);
		expect(batches.length).toBeLessThanOrEqual(2);
		expect(singles).toEqual([{ key: 'd', bytes: true }]);
	});

	it('sends sessions to decode from their index in batches of their neighbours, with their bytes, in list order', async () => {
		const bytes = new Uint8Array([1, 2, 3]);
		const batches: { lane: number; keys: string[]; bytes: boolean[] }[] = [];
		const singles: string[] = [];
		const laneOf = (i: number): SearchLane => ({
			run: async (j) => {
				singles.push(j.cacheKey);
				return { ok: true, hits: [], counted: 1, cached: false, evicted: [], ms: 0 };
			},
			runBatch: async (js) => {
				batches.push({ lane: i, keys: js.map((j) => j.cacheKey), bytes: js.map((j) => j.indexText === bytes) });
				return js.map(() => ({ ok: true, hits: [], counted: 1, cached: false, evicted: [], ms: 0 }));
			}
		});
		const pool = new SearchPool([laneOf(0), laneOf(1)], noFallback);
		const light = (key: string) => (k: boolean) => ({ ...job(key)(), indexed: true, indexText: k ? undefined : bytes });
		// 40 sessions with an index, then one to build (not light): it goes on its own.
		const keys = Array.from({ length: 40 }, (_, i) => `s${String(i).padStart(2, '0')}`);
		const results = await Promise.all([...keys.map((k) => pool.submit(k, 1, light(k), true)), pool.submit('build', 1, job('build'))]);
		expect(results.every((r) => r?.counted === 1)).toBe(true);
		expect(singles).toEqual(['build']);
		expect(batches.every((b) => b.keys.length >= 2 && b.keys.length <= 16 && b.bytes.every(Boolean))).toBe(true);
		// Each batch is a run of neighbours, and together they are the list in order.
		expect(batches.flatMap((b) => b.keys)).toEqual(keys);
		expect(new Set(batches.map((b) => b.lane))).toEqual(new Set([0, 1]));
	});
});
