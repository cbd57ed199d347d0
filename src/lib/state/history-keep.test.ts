import { beforeEach, describe, expect, it } from 'vitest';
import { askPersist, builtBefore, noteBuilt } from './history-keep.ts';

const store = new Map<string, string>();
beforeEach(() => {
	store.clear();
	(globalThis as { localStorage?: unknown }).localStorage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) };
});

describe('history keep', () => {
	it('remembers that an index was built; a clear on purpose forgets it', () => {
		expect(builtBefore()).toBe(0);
		noteBuilt(12);
		expect(builtBefore()).toBe(12);
		noteBuilt(0);
		expect(builtBefore()).toBe(0);
	});

	it('asks for persistent storage once, saying why in one line', async () => {
		let asked = 0;
		expect(await askPersist({ persisted: async () => false, persist: async () => (asked++, true) })).toMatch(/keep the history index/);
		expect(await askPersist({ persisted: async () => false, persist: async () => false })).toMatch(/may clear/);
		expect(await askPersist({ persisted: async () => true, persist: async () => (asked++, true) })).toBeNull();
		expect(await askPersist(undefined)).toBeNull();
		expect(asked).toBe(1);
	});
});
