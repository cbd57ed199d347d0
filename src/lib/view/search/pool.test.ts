// The search pool's scheduling: one job per lane, sessions back to the lane that keeps their
// text, a cancel drops what is queued and discards what runs, a failed lane's work moves on.
import { describe, expect, it } from 'vitest';
import type { LaneJob, LaneResult, SearchLane } from './lane.ts';
import { SearchPool } from './pool.ts';

/** A lane whose jobs finish when the test says so; it reports every session as kept. */
class ManualLane implements SearchLane {
	ran: string[] = [];
	open: { job: LaneJob; finish: (r?: Partial<LaneResult>) => void; fail: () => void }[] = [];
	maxRunning = 0;
	run(job: LaneJob): Promise<LaneResult> {
		this.ran.push(job.cacheKey);
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
}

const job = (key: string, maxHits = 10) => (): LaneJob => ({ cacheKey: key, key, files: [], listed: null, query: 'q', maxHits });
const tick = () => new Promise((r) => setTimeout(r, 0));
const noFallback = () => {
	throw new Error('no fallback expected');
};

async function finishAll(lanes: ManualLane[]) {
	for (let i = 0; i < 100 && lanes.some((l) => l.open.length); i++) {
		for (const l of lanes) l.open[0]?.finish();
		await tick();
	}
}

describe('SearchPool', () => {
	it('runs one job per lane at a time, in submission order, and routes a kept session back to its lane', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const first = ['a', 'b', 'c', 'd', 'e'].map((k) => pool.submit(k, job(k)));
		expect(lanes.map((l) => l.ran)).toEqual([['a'], ['b']]);
		await finishAll(lanes);
		expect((await Promise.all(first)).every((r) => r?.counted === 1)).toBe(true);
		expect(lanes.every((l) => l.maxRunning === 1)).toBe(true);
		const owner = Object.fromEntries(lanes.flatMap((l, i) => l.ran.map((k) => [k, i])));
		for (const l of lanes) l.ran = [];
		const second = ['e', 'd', 'c', 'b', 'a'].map((k) => pool.submit(k, job(k)));
		await finishAll(lanes);
		await Promise.all(second);
		// Every session went back to the lane that kept it.
		lanes.forEach((l, i) => expect(l.ran.every((k) => owner[k] === i)).toBe(true));
		expect(lanes.flatMap((l) => l.ran).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
	});

	it('a session a lane dropped from its cache may go to any lane', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const a = pool.submit('a', job('a'));
		const b = pool.submit('b', job('b'));
		lanes[0].open[0].finish();
		lanes[1].open[0].finish({ evicted: ['b'] });
		await Promise.all([a, b]);
		// 'a' is kept by lane 0; 'b' by nobody, so the idle lane 1 takes it while lane 0 is busy with 'a'.
		for (const l of lanes) l.ran = [];
		const again = [pool.submit('a', job('a')), pool.submit('b', job('b'))];
		expect(lanes.map((l) => l.ran)).toEqual([['a'], ['b']]);
		await finishAll(lanes);
		await Promise.all(again);
	});

	it('the budget is asked for when a lane takes the job', async () => {
		let budget = 10;
		const make = (k: string) => () => ({ ...job(k)(), maxHits: budget });
		// 'a' was taken at once (budget 10), 'b' after the budget changed.
		const seen: number[] = [];
		const spy = new (class extends ManualLane {
			run(j: LaneJob) {
				seen.push(j.maxHits);
				return super.run(j);
			}
		})();
		const pool2 = new SearchPool([spy], noFallback);
		const q = [pool2.submit('a', make('a')), pool2.submit('b', make('b'))];
		budget = 3;
		await finishAll([spy]);
		await Promise.all(q);
		expect(seen).toEqual([10, 3]);
	});

	it('cancel resolves queued and running jobs with null at once; a running job finishes but is discarded', async () => {
		const lanes = [new ManualLane()];
		const pool = new SearchPool(lanes, noFallback);
		const results = ['a', 'b', 'c'].map((k) => pool.submit(k, job(k)));
		pool.cancel();
		expect(await Promise.all(results)).toEqual([null, null, null]);
		// The lane is still busy with 'a': a new query's job waits for it, then runs.
		const next = pool.submit('d', job('d'));
		expect(lanes[0].ran).toEqual(['a']);
		lanes[0].open[0].finish({ counted: 99 });
		await tick();
		expect(lanes[0].ran).toEqual(['a', 'd']);
		lanes[0].open[0].finish({ counted: 7 });
		expect((await next)?.counted).toBe(7);
	});

	it('a lane that fails hands its job to another lane, and to the fallback when none is left', async () => {
		const lanes = [new ManualLane(), new ManualLane()];
		let fallbackRuns = 0;
		const pool = new SearchPool(lanes, () => ({
			run: async (j) => {
				fallbackRuns++;
				return { ok: true, hits: [], counted: j.cacheKey.length, cached: false, evicted: [], ms: 1 };
			}
		}));
		const p = ['a', 'b', 'c'].map((k) => pool.submit(k, job(k)));
		lanes[0].open[0].fail();
		await tick();
		expect(pool.size).toBe(1);
		lanes[1].open[0].finish();
		await tick();
		lanes[1].open[0].fail();
		await tick();
		expect(pool.size).toBe(0);
		const r = await Promise.all(p);
		expect(r.map((x) => x?.counted)).toEqual([1, 1, 1]);
		expect(fallbackRuns).toBe(2);
		expect((await pool.submit('zz', job('zz')))?.counted).toBe(2);
	});
});
