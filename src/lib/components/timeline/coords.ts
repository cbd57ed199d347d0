// The timeline's coordinates: every bar, dot and marker on the layout's compressed axis
// (computed once per layout), the zoom / pan window arithmetic, visible-range queries (bars are
// sorted per lane) and the lane anatomy in px (METRICS).
// A "view" is the visible window [c0, c1] of the layout's compressed axis.

import { timeToCMapper, type TimelineLayout } from '$lib/view/timeline/index.ts';

export interface View {
	c0: number;
	c1: number;
}

export interface Geometry {
	barC0: Float64Array;
	barC1: Float64Array;
	dotC: Float64Array;
	subC0: Float64Array;
	subC1: Float64Array;
	idleC0: Float64Array;
	idleC1: Float64Array;
	markerC: Float64Array;
	/** Longest bar per lane (compressed units): bounds the backwards reach of visible-range scans. */
	laneMaxLen: number[];
	/** [start, end) of each lane's dots in layout.dots (sorted by lane, then time). */
	laneDots: [number, number][];
	/** bar index → dot index, or -1. */
	dotOfBar: Int32Array;
}

/** Smallest visible span: two seconds. */
export const MIN_SPAN = 2000;

export function geometryOf(layout: TimelineLayout): Geometry {
	const { axis, bars, dots, subBars, idle, markers, lanes } = layout;
	// Plain loops into typed arrays (no intermediate arrays); the mapper walks the axis pieces.
	const toC = timeToCMapper(axis);
	const cs = <T>(items: readonly T[], at: (x: T) => number): Float64Array => {
		const out = new Float64Array(items.length);
		for (let i = 0; i < items.length; i++) out[i] = toC(at(items[i]));
		return out;
	};
	const [barC0, barC1] = [cs(bars, (b) => b.t0), cs(bars, (b) => b.t1)];
	const dotC = cs(dots, (d) => d.t);
	const [subC0, subC1] = [cs(subBars, (b) => b.t0), cs(subBars, (b) => b.t1)];
	const [idleC0, idleC1] = [cs(idle, (x) => x.t0), cs(idle, (x) => x.t1)];
	const markerC = cs(markers, (m) => m.t);
	const g: Geometry = {
		barC0,
		barC1,
		dotC,
		subC0,
		subC1,
		idleC0,
		idleC1,
		markerC,
		laneMaxLen: lanes.map(() => 0),
		laneDots: lanes.map(() => [0, 0] as [number, number]),
		dotOfBar: new Int32Array(bars.length).fill(-1)
	};
	for (let i = 0; i < bars.length; i++) {
		const lane = bars[i].lane;
		g.laneMaxLen[lane] = Math.max(g.laneMaxLen[lane], barC1[i] - barC0[i]);
	}
	let i = 0;
	for (const lane of lanes) {
		const start = i;
		while (i < dots.length && dots[i].lane === lane.index) i++;
		g.laneDots[lane.index] = [start, i];
	}
	for (let di = 0; di < dots.length; di++) {
		const b = dots[di].bar;
		if (g.dotOfBar[b] === -1) g.dotOfBar[b] = di;
	}
	return g;
}

export function fullView(layout: TimelineLayout): View {
	return { c0: 0, c1: Math.max(layout.axis.width, MIN_SPAN) };
}

/** Keeps the window inside [0, width] and its span within [MIN_SPAN, width]. */
export function clampView(v: View, width: number): View {
	const total = Math.max(width, MIN_SPAN);
	const span = Math.min(total, Math.max(MIN_SPAN, v.c1 - v.c0));
	let c0 = Math.min(Math.max(0, v.c0), total - span);
	if (!Number.isFinite(c0)) c0 = 0;
	return { c0, c1: c0 + span };
}

/** Zooms by `factor` (< 1 zooms in) keeping compressed coordinate `anchor` at the same place. */
export function zoomAt(v: View, factor: number, anchor: number, width: number): View {
	const f = Number.isFinite(factor) && factor > 0 ? factor : 1;
	return clampView({ c0: anchor - (anchor - v.c0) * f, c1: anchor + (v.c1 - anchor) * f }, width);
}

export function panBy(v: View, dc: number, width: number): View {
	return clampView({ c0: v.c0 + dc, c1: v.c1 + dc }, width);
}

/** The window moved (not zoomed) so [c0, c1] is inside it, or unchanged if it already is. */
export function reveal(v: View, c0: number, c1: number, width: number): View {
	const span = v.c1 - v.c0;
	if (c0 >= v.c0 && c1 <= v.c1) return v;
	const mid = c1 - c0 < span ? (c0 + c1) / 2 - span / 2 : c0 - span * 0.05;
	return clampView({ c0: mid, c1: mid + span }, width);
}

/** [start, end) of a lane's bars that intersect [v0, v1] (bars sorted by start within a lane). */
export function visibleBars(layout: TimelineLayout, g: Geometry, lane: number, v0: number, v1: number): [number, number] {
	const { barStart, barEnd } = layout.lanes[lane];
	const lo = lowerBound(g.barC0, barStart, barEnd, v0 - g.laneMaxLen[lane]);
	const hi = lowerBound(g.barC0, lo, barEnd, v1 + 1e-9);
	let start = lo;
	while (start < hi && g.barC1[start] < v0) start++;
	return [start, hi];
}

/** First index in [lo, hi) whose value is ≥ x (arr sorted ascending in that range). */
export function lowerBound(arr: Float64Array, lo: number, hi: number, x: number): number {
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (arr[mid] < x) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** Pixel anatomy of a lane (the values in METRICS). */
export interface LaneMetrics {
	axisH: number;
	laneH: number;
	dotY: number;
	dotR: number;
	barY: number;
	barH: number;
	minBarW: number;
	/** At most this many bars in view are drawn as individual elements. */
	detailMax: number;
}

/**
 * The timeline's lane anatomy, in px. The prompt dot sits above the start of its bar (a pin), so a
 * short bar is never hidden under its dot and both stay clickable; sub-bars run under the bar.
 * Above 800 bars in view, bars and dots are drawn as paths (one per lane) instead of elements.
 */
export const METRICS: LaneMetrics = { axisH: 22, laneH: 32, dotY: 8, dotR: 4.5, barY: 14, barH: 10, minBarW: 2, detailMax: 800 };
