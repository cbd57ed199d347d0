// A lane reads a session's files whole before its turn comes (readAhead), so its thread builds
// instead of waiting on reads; what it reads must be exactly the files, and a read that cannot
// be made leaves the build to read (and report) the file itself.
import { describe, expect, it } from 'vitest';
import { readAhead, READ_AHEAD_MAX_BYTES } from './lane.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('readAhead', () => {
	it('reads every file whole, keeping path and blob', async () => {
		const files = [
			{ path: 'p/S.jsonl', blob: new Blob([enc('{"a":1}\n{"b":2}\n')]) },
			{ path: 'p/S/subagents/agent-x.jsonl', blob: new Blob([enc('{"c":"é"}\n')]) }
		];
		const out = await readAhead(files);
		expect(out?.map((f) => [f.path, f.blob, new TextDecoder().decode(f.bytes)])).toEqual([
			['p/S.jsonl', files[0].blob, '{"a":1}\n{"b":2}\n'],
			['p/S/subagents/agent-x.jsonl', files[1].blob, '{"c":"é"}\n']
		]);
	});

	it('files read already are handed back as they are (the engine read them for the lane)', async () => {
		const bytes = enc('x');
		const files = [{ path: 'a.jsonl', blob: { size: 1 } as Blob, bytes }];
		expect(await readAhead(files)).toBe(files);
	});

	it('a session over the read-ahead limit is left to stream; a failed read gives null', async () => {
		const big = { size: READ_AHEAD_MAX_BYTES + 1, arrayBuffer: () => Promise.reject(new Error('must not be read whole')) } as unknown as Blob;
		expect(readAhead([{ path: 'big.jsonl', blob: big }])).toBeNull();
		const failing = { size: 10, arrayBuffer: () => Promise.reject(new Error('moved')) } as unknown as Blob;
		expect(await readAhead([{ path: 'gone.jsonl', blob: failing }])).toBeNull();
	});
});

describe('a lane decoding sessions from their history search index', () => {
	it('keeps decoded sessions while there is room, then keeps the ones it has (no eviction churn)', async () => {
		const { buildSearchIndex } = await import('./history-index.ts');
		const { LaneState } = await import('./lane.ts');
		const field = (text: string) => ({ text, kind: 'reply' as const, author: 'claude' as const, tool: null, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false });
		const lane = new LaneState(250);
		const job = async (key: string) => {
			const idx = await buildSearchIndex([field(`parser ${key} `.repeat(10))]);
			return lane.run({ cacheKey: key, key, files: [], listed: { key, id: key, project: '', harness: 'claude-code', files: [] }, query: 'parser', maxHits: 5, generation: 0, indexText: idx.text });
		};
		const a = await job('a');
		const b = await job('b');
		const c = await job('c');
		expect([a.counted, b.counted, c.counted]).toEqual([1, 1, 1]);
		expect([a.cached, b.cached, c.cached]).toEqual([true, true, false]);
		expect(c.evicted).toEqual([]);
		expect(lane.resident.get('a')).toBeDefined();
		expect(lane.cache.get('a')).toBeUndefined();
	});

	it('a session it keeps is scanned without its bytes; one it does not keep asks for them (missing)', async () => {
		const { buildSearchIndex } = await import('./history-index.ts');
		const { LaneState } = await import('./lane.ts');
		const f = { text: 'the parser, the parser', kind: 'reply' as const, author: 'claude' as const, tool: null, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false };
		const idx = await buildSearchIndex([f, { ...f, atomUuid: 'b', text: 'no match' }, { ...f, atomUuid: 'c' }]);
		const lane = new LaneState(10, 1000);
		const job = (key: string, indexText?: Uint8Array) => ({ cacheKey: key, key, files: [], listed: { key, id: key, project: '', harness: 'claude-code' as const, files: [] }, query: 'parser', maxHits: 5, generation: 0, indexed: true, indexText });
		expect(await lane.run(job('x'))).toMatchObject({ ok: false, missing: true });
		const first = await lane.run(job('x', idx.text));
		expect(first).toMatchObject({ ok: true, counted: 2, cached: true });
		const again = await lane.run(job('x'));
		expect(again).toMatchObject({ ok: true, counted: 2, cached: true });
		expect(again.hits.map((h) => h.atomUuid)).toEqual(['a', 'c']);
		// In a batch, a later session's hit budget is what the earlier ones left.
		await lane.run(job('y', idx.text));
		const [bx, by] = await lane.runBatch([{ ...job('x'), maxHits: 3 }, { ...job('y'), maxHits: 3 }]);
		expect([bx.hits.length, by.hits.length, bx.counted, by.counted]).toEqual([2, 1, 2, 2]);
	});

	it('lets its resident text go after a while without jobs, and then asks for the bytes again', async () => {
		const { vi } = await import('vitest');
		const { buildSearchIndex } = await import('./history-index.ts');
		const { LaneState } = await import('./lane.ts');
		const idx = await buildSearchIndex([{ text: 'the parser', kind: 'reply', author: 'claude', tool: null, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false }]);
		const job = (indexText?: Uint8Array) => ({ cacheKey: 'x', key: 'x', files: [], listed: { key: 'x', id: 'x', project: '', harness: 'claude-code' as const, files: [] }, query: 'parser', maxHits: 5, generation: 0, indexed: true, indexText });
		vi.useFakeTimers();
		try {
			const lane = new LaneState(10, 1000, 60_000);
			expect(await lane.run(job(idx.text))).toMatchObject({ ok: true, counted: 1, cached: true });
			await vi.advanceTimersByTimeAsync(59_000);
			expect(await lane.run(job())).toMatchObject({ ok: true, counted: 1 });
			// The job just now started the clock again: still kept a minute after the first one.
			await vi.advanceTimersByTimeAsync(59_000);
			expect(lane.resident.get('x')).toBeDefined();
			await vi.advanceTimersByTimeAsync(2_000);
			expect(lane.resident.get('x')).toBeUndefined();
			expect(await lane.run(job())).toMatchObject({ ok: false, missing: true });
		} finally {
			vi.useRealTimers();
		}
	});
});

