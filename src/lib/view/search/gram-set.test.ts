// GramSet holds each added 32-bit hash once, as a Set<number> would: through growth, with colliding
// low bits (one probe run), with 0 and 2³²−1 (the empty mark and the top value), and signed input.
import { describe, expect, it } from 'vitest';
import { GramSet } from './gram-set.ts';

const sorted = (xs: Iterable<number>) => [...xs].sort((a, b) => a - b);

describe('GramSet', () => {
	it('holds what a Set holds, through growth from the smallest table', () => {
		let x = 3;
		const g = new GramSet();
		const ref = new Set<number>();
		for (let i = 0; i < 200_000; i++) {
			x = (Math.imul(x, 1664525) + 1013904223) | 0;
			// Repeats, both ways: a value seen long ago, and the same value twice in a row.
			const h = (i % 7 === 0 ? x % 5000 : x) >>> 0;
			g.add(h);
			g.add(h);
			ref.add(h);
		}
		expect(g.size).toBe(ref.size);
		expect(sorted(g.values())).toEqual(sorted(ref));
		for (const h of [...ref].slice(0, 1000)) expect(g.has(h)).toBe(true);
		expect(g.has(123456789) === ref.has(123456789)).toBe(true);
	});

	it('keeps hashes whose low bits collide, 0, the top value and negative int32 input as uint32', () => {
		const g = new GramSet(4);
		const same = Array.from({ length: 3000 }, (_, i) => ((i + 1) * 65536) >>> 0);
		for (const h of same) g.add(h);
		g.add(0);
		g.add(0xffffffff);
		g.add(-1);
		expect(g.size).toBe(same.length + 2);
		expect(g.has(0)).toBe(true);
		expect(g.has(-1)).toBe(true);
		expect(g.has(1)).toBe(false);
		expect(sorted(g.values())).toEqual(sorted([...same, 0, 0xffffffff]));
	});

	it('an empty set has nothing, not even 0', () => {
		const g = new GramSet(100);
		expect(g.size).toBe(0);
		expect(g.has(0)).toBe(false);
		expect(g.values().length).toBe(0);
	});
});
