// Vitest runs these in its node environment, where rune modules are compiled for the server:
// effects do not run and deriveds are recomputed on every read. So this covers the imperative
// side (input handling, zoom, focus, clicks); the reactive wiring (reset on a new layout,
// following the chat's highlight) is exercised in the browser by tests/e2e/timeline.spec.ts.
import { describe, expect, it, vi } from 'vitest';
import { layoutTimeline, syntheticLayoutInput } from '$lib/view/timeline/index.ts';
import { fullView, METRICS } from './geometry.ts';
import { DETAIL_SLICE, FIRST_DETAIL_SLICE, TimelineView, WHOLE_DRAW_MAX } from './TimelineView.svelte.ts';

const small = layoutTimeline(syntheticLayoutInput(60, { lanes: 2 }));

function mount() {
	const onBarClick = vi.fn();
	const onDotClick = vi.fn();
	const tv = new TimelineView({ layout: () => small, highlight: () => null, onBarClick, onDotClick });
	tv.plotW = 600;
	return { tv, onBarClick, onDotClick };
}

// Fake DOM events: the svg sits at the page origin, so client and plot coordinates agree.
const svg = { getBoundingClientRect: () => ({ left: 0, top: 0 }), setPointerCapture: vi.fn() };
function pointer(type: string, x: number, y: number, extra: Record<string, unknown> = {}): PointerEvent {
	return { type, clientX: x, clientY: y, pointerId: 1, pointerType: 'mouse', button: 0, isPrimary: true, target: null, currentTarget: svg, ...extra } as unknown as PointerEvent;
}
function key(k: string, shiftKey = false) {
	return { key: k, shiftKey, preventDefault: vi.fn() } as unknown as KeyboardEvent & { preventDefault: ReturnType<typeof vi.fn> };
}
/** Plot point at the middle of bar i. */
function barPoint(tv: TimelineView, i: number): [number, number] {
	const x = tv.x((tv.geom.barC0[i] + tv.geom.barC1[i]) / 2);
	return [x, tv.laneTop(tv.layout.bars[i].lane) + METRICS.barY + 2];
}

