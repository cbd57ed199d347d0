import { describe, expect, it } from 'vitest';
import { ByteLru } from './lru.ts';

describe('ByteLru', () => {
	it('evicts the least recently used entries once over budget', () => {
		const lru = new ByteLru<string>(100);
		const evicted: string[] = [];
		lru.onEvict = (k) => evicted.push(k);
		lru.set('a', 'A', 40);
		lru.set('b', 'B', 40);
		expect(lru.get('a')).toBe('A'); // a is now the most recent
		lru.set('c', 'C', 40);
		expect(evicted).toEqual(['b']);
		expect(lru.keys()).toEqual(['a', 'c']);
		expect(lru.bytes).toBe(80);
	});
	it('keeps the most recent entry even when it alone is over budget', () => {
		const lru = new ByteLru<number>(10);
		lru.set('small', 1, 5);
		lru.set('huge', 2, 500);
		expect(lru.keys()).toEqual(['huge']);
		expect(lru.get('huge')).toBe(2);
		expect(lru.has('small')).toBe(false);
	});
	it('replacing a key counts its bytes once', () => {
		const lru = new ByteLru<number>(100);
		lru.set('a', 1, 30);
		lru.set('a', 2, 50);
		expect(lru.bytes).toBe(50);
		expect(lru.size).toBe(1);
		expect(lru.delete('a')).toBe(true);
		expect(lru.bytes).toBe(0);
	});
});
