import { describe, expect, it } from 'vitest';
import type { AxisPiece, Tick } from '$lib/view/timeline/index.ts';
import { breakAt, breakMarks, breakPaths, squigglePath, tickLabelMask } from './axis-marks.ts';

const piece = (c0: number, c1: number, collapsed: boolean): AxisPiece => ({ t0: c0, t1: c1, c0, c1, collapsed, label: collapsed ? '3 h' : null });
const tick = (c: number): Tick => ({ c, t: c, label: String(c), major: false });
const id = (c: number) => c;

describe('breakMarks', () => {
	const pieces = [piece(0, 100, false), piece(100, 110, true), piece(110, 130, false), piece(130, 140, true), piece(140, 300, false), piece(300, 310, true)];

	it('keeps the collapsed pieces in view, with their index', () => {
		expect(breakMarks(pieces, { c0: 0, c1: 200 }, id).map((b) => b.i)).toEqual([1, 3]);
		expect(breakMarks(pieces, { c0: 305, c1: 400 }, id).map((b) => b.i)).toEqual([5]);
	});

	it('labels a break only 48 px or more after the last label', () => {
		expect(breakMarks(pieces, { c0: 0, c1: 400 }, id).map((b) => b.label)).toEqual([true, false, true]);
		expect(breakMarks(pieces, { c0: 0, c1: 400 }, (c) => c * 2).map((b) => b.label)).toEqual([true, true, true]);
	});
});

describe('tickLabelMask', () => {
	it('spaces labels 44 px apart and keeps 34 px free at the right edge', () => {
		expect(tickLabelMask([0, 20, 50, 100, 180].map(tick), [], id, 200)).toEqual([true, false, true, true, false]);
	});

	it('keeps labels clear of break labels', () => {
		const b = { p: piece(110, 120, true), i: 1, label: true };
		expect(tickLabelMask([tick(100)], [b], id, 400)).toEqual([false]);
		expect(tickLabelMask([tick(100)], [{ ...b, label: false }], id, 400)).toEqual([true]);
		expect(tickLabelMask([tick(200)], [b], id, 400)).toEqual([true]);
	});
});

describe('squigglePath', () => {
	it('zigzags 3 px either side in 6 px steps down to the bottom', () => {
		expect(squigglePath(10, 0, 12)).toBe('M10 0L13 6L7 12');
		expect(squigglePath(10, 22, 30)).toBe('M10 22L13 28L7 34');
	});
});

describe('breakPaths and breakAt', () => {
	const pieces = [piece(0, 100, false), piece(100, 110, true), piece(110, 130, false), piece(130, 130.5, true)];
	const marks = breakMarks(pieces, { c0: 0, c1: 200 }, id);

	it('draws every band (at least 1 px wide) and squiggle as one path each', () => {
		const { bands, squiggles } = breakPaths(marks, id, 0, 12);
		expect(bands).toBe('M100 0h10v12h-10zM130 0h1v12h-1z');
		expect(squiggles).toBe(squigglePath(105, 0, 12) + squigglePath(130.25, 0, 12));
	});

	it('finds the break under a point of its band', () => {
		expect(breakAt(marks, id, 105)).toBe(1);
		expect(breakAt(marks, id, 130.9)).toBe(3);
		expect(breakAt(marks, id, 120)).toBeNull();
	});
});
