// View state of one mounted timeline and the input that changes it: the visible window (zoom /
// pan by wheel, pinch, drag, buttons, keys), keyboard focus, the hovered item and its tooltip,
// and everything derived for drawing. The math lives in geometry.ts, axis-marks.ts, input.ts
// and labels.ts; this class only holds state and applies them. Layout data is never proxied:
// it is read through the input getters, and derived values are plain objects and typed arrays.

import { untrack } from 'svelte';
import { axisTicks, type TimelineBar, type TimelineDot, type TimelineLayout } from '$lib/view/timeline/index.ts';
import { breakAt, breakMarks, tickLabelMask } from './axis-marks.ts';
import { accentBars, clampView, drawModel, fullView, geometryOf, METRICS, reveal, targetAt, zoomAt, type Target, type View } from './geometry.ts';
import { dragView, keyAction, wheelView } from './input.ts';
import { barLabel, localTz, tooltipOf, type Hover } from './labels.ts';

/** What the component passes in: its props, read through getters so they stay reactive. */
export interface TimelineInput {
	layout: () => TimelineLayout;
	highlight: () => string | null;
	onBarClick: (bar: TimelineBar) => void;
	onDotClick: (dot: TimelineDot) => void;
	/** One more tooltip line for a bar (its cost and tokens), when known. */
	barNote?: (bar: TimelineBar) => string | null;
}

/** Bars (and dots) a task adds to a new layout's detailed draw: ~200 of each were ~15–30 ms of
 *  element creation on this machine, where all 800 of each were one 60 ms task, and in a slow
 *  hour a 51 ms task 107 ms after a 100 MB session's ready (bench --case session --profile:
 *  element creation and attributes); 100 a task halves it. A big layout's first slice is smaller
 *  still: it shares its task with the timeline's own mount (axis, lanes), which with 200 was a
 *  63–75 ms task after that session's ready (bench --profile). */
export const DETAIL_SLICE = 100;
export const FIRST_DETAIL_SLICE = 50;
/** A layout of this many bars or fewer is drawn whole at once, as before there were slices. With
 *  200, a 100 MB session's 196 bars and dots (428 elements) were drawn whole in the ResizeObserver
 *  callback of the plot's first width, 22–34 ms inside the browser's rendering step, whose layout
 *  made the frame one 57–76 ms task after ready. */
export const WHOLE_DRAW_MAX = 100;

/** Pointer movement (px) before a press becomes a drag instead of a click. */
const DRAG_THRESHOLD_PX = 4;

export class TimelineView {
	readonly #in: TimelineInput;

	/** Plot width in px (bound to the plot element's clientWidth through setWidth). */
	plotW = $state(600);
	/** Whether plotW holds the plot's real width: nothing width-dependent is drawn before, so the
	 *  first render is not done twice (at the 600 px default, then at the real width). */
	measured = $state(false);
	/** Visible window of the compressed axis; the whole axis again whenever the layout changes. */
	view: View = $derived(fullView(this.layout));
	/** Index of the keyboard-focused bar; cleared when the layout changes. */
	focusBar: number | null = $derived.by(() => {
		void this.layout;
		return null;
	});
	/** Hovered (or keyboard-focused) item with its tooltip anchor; cleared when the layout changes. */
	hover: Hover | null = $derived.by(() => {
		void this.layout;
		return null;
	});
	/** Last focus move, for the aria-live region. */
	announce = $state('');

	/** Plot x of compressed coordinate c. */
	x = (c: number): number => (c - this.view.c0) * this.k;
	/** Plot y of the top of lane i. */
	laneTop = (lane: number): number => METRICS.axisH + lane * METRICS.laneH;

