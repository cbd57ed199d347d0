// The engine client's fallback (engine-client.ts): a worker whose script fails to load is given up
// as soon as its 'error' event fires, and the engine runs on this thread, without waiting for the
// liveness timeout. Fake timers make that timeout never fire: waiting for it would hang the test.
import { afterEach, describe, expect, it, vi } from 'vitest';

class FailingWorker extends EventTarget {
	static made: FailingWorker[] = [];
	terminated = false;
	constructor() {
		super();
		FailingWorker.made.push(this);
		// As a browser reports a module worker whose script 404s: an 'error' event, a task later.
		queueMicrotask(() => this.dispatchEvent(new Event('error')));
	}
	postMessage(): void {}
	terminate(): void {
		this.terminated = true;
	}
}

afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

describe('engine client', () => {
	it('falls back to this thread at once when the worker cannot load its script', async () => {
		vi.useFakeTimers();
		vi.stubGlobal('Worker', FailingWorker);
		const { engineClient, workerApiNow } = await import('./engine-client.ts');
		const client = await engineClient();
		expect(client.inWorker).toBe(false);
		expect(FailingWorker.made).toHaveLength(1);
		expect(FailingWorker.made[0].terminated).toBe(true);
		expect(workerApiNow()).toBeNull();
		// The engine on this thread answers.
		expect(await client.api.chatRows('', 0, 0)).toEqual([]);
	});
});
