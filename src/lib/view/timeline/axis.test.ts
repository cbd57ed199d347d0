import { describe, expect, it } from 'vitest';
import { axisTicks, buildAxis, cToTime, formatGap, HOUR, MINUTE, DAY, mergeIntervals, timeToC, timeToCMapper } from './axis.ts';

const T = Date.UTC(2026, 5, 10, 13, 0, 0);

describe('formatGap', () => {
	it('labels durations the way the broken axis shows them', () => {
		expect(formatGap(25 * MINUTE)).toBe('25 min');
		expect(formatGap(3 * HOUR + 10 * MINUTE)).toBe('3 h');
		expect(formatGap(DAY)).toBe('1 day');
		expect(formatGap(2 * DAY + HOUR)).toBe('2 days');
		expect(formatGap(7 * DAY)).toBe('1 week');
		expect(formatGap(21 * DAY)).toBe('3 weeks');
		expect(formatGap(60 * DAY)).toBe('2 months');
	});
});

describe('mergeIntervals', () => {
	it('sorts and merges overlapping and touching spans', () => {
		expect(mergeIntervals([[5, 6], [0, 2], [2, 3], [1, 1.5], [8, 7]])).toEqual([[0, 3], [5, 6], [7, 8]]);
	});
});

describe('buildAxis', () => {
	it('is empty without activity', () => {
		expect(buildAxis([])).toEqual({ pieces: [], t0: 0, t1: 0, width: 0 });
	});

	it('keeps gaps under 20 minutes as real time', () => {
		const axis = buildAxis([[T, T + 10 * MINUTE], [T + 29 * MINUTE, T + 30 * MINUTE]]);
		expect(axis.pieces).toHaveLength(1);
		expect(axis.pieces[0].collapsed).toBe(false);
		expect(axis.width).toBe(axis.t1 - axis.t0);
	});

	it('collapses a stretch of 20 minutes or more into a labelled break narrower than the activity', () => {
		const axis = buildAxis([[T, T + 10 * MINUTE], [T + 10 * MINUTE + 3 * HOUR, T + 3 * HOUR + 20 * MINUTE]]);
		expect(axis.pieces.map((p) => p.collapsed)).toEqual([false, true, false]);
		const gap = axis.pieces[1];
		expect(gap.label).toBe('3 h');
		const active = axis.pieces[0].c1 - axis.pieces[0].c0 + (axis.pieces[2].c1 - axis.pieces[2].c0);
		expect(gap.c1 - gap.c0).toBeCloseTo(0.08 * active, 6);
		// active pieces keep real scale
		expect(axis.pieces[2].c1 - axis.pieces[2].c0).toBe(axis.pieces[2].t1 - axis.pieces[2].t0);
		expect(axis.width).toBeLessThan(30 * MINUTE);
	});

	it('collapses exactly at the 20-minute threshold and not below it', () => {
		const at = buildAxis([[T, T], [T + 20 * MINUTE, T + 20 * MINUTE]]);
		const below = buildAxis([[T, T], [T + 20 * MINUTE - 1, T + 20 * MINUTE - 1]]);
		expect(at.pieces.some((p) => p.collapsed)).toBe(true);
		expect(below.pieces.some((p) => p.collapsed)).toBe(false);
	});

	it('caps the total width of many breaks', () => {
		const spans: [number, number][] = Array.from({ length: 50 }, (_, i) => [T + i * DAY, T + i * DAY + 10 * MINUTE]);
		const axis = buildAxis(spans);
		const gaps = axis.pieces.filter((p) => p.collapsed);
		expect(gaps).toHaveLength(49);
		const gapTotal = gaps.reduce((s, p) => s + p.c1 - p.c0, 0);
		const active = axis.width - gapTotal;
		expect(gapTotal).toBeCloseTo(0.3 * active, 6);
	});

	it('with collapse off, keeps one real-time piece', () => {
		const axis = buildAxis([[T, T + MINUTE], [T + 5 * HOUR, T + 5 * HOUR]], { collapse: false });
		expect(axis.pieces).toHaveLength(1);
		expect(axis.width).toBe(axis.t1 - axis.t0);
	});

	it('gives a lone point a non-zero width', () => {
		const axis = buildAxis([[T, T]]);
		expect(axis.width).toBeGreaterThan(0);
		expect(axis.t0).toBeLessThan(T);
		expect(axis.t1).toBeGreaterThan(T);
	});
});