	readonly geom = $derived(geometryOf(this.layout));
	/** Pixels per compressed unit. */
	readonly k = $derived(Math.max(1, this.plotW) / Math.max(1e-9, this.view.c1 - this.view.c0));
	readonly svgH = $derived(METRICS.axisH + Math.max(1, this.layout.lanes.length) * METRICS.laneH);
	readonly draw = $derived(drawModel(this.layout, this.geom, this.view, this.plotW, METRICS));
	/** How many bars and how many dots of the detailed draw are on screen: a new layout's first
	 *  draw adds them FIRST_DETAIL_SLICE, then DETAIL_SLICE a task (growDetail), so up to 800 bars
	 *  and as many dots are not one 60 ms task after a big session's ready; a zoom or
	 *  pan later draws at once. */
	detailLimit: number = $derived.by(() => {
		// A refresh of the same session (a followed folder's append: same first segment) keeps what
		// is drawn, so its bars do not vanish and come back; another session starts a slice again.
		const first = this.layout.bars[0]?.segmentId ?? null;
		const kept = untrack(() => (first !== null && first === this.#drawn.first ? this.#drawn.limit : 0));
		const start = this.layout.bars.length <= WHOLE_DRAW_MAX ? WHOLE_DRAW_MAX : FIRST_DETAIL_SLICE;
		this.#drawn = { first, limit: Math.max(start, kept) };
		return this.#drawn.limit;
	});
	/** What detailLimit last allowed, and for which session (its first segment); not drawn. */
	#drawn: { first: string | null; limit: number } = { first: null, limit: 0 };
	readonly shownBars = $derived(this.draw.barIdx.length > this.detailLimit ? this.draw.barIdx.slice(0, this.detailLimit) : this.draw.barIdx);
	readonly shownDots = $derived(this.draw.dotIdx.length > this.detailLimit ? this.draw.dotIdx.slice(0, this.detailLimit) : this.draw.dotIdx);
	/** Every element of the draw is on screen. */
	readonly detailDone = $derived(Math.max(this.draw.barIdx.length, this.draw.dotIdx.length) <= this.detailLimit);
	readonly ticks = $derived(axisTicks(this.layout.axis, this.view.c0, this.view.c1, Math.max(2, Math.floor(this.plotW / 90)), localTz));
	readonly breaks = $derived(breakMarks(this.layout.axis.pieces, this.view, this.x));
	readonly tickLabels = $derived(tickLabelMask(this.ticks, this.breaks, this.x, this.plotW));
	readonly accent = $derived(accentBars(this.layout.bars, this.highlight, this.focusBar));
	readonly tooltip = $derived.by(() => {
		const tip = tooltipOf(this.layout, this.hover, this.plotW);
		const bar = tip && this.hover?.kind === 'bar' ? this.layout.bars[this.hover.index] : null;
		const note = bar ? this.#in.barNote?.(bar) : null;
		return tip && note ? { ...tip, lines: [...tip.lines, note] } : tip;
	});

	// Gesture bookkeeping: not drawn, so not reactive.
	#pointers = new Map<number, number>();
	#drag: { x: number; view: View; moved: boolean; target: EventTarget | null } | null = null;
	#pinch: { dist: number; view: View; anchor: number } | null = null;

	constructor(input: TimelineInput) {
		this.#in = input;
		// Follow the chat: when the highlighted segment is out of view, bring it in (no zoom change).
		$effect(() => {
			const id = this.highlight;
			if (!id) return;
			const bar = this.layout.bars.find((b) => b.segmentId === id);
			if (bar) untrack(() => this.#revealBar(bar.index));
		});
	}

	get layout(): TimelineLayout {
		return this.#in.layout();
	}
	get highlight(): string | null {
		return this.#in.highlight();
	}

	/** One more slice of the detailed draw (the component calls it a task apart until detailDone). */
	growDetail(): void {
		this.detailLimit += DETAIL_SLICE;
		this.#drawn.limit = this.detailLimit;
	}

	/** Whether the first draw is a big one of elements (more bars than a slice, few enough to be
	 *  elements at the whole view): its first width is applied a task after it is observed. */
	get bigFirstDraw(): boolean {
		const n = this.layout.bars.length;
		return !this.measured && n > WHOLE_DRAW_MAX && n <= METRICS.detailMax;
	}

	/** The plot element's width (its clientWidth binding). */
	setWidth(w: number): void {
		this.plotW = w;
		this.measured = true;
	}

	// ── zoom & pan: a tooltip is anchored to where its item was drawn, so any view change drops it
	zoom(factor: number, anchor = (this.view.c0 + this.view.c1) / 2): void {
		this.view = zoomAt(this.view, factor, anchor, this.layout.axis.width);
		this.hover = null;
	}
	fit(): void {
		this.view = fullView(this.layout);
		this.hover = null;
	}
	setView(v: View): void {
		this.view = clampView(v, this.layout.axis.width);
		this.hover = null;
	}
	#revealBar(i: number): void {
		this.view = reveal(this.view, this.geom.barC0[i], this.geom.barC1[i], this.layout.axis.width);
	}

	/** Attachment for the svg: wheel zooms / pans (a non-passive listener, so the page stays put). */
	wheel = (el: Element) => {
		const onWheel = (e: Event) => {
			const w = e as WheelEvent;
			w.preventDefault();
			this.hover = null;
			const x = w.clientX - el.getBoundingClientRect().left;
			this.view = wheelView(this.view, w, x, this.plotW, this.layout.axis.width);
		};
		el.addEventListener('wheel', onWheel, { passive: false });
		return () => el.removeEventListener('wheel', onWheel);
	};

	// ── pointer (handlers of the svg: currentTarget is the svg) ─────────────────
	/** Bar / dot / break under a point: the element's own data first, then geometry. */
	#pick(target: EventTarget | null, x: number, y: number): Target | null {
		const el = (target as Element | null)?.closest?.('[data-dot-index],[data-bar-index],[data-break-bands]');
		const d = (el as HTMLElement | SVGElement | null | undefined)?.dataset;
		if (d?.dotIndex !== undefined) return { kind: 'dot', index: Number(d.dotIndex) };
		if (d?.barIndex !== undefined) return { kind: 'bar', index: Number(d.barIndex) };
		if (d?.breakBands !== undefined) {
			const i = breakAt(this.breaks, this.x, x);
			if (i !== null) return { kind: 'break', index: i };
		}
		return targetAt(this.layout, this.geom, this.view, this.plotW, METRICS, x, y);
	}

	#activate(hit: Target | null): void {
		if (hit?.kind === 'dot') {
			const dot = this.layout.dots[hit.index];
			if (!dot) return;
			this.focusBar = dot.bar;
			this.#in.onDotClick(dot);
		} else if (hit?.kind === 'bar') {
			const bar = this.layout.bars[hit.index];
			if (!bar) return;
			this.focusBar = bar.index;
			this.#in.onBarClick(bar);
		}
	}

