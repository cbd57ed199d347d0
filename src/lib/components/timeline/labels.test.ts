import { describe, expect, it } from 'vitest';
import { layoutTimeline, syntheticLayoutInput, type TimelineBar } from '$lib/view/timeline/index.ts';
import { barLabel, barSpan, duration, tooltipOf, when } from './labels.ts';

const UTC = () => 0;
const T = Date.UTC(2026, 5, 10, 13, 5, 7);
const layout = layoutTimeline(syntheticLayoutInput(100, { lanes: 2 }));
const bar = (t0: number, t1: number, extra: Partial<TimelineBar> = {}): TimelineBar => ({ ...layout.bars[0], t0, t1, ...extra });

describe('duration', () => {
	it('reads in seconds, minutes, then hours and minutes', () => {
		expect(duration(42_400)).toBe('42 s');
		expect(duration(7 * 60_000)).toBe('7 min');
		expect(duration(2 * 3_600_000)).toBe('2 h');
		expect(duration(65 * 60_000)).toBe('1 h 5 min');
	});
});

describe('time spans', () => {
	it('formats an instant in the given zone, with seconds on request', () => {
		expect(when(T, UTC)).toBe('Jun 10 13:05');
		expect(when(T, () => 120, true)).toBe('Jun 10 15:05:07');
	});

	it('names the end date only when the span crosses midnight', () => {
		expect(barSpan(bar(T, T + 120_000), UTC)).toBe('Jun 10 13:05–13:07 (2 min)');
		expect(barSpan(bar(T, T + 12 * 3_600_000), UTC)).toBe('Jun 10 13:05–Jun 11 01:05 (12 h)');
		expect(barLabel(bar(T, T + 5_000, { gist: 'fix it' }), UTC)).toBe('fix it — Jun 10 13:05–13:05 (5 s)');
	});
});

describe('tooltipOf', () => {
	it('describes a bar: lane, span, author, steps, idle inside', () => {
		const b = layout.bars[3];
		const tip = tooltipOf(layout, { kind: 'bar', index: 3, x: 10, y: 20 }, 800, UTC)!;
		expect(tip).toMatchObject({ x: 10, y: 20, flip: false, title: b.gist });
		expect(tip.lines[0]).toBe(`${layout.lanes[b.lane].label} · ${barSpan(b, UTC)}`);
		expect(tip.lines[1]).toMatch(/^(Human|SDK) · \d+ steps?/);
	});

	it('describes a prompt dot and a collapsed gap, and flips near the right edge', () => {
		const dotIdx = layout.dots.findIndex((d) => d.absorbed);
		const dot = tooltipOf(layout, { kind: 'dot', index: dotIdx, x: 700, y: 0 }, 800, UTC)!;
		expect(dot.flip).toBe(true);
		expect(dot.lines[0]).toMatch(/^Peer message prompt · Jun \d+ \d\d:\d\d:\d\d · sent mid-turn$/);
		const gap = layout.axis.pieces.findIndex((p) => p.collapsed);
		const g = tooltipOf(layout, { kind: 'break', index: gap, x: 0, y: 0 }, 800, UTC)!;
		expect(g.title).toMatch(/without activity$/);
		expect(g.lines[0]).toContain(' – ');
	});

	it('is null with nothing hovered or a stale index', () => {
		expect(tooltipOf(layout, null, 800)).toBeNull();
		expect(tooltipOf(layout, { kind: 'bar', index: 1e6, x: 0, y: 0 }, 800)).toBeNull();
		expect(tooltipOf(layout, { kind: 'dot', index: -1, x: 0, y: 0 }, 800)).toBeNull();
	});
});
