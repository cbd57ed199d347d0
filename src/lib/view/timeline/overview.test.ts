import { describe, expect, it } from 'vitest';
import { HOUR, DAY, MINUTE } from './axis.ts';
import { LABEL_PX, layoutOverview, overviewMarks } from './overview.ts';

const T0 = Date.UTC(2026, 6, 1);
const entry = (key: string, start: number, minutes: number) => ({ key, title: key, startedAt: T0 + start, endedAt: T0 + start + minutes * MINUTE });

describe('layoutOverview', () => {
	it('one row per timed session, in the given order, on one shared axis with idle between them collapsed', () => {
		const o = layoutOverview([entry('b', 3 * DAY, 30), entry('a', 0, 60), { key: 'none', title: 'none', startedAt: null, endedAt: null }]);
		expect(o.rows.map((r) => r.key)).toEqual(['b', 'a']);
		expect(o.untimed).toBe(1);
		expect(o.rows[1].c0).toBeLessThan(o.rows[0].c0);
		// Active time keeps its length; the three days between the sessions became a short break.
		expect(o.rows[1].c1 - o.rows[1].c0).toBe(60 * MINUTE);
		expect(o.rows[0].c1 - o.rows[0].c0).toBe(30 * MINUTE);
		expect(o.rows[0].c0 - o.rows[1].c1).toBeLessThan(DAY);
		expect(o.axis.pieces.some((p) => p.collapsed && p.label === '3 days')).toBe(true);
	});
});

describe('overviewMarks', () => {
	// Hundreds of short sessions a few hours apart: hundreds of breaks.
	const many = Array.from({ length: 400 }, (_, i) => entry(`s${i}`, i * 5 * HOUR, 10));
	const o = layoutOverview(many);

	it('merges breaks closer than a label into one mark, so no two labels overlap when zoomed out', () => {
		const { breaks, ticks } = overviewMarks(o.axis, 0, o.axis.width, 800);
		expect(o.axis.pieces.filter((p) => p.collapsed).length).toBeGreaterThan(300);
		expect(breaks.length).toBeLessThan(800 / LABEL_PX + 2);
		expect(breaks.reduce((n, b) => n + b.gaps, 0)).toBe(o.axis.pieces.filter((p) => p.collapsed).length);
		expect(breaks.some((b) => b.gaps > 1 && /^×\d+ · /.test(b.label))).toBe(true);
		const xs = [...breaks.map((b) => b.x0), ...ticks.map((t) => t.x)].sort((a, b) => a - b);
		for (let i = 1; i < xs.length; i++) expect(xs[i] - xs[i - 1]).toBeGreaterThanOrEqual(LABEL_PX - 1e-6);
	});

	it('zoomed into one session, the breaks go and second-level ticks appear', () => {
		const r = o.rows[10];
		const { breaks, ticks } = overviewMarks(o.axis, r.c0, r.c0 + 30_000, 800);
		expect(breaks).toEqual([]);
		expect(ticks.length).toBeGreaterThan(2);
		expect(ticks.some((t) => /:\d\d$/.test(t.label))).toBe(true);
	});
});
