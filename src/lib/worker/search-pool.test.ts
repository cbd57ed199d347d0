// How many search workers the engine starts, and that it starts none where workers cannot run
// (there the engine builds listed sessions itself, one by one: engine-search.test.ts); what a job
// takes with it to its lane (an index text moves as a copy, the engine's own stays whole). Lane
// workers from the page (useLanePorts): calls wait for the port, a worker let go is asked to
// close, one that cannot start fails its calls instead of hanging, and with the page's lanes a
// thread without Worker of its own has a pool.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { LaneJob } from '../view/search/lane.ts';
import * as Comlink from 'comlink';
import { outgoing, poolSize, startSearchPool, startSearchWorker, useLanePorts } from './search-pool.ts';
import { startHistoryLanes } from './history-lanes.ts';

describe('search pool start', () => {
	it('one lane per core, at least 2 and at most 4', () => {
		expect([undefined, 1, 2, 3, 4, 16].map(poolSize)).toEqual([2, 2, 2, 3, 4, 4]);
	});

	it('no pool where Worker does not exist (Node)', () => {
		expect(typeof Worker).toBe('undefined');
		expect(startSearchPool(1_000_000)).toBeNull();
	});

	it('sends a copy of each index text, transferred: the engine keeps its own for the next query', async () => {
		const text = new Uint8Array([7, 8, 9, 10]);
		const bytes = new Uint8Array([1, 2, 3]);
		const job = (key: string, extra: Partial<LaneJob>): LaneJob => ({ cacheKey: key, key, files: [], listed: { key, id: key, project: '', harness: 'claude-code', files: [] }, query: 'q', maxHits: 1, generation: 0, ...extra });
		const sent = outgoing([job('a', { indexed: true, indexText: text }), job('b', { files: [{ path: 'b.jsonl', blob: new Blob([bytes]), bytes }] })]);
		expect(sent.transfer).toHaveLength(2);
		const { port1, port2 } = new MessageChannel();
		const received = new Promise<LaneJob[]>((r) => port2.once('message', r));
		port1.postMessage(sent.jobs, sent.transfer);
		const [a, b] = await received;
		port1.close();
		// The copy went; the engine's index text is whole. A file's read bytes move (the lane's alone).
		expect([...(a.indexText ?? [])]).toEqual([7, 8, 9, 10]);
		expect([...text]).toEqual([7, 8, 9, 10]);
		expect(sent.jobs[0].indexText!.byteLength).toBe(0);
		expect([...(b.files[0].bytes ?? [])]).toEqual([1, 2, 3]);
		expect(bytes.byteLength).toBe(0);
	});
});

describe('lane workers from the page', () => {
	/** A stand-in for search.worker.ts served on a port, logging what it is asked. */
	function fakeLane(log: string[]) {
		const { port1, port2 } = new MessageChannel();
		Comlink.expose({ init: () => 'ready', close: () => void log.push('close') }, port1 as unknown as Comlink.Endpoint);
		return port2 as unknown as MessagePort;
	}

	it('asks the page for a port and waits for it; a worker let go is asked to close, once', async () => {
		const log: string[] = [];
		let asked = 0;
		let give: (p: MessagePort) => void = () => undefined;
		useLanePorts(() => {
			asked++;
			return new Promise((r) => (give = r));
		});
		const w = startSearchWorker('lane');
		// Called before the port exists: the call waits for it.
		const answer = w.guarded(() => w.api.init(1, 1, 0));
		give(fakeLane(log));
		expect(await answer).toBe('ready');
		w.dispose();
		w.dispose();
		// (The stand-in stays up: a call after both disposals answers after whatever they sent.)
		await w.api.init(1, 1, 0);
		expect(log).toEqual(['close']);
		// The next lane is a new worker.
		useLanePorts(() => (asked++, Promise.resolve(fakeLane(log))));
		const next = startSearchWorker('lane');
		expect(await next.guarded(() => next.api.init(1, 1, 0))).toBe('ready');
		expect(asked).toBe(2);
	});

	it('with the page starting lanes, a thread without Worker of its own has a pool and history lanes', () => {
		useLanePorts(() => Promise.resolve(fakeLane([])));
		expect(typeof Worker).toBe('undefined');
		expect(startSearchPool(1_000_000)).not.toBeNull();
		expect(startHistoryLanes()).toHaveLength(poolSize(undefined));
	});

	it('a worker the page cannot start fails its calls, now and later', async () => {
		useLanePorts(() => Promise.reject(new Error('blocked worker URL')));
		const w = startSearchWorker('history worker');
		await expect(w.guarded(() => w.api.init(1, 1, 0))).rejects.toThrow('history worker failed: blocked worker URL');
		await expect(w.guarded(() => w.api.init(1, 1, 0))).rejects.toThrow('history worker failed');
	});
});