	pointerDown = (e: PointerEvent) => {
		if (e.pointerType === 'mouse' && e.button !== 0) return;
		const { x } = localPoint(e);
		// A primary pointer starts a fresh gesture: forget pointers whose "up" happened elsewhere.
		if (e.isPrimary) this.#pointers.clear();
		this.#pointers.set(e.pointerId, x);
		if (this.#pointers.size === 1) {
			this.#drag = { x: e.clientX, view: this.view, moved: false, target: e.target };
		} else if (this.#pointers.size === 2) {
			const [a, b] = [...this.#pointers.values()];
			const view = this.view;
			this.#pinch = { dist: Math.max(1, Math.abs(a - b)), view, anchor: view.c0 + (a + b) / 2 / this.k };
			this.#drag = null;
		}
	};

	pointerMove = (e: PointerEvent) => {
		const p = localPoint(e);
		if (this.#pointers.has(e.pointerId)) this.#pointers.set(e.pointerId, p.x);
		const pinch = this.#pinch;
		if (pinch && this.#pointers.size === 2) {
			const [a, b] = [...this.#pointers.values()];
			this.view = zoomAt(pinch.view, pinch.dist / Math.max(1, Math.abs(a - b)), pinch.anchor, this.layout.axis.width);
			return;
		}
		const drag = this.#drag;
		if (drag) {
			const dx = e.clientX - drag.x;
			if (!drag.moved && Math.abs(dx) > DRAG_THRESHOLD_PX) {
				drag.moved = true;
				this.hover = null;
				(e.currentTarget as Element | null)?.setPointerCapture?.(e.pointerId);
			}
			if (drag.moved) {
				this.view = dragView(drag.view, dx, this.plotW, this.layout.axis.width);
				return;
			}
		}
		const hit = this.#pick(e.target, p.x, p.y);
		this.hover = hit ? { ...hit, x: p.x, y: p.y } : null;
	};

	/** Also the pointercancel handler: only a real "up" without a drag is a click. */
	pointerUp = (e: PointerEvent) => {
		const wasDrag = this.#drag;
		this.#pointers.delete(e.pointerId);
		if (this.#pointers.size < 2) this.#pinch = null;
		this.#drag = null;
		if (wasDrag && !wasDrag.moved && e.type === 'pointerup') {
			const p = localPoint(e);
			const hit = this.#pick(wasDrag.target, p.x, p.y);
			// A finger has no hover: a tap shows the tooltip a pointer would have shown (and lands).
			if (e.pointerType === 'touch') this.hover = hit ? { ...hit, x: p.x, y: p.y } : null;
			this.#activate(hit);
		}
	};

	pointerLeave = (e: PointerEvent) => {
		// A lifted finger "leaves" too: keep the tooltip its tap opened until the next gesture.
		if (e.pointerType !== 'touch') this.hover = null;
		// Without capture (no drag yet) the "up" may happen outside: end the gesture here.
		if (!this.#drag?.moved) {
			this.#pointers.delete(e.pointerId);
			this.#drag = null;
			if (this.#pointers.size < 2) this.#pinch = null;
		}
	};

	// ── keyboard ────────────────────────────────────────────────────────────────
	#moveFocus(i: number | null): void {
		const bar = i === null ? undefined : this.layout.bars[i];
		if (!bar) return;
		this.focusBar = bar.index;
		this.#revealBar(bar.index);
		this.announce = barLabel(bar);
		// Sighted keyboard users get the same tooltip a pointer would show.
		const y = this.laneTop(bar.lane) + METRICS.barY + METRICS.barH;
		this.hover = { kind: 'bar', index: bar.index, x: Math.max(0, this.x(this.geom.barC0[bar.index])), y };
	}

	keyDown = (e: KeyboardEvent) => {
		const a = keyAction(e.key, e.shiftKey, this.layout, this.geom, this.view, this.focusBar);
		if (!a) return;
		if (a.kind === 'focus') this.#moveFocus(a.index);
		else if (a.kind === 'open-bar') this.#in.onBarClick(this.layout.bars[a.index]);
		else if (a.kind === 'open-dot') this.#in.onDotClick(this.layout.dots[a.index]);
		else if (a.kind === 'zoom') this.zoom(a.factor, a.anchor);
		else if (a.kind === 'fit') this.fit();
		else {
			this.focusBar = null;
			this.hover = null;
		}
		e.preventDefault();
	};
}

/** Event position relative to the element the handler is on (the svg). */
function localPoint(e: PointerEvent): { x: number; y: number } {
	const r = (e.currentTarget as Element).getBoundingClientRect();
	return { x: e.clientX - r.left, y: e.clientY - r.top };
}
