// How many search workers the engine starts, and that it starts none where workers cannot run
// (there the engine builds listed sessions itself, one by one: engine-search.test.ts).
import { describe, expect, it } from 'vitest';
import { poolSize, startSearchPool } from './search-pool.ts';

describe('search pool start', () => {
	it('one lane per core, at least 2 and at most 4', () => {
		expect([undefined, 1, 2, 3, 4, 16].map(poolSize)).toEqual([2, 2, 2, 3, 4, 4]);
	});

	it('no pool where Worker does not exist (Node)', () => {
		expect(typeof Worker).toBe('undefined');
		expect(startSearchPool(1_000_000)).toBeNull();
	});
});
