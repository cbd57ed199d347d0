// GramSet holds each added 32-bit hash once, as a Set<number> would: through growth, with colliding
// low bits (one probe run), with 0 and 2³²−1 (the empty mark and the top value), and signed input.
import { describe, expect, it } from 'vitest';
import { GramList, GramSet } from './gram-set.ts';

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

describe('GramList', () => {
	it('keeps every hash in order, repeats too, through growth', () => {
		const l = new GramList();
		const ref: number[] = [];
		for (let i = 0; i < 5000; i++) {
			const h = (Math.imul(i % 1300, 2654435761) >>> 0) || 0xffffffff;
			l.add(h);
			ref.push(h);
		}
		expect(l.length).toBe(5000);
		expect([...l.values()]).toEqual(ref);
	});

	it('counts distinct hashes exactly when few, within 5 % when many', () => {
		let x = 5;
		const next = () => (x = (Math.imul(x, 1664525) + 1013904223) | 0) >>> 0;
		const few = new GramList();
		const fewDistinct = Array.from({ length: 1300 }, next);
		for (let r = 0; r < 3; r++) for (const h of fewDistinct) few.add(h);
		expect(few.distinctEstimate()).toBe(1300);
		// Just past the exact count: a typical session's word trigrams, about three in four distinct.
		const some = new GramList();
		const someDistinct = Array.from({ length: 15_000 }, next);
		for (let i = 0; i < 20_000; i++) some.add(someDistinct[i % someDistinct.length]);
		expect(Math.abs(some.distinctEstimate() - 15_000) / 15_000).toBeLessThan(0.08);
		const many = new GramList();
		const distinct = Array.from({ length: 200_000 }, next);
		for (let i = 0; i < 500_000; i++) many.add(distinct[i % distinct.length]);
		const est = many.distinctEstimate();
		expect(Math.abs(est - 200_000) / 200_000).toBeLessThan(0.05);
	});
});
