import { describe, expect, it } from 'vitest';
import { linear, linePath, nearestIndex, niceTicks, timeTicks } from './scale.ts';

describe('usage chart geometry', () => {
	it('linear scales map the domain onto the range, flipped too', () => {
		const y = linear(0, 200, 100, 0);
		expect([y(0), y(100), y(200)]).toEqual([100, 50, 0]);
		expect(linear(5, 5, 0, 10)(5)).toBe(5);
	});
	it('nice ticks step by 1, 2 or 5 × 10ⁿ and reach the maximum', () => {
		expect(niceTicks(200_000, 4)).toEqual([0, 50_000, 100_000, 150_000, 200_000]);
		expect(niceTicks(0.37, 4)).toEqual([0, 0.1, 0.2, 0.3, 0.4]);
		expect(niceTicks(0)).toEqual([0]);
	});
	it('time ticks are evenly spaced and include both ends', () => {
		expect(timeTicks(0, 100, 4)).toEqual([0, 25, 50, 75, 100]);
	});
	it('paths join the points, steps hold the previous value', () => {
		expect(linePath([0, 10, 20], [5, 6, 7])).toBe('M0 5L10 6L20 7');
		expect(linePath([0, 10], [5, 6], true)).toBe('M0 5L10 5L10 6');
		expect(linePath([], [])).toBe('');
	});
	it('nearestIndex finds the closest value, ties to the earlier', () => {
		const xs = [0, 10, 20, 30];
		expect(nearestIndex(xs, -5)).toBe(0);
		expect(nearestIndex(xs, 14)).toBe(1);
		expect(nearestIndex(xs, 15)).toBe(1);
		expect(nearestIndex(xs, 16)).toBe(2);
		expect(nearestIndex(xs, 99)).toBe(3);
		expect(nearestIndex([], 1)).toBe(-1);
	});
});