describe('TimelineView', () => {
	it('starts on the whole axis, drawn as elements when it holds few bars', () => {
		const { tv } = mount();
		expect(tv.view).toEqual(fullView(small));
		expect(tv.draw.detailed).toBe(true);
		expect(tv.svgH).toBe(METRICS.axisH + 2 * METRICS.laneH);
	});

	it('applies the first width later only for a big first draw of elements', () => {
		const view = (n: number) => new TimelineView({ layout: () => layoutTimeline(syntheticLayoutInput(n, { lanes: 3 })), highlight: () => null, onBarClick: vi.fn(), onDotClick: vi.fn() });
		expect(mount().tv.bigFirstDraw).toBe(false);
		const big = view(700);
		expect(big.layout.bars.length).toBeGreaterThan(WHOLE_DRAW_MAX);
		expect(big.bigFirstDraw).toBe(true);
		big.setWidth(640);
		expect(big.bigFirstDraw).toBe(false);
		// A 100 MB session's ~200 bars too: drawn whole, they were one long task after its ready.
		const medium = view(196);
		expect(medium.layout.bars.length).toBeGreaterThan(WHOLE_DRAW_MAX);
		expect(medium.bigFirstDraw).toBe(true);
		// Thousands of segments are drawn as paths: nothing to spread.
		const paths = view(5000);
		expect(paths.layout.bars.length).toBeGreaterThan(METRICS.detailMax);
		expect(paths.bigFirstDraw).toBe(false);
	});

	it('draws a big layout\'s elements a slice at a time, all of them once grown', () => {
		const big = layoutTimeline(syntheticLayoutInput(700, { lanes: 3 }));
		const tv = new TimelineView({ layout: () => big, highlight: () => null, onBarClick: vi.fn(), onDotClick: vi.fn() });
		tv.plotW = 600;
		expect(tv.draw.detailed).toBe(true);
		const all = Math.max(tv.draw.barIdx.length, tv.draw.dotIdx.length);
		expect(all).toBeGreaterThan(2 * DETAIL_SLICE);
		expect(tv.shownBars).toEqual(tv.draw.barIdx.slice(0, FIRST_DETAIL_SLICE));
		expect(tv.detailDone).toBe(false);
		let grown = 0;
		while (!tv.detailDone) {
			tv.growDetail();
			grown++;
		}
		expect(grown).toBe(Math.ceil((all - FIRST_DETAIL_SLICE) / DETAIL_SLICE));
		expect(tv.shownBars).toEqual(tv.draw.barIdx);
		expect(tv.shownDots).toEqual(tv.draw.dotIdx);
		// A small layout is whole from the start.
		expect(mount().tv.detailDone).toBe(true);
	});

	it('zooms and fits from the buttons, dropping the tooltip', () => {
		const { tv } = mount();
		tv.hover = { kind: 'bar', index: 0, x: 0, y: 0 };
		tv.zoom(0.5);
		expect(tv.view.c1 - tv.view.c0).toBeCloseTo(small.axis.width / 2, 3);
		expect(tv.hover).toBeNull();
		tv.fit();
		expect(tv.view).toEqual(fullView(small));
		tv.setView({ c0: -100, c1: small.axis.width * 2 });
		expect(tv.view).toEqual({ c0: 0, c1: small.axis.width });
	});

	it('walks bars with the keyboard: focus, announcement, tooltip, Enter opens, Shift+Enter the prompt', () => {
		const { tv, onBarClick, onDotClick } = mount();
		for (const k of ['Home', 'ArrowRight', 'ArrowRight']) tv.keyDown(key(k));
		expect(tv.focusBar).toBe(2);
		expect(tv.announce).toContain(small.bars[2].gist);
		expect(tv.tooltip?.title).toBe(small.bars[2].gist);
		expect(tv.accent.map((a) => a.cls)).toEqual(['focused']);
		const enter = key('Enter');
		tv.keyDown(enter);
		expect(onBarClick).toHaveBeenCalledWith(small.bars[2]);
		expect(enter.preventDefault).toHaveBeenCalled();
		tv.keyDown(key('Enter', true));
		expect(onDotClick).toHaveBeenCalledWith(small.dots[tv.geom.dotOfBar[2]]);
		tv.keyDown(key('Escape'));
		expect([tv.focusBar, tv.hover]).toEqual([null, null]);
		const other = key('q');
		tv.keyDown(other);
		expect(other.preventDefault).not.toHaveBeenCalled();
	});

	it('brings a focused bar into view without zooming', () => {
		const { tv } = mount();
		tv.setView({ c0: 0, c1: small.axis.width / 20 });
		const span = tv.view.c1 - tv.view.c0;
		tv.keyDown(key('Home'));
		tv.keyDown(key('End'));
		const last = small.lanes[0].barEnd - 1;
		expect(tv.view.c1 - tv.view.c0).toBeCloseTo(span, 3);
		expect(tv.view.c0).toBeLessThanOrEqual(tv.geom.barC0[last]);
		expect(tv.view.c1).toBeGreaterThanOrEqual(tv.geom.barC1[last]);
	});

	it('a click on a bar (found from geometry) or a dot (found from its element) opens it', () => {
		const { tv, onBarClick, onDotClick } = mount();
		const [x, y] = barPoint(tv, 4);
		tv.pointerDown(pointer('pointerdown', x, y));
		tv.pointerUp(pointer('pointerup', x, y));
		expect(onBarClick).toHaveBeenCalledWith(small.bars[4]);
		expect(tv.focusBar).toBe(4);
		const dotEl = { closest: () => ({ dataset: { dotIndex: '6' } }) };
		tv.pointerDown(pointer('pointerdown', 0, 0, { target: dotEl }));
		tv.pointerUp(pointer('pointerup', 0, 0, { target: dotEl }));
		expect(onDotClick).toHaveBeenCalledWith(small.dots[6]);
		expect(tv.focusBar).toBe(small.dots[6].bar);
	});

	it('hovering shows a tooltip; leaving drops it', () => {
		const { tv } = mount();
		const [x, y] = barPoint(tv, 4);
		tv.pointerMove(pointer('pointermove', x, y));
		expect(tv.hover).toMatchObject({ kind: 'bar', index: 4, x, y });
		expect(tv.tooltip?.title).toBe(small.bars[4].gist);
		tv.pointerLeave(pointer('pointerleave', x, y));
		expect(tv.tooltip).toBeNull();
	});

	it('a tap with a finger lands and shows the tooltip, which the lifted finger does not drop', () => {
		const { tv, onBarClick } = mount();
		const [x, y] = barPoint(tv, 4);
		const touch = { pointerType: 'touch' };
		tv.pointerDown(pointer('pointerdown', x, y, touch));
		tv.pointerUp(pointer('pointerup', x, y, touch));
		tv.pointerLeave(pointer('pointerleave', x, y, touch));
		expect(onBarClick).toHaveBeenCalledWith(small.bars[4]);
		expect(tv.tooltip?.title).toBe(small.bars[4].gist);
		// A tap on empty plot clears it again.
		tv.pointerDown(pointer('pointerdown', 1, 1, touch));
		tv.pointerUp(pointer('pointerup', 1, 1, touch));
		expect(tv.tooltip).toBeNull();
	});

	it('a drag pans the view and is not a click; a cancelled press is not a click either', () => {
		const { tv, onBarClick } = mount();
		tv.zoom(0.25);
		const before = tv.view;
		const [x, y] = barPoint(tv, 4);
		tv.pointerDown(pointer('pointerdown', x, y));
		tv.pointerMove(pointer('pointermove', x - 60, y));
		expect(svg.setPointerCapture).toHaveBeenCalled();
		expect(tv.view.c0).toBeCloseTo(before.c0 + (60 * (before.c1 - before.c0)) / 600, 3);
		tv.pointerUp(pointer('pointerup', x - 60, y));
		tv.pointerDown(pointer('pointerdown', x, y));
		tv.pointerUp(pointer('pointercancel', x, y));
		expect(onBarClick).not.toHaveBeenCalled();
	});

	it('the wheel attachment zooms at the pointer and detaches', () => {
		const { tv } = mount();
		const listeners = new Map<string, (e: Event) => void>();
		const el = { ...svg, addEventListener: (t: string, f: (e: Event) => void) => listeners.set(t, f), removeEventListener: (t: string) => listeners.delete(t) };
		const detach = tv.wheel(el as unknown as Element);
		const preventDefault = vi.fn();
		listeners.get('wheel')!({ deltaX: 0, deltaY: -200, deltaMode: 0, shiftKey: false, ctrlKey: false, clientX: 300, preventDefault } as unknown as Event);
		expect(preventDefault).toHaveBeenCalled();
		expect(tv.view.c1 - tv.view.c0).toBeLessThan(small.axis.width);
		detach();
		expect(listeners.size).toBe(0);
	});
});