describe('timeToC / cToTime', () => {
	const axis = buildAxis([[T, T + 10 * MINUTE], [T + 2 * DAY, T + 2 * DAY + 10 * MINUTE]]);

	it('are monotonic and inverse of each other across pieces and outside the domain', () => {
		let prev = -Infinity;
		for (let t = axis.t0 - HOUR; t <= axis.t1 + HOUR; t += 7 * MINUTE + 13) {
			const c = timeToC(axis, t);
			expect(c).toBeGreaterThanOrEqual(prev);
			prev = c;
			expect(cToTime(axis, c)).toBeCloseTo(t, 3);
		}
	});

	it('maps the domain to [0, width]', () => {
		expect(timeToC(axis, axis.t0)).toBe(0);
		expect(timeToC(axis, axis.t1)).toBeCloseTo(axis.width, 6);
	});

	it('puts the second cluster right after the narrow break', () => {
		const gap = axis.pieces[1];
		expect(timeToC(axis, T + 2 * DAY)).toBeCloseTo(gap.c1 + (T + 2 * DAY - axis.pieces[2].t0), 6);
		expect(gap.label).toBe('2 days');
	});
});

describe('axisTicks', () => {
	it('puts round-time ticks in visible active pieces only, with date labels at midnight', () => {
		const axis = buildAxis([[Date.UTC(2026, 5, 10, 23, 0), Date.UTC(2026, 5, 11, 1, 0)], [Date.UTC(2026, 5, 14, 9, 0), Date.UTC(2026, 5, 14, 9, 30)]]);
		const ticks = axisTicks(axis, 0, axis.width, 12, 0);
		expect(ticks.length).toBeGreaterThan(2);
		expect(ticks.length).toBeLessThanOrEqual(14);
		for (const tk of ticks) {
			const piece = axis.pieces.find((p) => tk.t >= p.t0 && tk.t <= p.t1);
			expect(piece?.collapsed).toBe(false);
			expect(tk.c).toBeCloseTo(timeToC(axis, tk.t), 6);
		}
		const midnight = ticks.find((tk) => tk.t === Date.UTC(2026, 5, 11));
		expect(midnight).toMatchObject({ major: true, label: 'Jun 11' });
		expect(ticks.find((tk) => tk.t === Date.UTC(2026, 5, 11, 0, 30))?.label).toBe('00:30');
	});

	it('honours the local offset', () => {
		const axis = buildAxis([[Date.UTC(2026, 0, 1, 10, 0), Date.UTC(2026, 0, 1, 12, 0)]]);
		const ticks = axisTicks(axis, 0, axis.width, 3, 120);
		expect(ticks.map((t) => t.label)).toEqual(['12:00', '13:00', '14:00']);
	});

	it('takes the offset per instant (daylight saving)', () => {
		const axis = buildAxis([[Date.UTC(2026, 0, 1, 10, 0), Date.UTC(2026, 0, 1, 12, 0)]]);
		const ticks = axisTicks(axis, 0, axis.width, 3, (t) => (t >= Date.UTC(2026, 0, 1, 11, 0) ? 60 : 0));
		expect(ticks.map((t) => t.label)).toEqual(['10:00', '12:00', '13:00']);
	});

	it('uses finer steps when zoomed in', () => {
		const axis = buildAxis([[T, T + HOUR]]);
		const c = timeToC(axis, T + 10 * MINUTE);
		const ticks = axisTicks(axis, c, c + 2 * MINUTE, 5, 0);
		expect(ticks.map((t) => t.label)).toEqual(['13:10:00', '13:10:30', '13:11:00', '13:11:30', '13:12:00']);
	});
});

describe('timeToCMapper', () => {
	it('maps exactly like timeToC, in any order of times', () => {
		const axis = buildAxis([[T, T + 10 * MINUTE], [T + 3 * HOUR, T + 3 * HOUR + MINUTE], [T + DAY, T + DAY + 5 * MINUTE], [T + 2 * DAY, T + 2 * DAY]]);
		const ts = [T - HOUR, ...axis.pieces.flatMap((p) => [p.t0, p.t1, (p.t0 + p.t1) / 2]), T + 3 * DAY];
		const toC = timeToCMapper(axis);
		for (const t of [...ts, ...ts.slice().reverse(), ...ts.map((_, i) => ts[(i * 7) % ts.length])]) expect(toC(t)).toBe(timeToC(axis, t));
		expect(timeToCMapper(buildAxis([]))(T)).toBe(0);
	});
});
