// The virtualized list's arithmetic: offsets, hit-testing, the drawn window, anchoring, j/k, draw slices.
import { describe, expect, it } from 'vitest';
import { anchorAt, computeOffsets, nextSlice, rowAt, scrollForAnchor, turnJump, windowRange } from './virtual';

describe('virtual list arithmetic', () => {
	const o = computeOffsets([10, 20, 30, 40]);
	it('offsets are prefix sums', () => expect([...o]).toEqual([0, 10, 30, 60, 100]));
	it('rowAt finds the row containing y, clamped', () => {
		expect([rowAt(o, -5), rowAt(o, 0), rowAt(o, 9.9), rowAt(o, 10), rowAt(o, 59), rowAt(o, 60), rowAt(o, 1000)]).toEqual([0, 0, 0, 1, 2, 3, 3]);
		expect(rowAt(computeOffsets([]), 5)).toBe(0);
	});
	it('the window covers the viewport plus overscan, capped', () => {
		const big = computeOffsets(Array(10_000).fill(50));
		expect(windowRange(big, 5000, 1000, 500, 1000)).toEqual({ start: 90, end: 131 });
		expect(windowRange(big, 5000, 1000, 500, 20)).toEqual({ start: 90, end: 110 });
		// Tiny estimates never put more than maxRows rows in the DOM.
		const tiny = computeOffsets(Array(15_000).fill(1));
		const w = windowRange(tiny, 0, 900, 900, 120);
		expect(w.end - w.start).toBe(120);
	});
	it('after rows above grow, the anchor row stays at the same screen position', () => {
		const before = computeOffsets([100, 100, 100, 100]);
		const a = anchorAt(before, 250); // 50px into row 2
		expect(a).toEqual({ index: 2, delta: 50 });
		const after = computeOffsets([100, 400, 100, 100]); // row 1 expanded
		expect(scrollForAnchor(after, a) - after[2]).toBe(250 - before[2]);
		expect(scrollForAnchor(after, a)).toBe(550);
	});
	it('a row growing below the anchor does not move the viewport', () => {
		const before = computeOffsets([100, 100, 100, 100]);
		const a = anchorAt(before, 120);
		expect(scrollForAnchor(computeOffsets([100, 100, 900, 100]), a)).toBe(120);
	});
	it('j / k jump between turn starts', () => {
		const turns = [0, 0, 0, 1, 1, 2, 2, 2];
		const t = (i: number) => turns[i];
		expect(turnJump(t, 8, 1, 1)).toBe(3);
		expect(turnJump(t, 8, 3, 1)).toBe(5);
		expect(turnJump(t, 8, 6, 1)).toBeNull();
		expect(turnJump(t, 8, 6, -1)).toBe(5);
		expect(turnJump(t, 8, 5, -1)).toBe(3);
		expect(turnJump(t, 8, 0, -1)).toBeNull();
	});
	it('a draw slice fits the time budget by the last slice, grows at most twofold, and stays in bounds', () => {
		// 2 rows took 30 ms: 15 a row, 2 fit in 30 ms.
		expect(nextSlice(2, 30, 30, 1, 16)).toBe(2);
		// Fast rows: the count may double, no more, however cheap they were.
		expect(nextSlice(2, 4, 30, 1, 16)).toBe(4);
		expect(nextSlice(8, 0, 30, 1, 16)).toBe(16);
		// Slow rows: fewer per task, never none.
		expect(nextSlice(8, 120, 30, 1, 16)).toBe(2);
		expect(nextSlice(2, 400, 30, 1, 16)).toBe(1);
		expect(nextSlice(16, 10, 30, 1, 16)).toBe(16);
	});
});
