// The early load's message to the worker (early-load.ts): sent the moment the worker exists, not
// after the engine client's liveness round trip; and when that worker never starts, the engine the
// client falls back to loads the link instead. The engine client is replaced by fakes here.
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fake = vi.hoisted(() => ({
	now: null as null | { loadLink: (...a: unknown[]) => Promise<unknown> },
	client: null as null | Promise<{ api: unknown; inWorker: boolean }>
}));

vi.mock('./engine-client.ts', () => ({
	workerApiNow: () => fake.now,
	engineClient: () => fake.client
}));

const { EARLY_GENERATION, startEarlyLoad, takeEarlyLoad } = await import('./early-load.ts');

const answer = (path: string) => ({ ok: true, files: [{ path, blob: new Blob(['x']) }], outcome: { ok: true, sessions: [] } });

beforeEach(() => {
	fake.now = null;
	fake.client = null;
});

describe('the early load and the worker', () => {
	it('is sent to the worker before the worker has answered anything', async () => {
		let live: (v: { api: unknown; inWorker: boolean }) => void = () => {};
		const worker = { loadLink: vi.fn(async (..._args: unknown[]) => answer('from-worker.jsonl')) };
		fake.now = worker;
		fake.client = new Promise((r) => (live = r));
		startEarlyLoad({ kind: 'share', payload: 'p' }, '');
		// Sent now, while the liveness check is still waiting.
		expect(worker.loadLink).toHaveBeenCalledTimes(1);
		expect(worker.loadLink.mock.calls[0][0]).toBe(EARLY_GENERATION);
		live({ api: worker, inWorker: true });
		const taken = takeEarlyLoad({ kind: 'share', payload: 'p' }, EARLY_GENERATION);
		if (!taken || taken === 'replaced') throw new Error('not handed over');
		expect((await taken.files).map((f) => f.path)).toEqual(['from-worker.jsonl']);
		expect(worker.loadLink).toHaveBeenCalledTimes(1);
	});

	it('is loaded by the fallback engine when the worker never starts', async () => {
		const dead = { loadLink: vi.fn(() => new Promise(() => {})) };
		const mainThread = { loadLink: vi.fn(async () => answer('from-main-thread.jsonl')) };
		fake.now = dead;
		fake.client = Promise.resolve({ api: mainThread, inWorker: false });
		startEarlyLoad({ kind: 'share', payload: 'p' }, '');
		const taken = takeEarlyLoad({ kind: 'share', payload: 'p' }, EARLY_GENERATION);
		if (!taken || taken === 'replaced') throw new Error('not handed over');
		expect((await taken.files).map((f) => f.path)).toEqual(['from-main-thread.jsonl']);
		expect(mainThread.loadLink).toHaveBeenCalledTimes(1);
	});

	it('waits for the client where no worker was created', async () => {
		const mainThread = { loadLink: vi.fn(async () => answer('only.jsonl')) };
		fake.client = Promise.resolve({ api: mainThread, inWorker: false });
		startEarlyLoad({ kind: 'share', payload: 'p' }, '');
		const taken = takeEarlyLoad({ kind: 'share', payload: 'p' }, EARLY_GENERATION);
		if (!taken || taken === 'replaced') throw new Error('not handed over');
		expect((await taken.files).map((f) => f.path)).toEqual(['only.jsonl']);
	});
});
