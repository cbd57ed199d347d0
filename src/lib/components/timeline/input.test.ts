import { describe, expect, it } from 'vitest';
import { layoutTimeline, syntheticLayoutInput } from '$lib/view/timeline/index.ts';
import { fullView, geometryOf } from './geometry.ts';
import { dragView, keyAction, wheelView, type WheelStep } from './input.ts';

const layout = layoutTimeline(syntheticLayoutInput(100, { lanes: 2 }));
const geom = geometryOf(layout);
const W = layout.axis.width;
const step = (w: Partial<WheelStep>): WheelStep => ({ deltaX: 0, deltaY: 0, deltaMode: 0, shiftKey: false, ctrlKey: false, ...w });

describe('wheelView', () => {
	const v = { c0: W * 0.4, c1: W * 0.5 };
	const span = v.c1 - v.c0;

	it('zooms around the pointer on a vertical scroll (in with a negative delta)', () => {
		const z = wheelView(v, step({ deltaY: -100 }), 300, 600, W);
		expect(z.c1 - z.c0).toBeCloseTo(span * Math.exp(-0.15), 3);
		expect((v.c0 + span / 2 - z.c0) / (z.c1 - z.c0)).toBeCloseTo(0.5, 6);
		const pinch = wheelView(v, step({ deltaY: -10, ctrlKey: true }), 300, 600, W);
		expect(pinch.c1 - pinch.c0).toBeCloseTo(span * Math.exp(-0.1), 3);
	});

	it('pans on a horizontal or Shift scroll, by pixels converted to the view', () => {
		const p = wheelView(v, step({ deltaX: 60 }), 0, 600, W);
		expect(p.c0 - v.c0).toBeCloseTo((60 * span) / 600, 3);
		const s = wheelView(v, step({ deltaY: 3, deltaMode: 1, shiftKey: true }), 0, 600, W);
		expect(s.c0 - v.c0).toBeCloseTo((48 * span) / 600, 3);
	});
});

describe('dragView', () => {
	it('moves the view with the pointer', () => {
		const v = { c0: W * 0.4, c1: W * 0.5 };
		expect(dragView(v, 60, 600, W).c0).toBeCloseTo(v.c0 - (v.c1 - v.c0) / 10, 3);
	});
});

describe('keyAction', () => {
	const view = fullView(layout);
	const act = (key: string, focus: number | null, shift = false) => keyAction(key, shift, layout, geom, view, focus);
	const l0 = layout.lanes[0];
	const l1 = layout.lanes[1];

	it('starts at the first bar of the first lane and walks along a lane, stopping at its ends', () => {
		expect(act('ArrowRight', null)).toEqual({ kind: 'focus', index: l0.barStart });
		expect(act('Enter', null)).toEqual({ kind: 'focus', index: l0.barStart });
		expect(act('ArrowRight', l0.barStart)).toEqual({ kind: 'focus', index: l0.barStart + 1 });
		expect(act('ArrowLeft', l0.barStart)).toEqual({ kind: 'focus', index: l0.barStart });
		expect(act('ArrowRight', l0.barEnd - 1)).toEqual({ kind: 'focus', index: l0.barEnd - 1 });
		expect(act('End', l1.barStart)).toEqual({ kind: 'focus', index: l1.barEnd - 1 });
		expect(act('Home', l1.barEnd - 1)).toEqual({ kind: 'focus', index: l1.barStart });
	});

	it('moves between lanes to the bar nearest in time, and nowhere past the last lane', () => {
		const down = act('ArrowDown', l0.barStart + 5) as { index: number };
		expect(layout.bars[down.index].lane).toBe(1);
		expect(act('ArrowDown', down.index)).toEqual({ kind: 'focus', index: null });
		expect(layout.bars[(act('ArrowUp', down.index) as { index: number }).index].lane).toBe(0);
	});

	it('opens the focused bar, or its prompt with Shift', () => {
		const i = l0.barStart + 2;
		expect(act('Enter', i)).toEqual({ kind: 'open-bar', index: i });
		expect(act(' ', i, true)).toEqual({ kind: 'open-dot', index: geom.dotOfBar[i] });
	});

	it('zooms around the focused bar (or the middle), fits, clears, ignores other keys', () => {
		const i = l0.barStart + 2;
		expect(act('+', i)).toEqual({ kind: 'zoom', factor: 0.5, anchor: (geom.barC0[i] + geom.barC1[i]) / 2 });
		expect(act('_', null)).toEqual({ kind: 'zoom', factor: 2, anchor: (view.c0 + view.c1) / 2 });
		expect(act('0', i)).toEqual({ kind: 'fit' });
		expect(act('Escape', i)).toEqual({ kind: 'clear' });
		expect(act('x', i)).toBeNull();
		expect(keyAction('Enter', false, { ...layout, bars: [] }, geom, view, null)).toBeNull();
	});
});
