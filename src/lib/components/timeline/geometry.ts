// Drawing geometry for the timeline component, kept out of the .svelte file so it is plain,
// testable TypeScript: compressed coordinates of everything (computed once per layout), the
// zoom / pan window arithmetic, visible-range queries (bars are sorted per lane), hit tests, the
// lane anatomy in px (METRICS) and the draw model of a view (elements or paths).
// A "view" is the visible window [c0, c1] of the layout's compressed axis.

import { timeToCMapper, type TimelineBar, type TimelineLayout } from '$lib/view/timeline/index.ts';

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
	const barC0 = new Float64Array(bars.length);
	const barC1 = new Float64Array(bars.length);
	for (let i = 0; i < bars.length; i++) barC0[i] = toC(bars[i].t0);
	for (let i = 0; i < bars.length; i++) barC1[i] = toC(bars[i].t1);
	const dotC = new Float64Array(dots.length);
	for (let i = 0; i < dots.length; i++) dotC[i] = toC(dots[i].t);
	const subC0 = new Float64Array(subBars.length);
	const subC1 = new Float64Array(subBars.length);
	for (let i = 0; i < subBars.length; i++) subC0[i] = toC(subBars[i].t0);
	for (let i = 0; i < subBars.length; i++) subC1[i] = toC(subBars[i].t1);
	const idleC0 = new Float64Array(idle.length);
	const idleC1 = new Float64Array(idle.length);
	for (let i = 0; i < idle.length; i++) idleC0[i] = toC(idle[i].t0);
	for (let i = 0; i < idle.length; i++) idleC1[i] = toC(idle[i].t1);
	const markerC = new Float64Array(markers.length);
	for (let i = 0; i < markers.length; i++) markerC[i] = toC(markers[i].t);
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

export type Hit = { kind: 'dot'; index: number } | { kind: 'bar'; index: number } | null;

/** Anything with a tooltip: a bar, a prompt dot, or a collapsed axis piece (a "break"). */
export type Target = { kind: 'bar' | 'dot' | 'break'; index: number };

/**
 * What is under compressed coordinate c on a lane: a dot within `dotTol`, else the bar that
 * contains c (or is within `barTol` of it), the nearest one winning.
 */
export function hitTest(
	layout: TimelineLayout,
	g: Geometry,
	lane: number,
	c: number,
	dotTol: number,
	barTol: number,
	what: 'any' | 'dot' | 'bar' = 'any'
): Hit {
	if (lane < 0 || lane >= layout.lanes.length) return null;
	const [d0, d1] = g.laneDots[lane];
	let best = -1;
	let bestDist = Infinity;
	if (what !== 'bar') {
		for (let i = lowerBound(g.dotC, d0, d1, c - dotTol); i < d1 && g.dotC[i] <= c + dotTol; i++) {
			const dist = Math.abs(g.dotC[i] - c);
			if (dist < bestDist) [best, bestDist] = [i, dist];
		}
		if (best >= 0 || what === 'dot') return best >= 0 ? { kind: 'dot', index: best } : null;
	}
	const [b0, b1] = visibleBars(layout, g, lane, c - barTol, c + barTol);
	for (let i = b0; i < b1; i++) {
		const dist = c < g.barC0[i] ? g.barC0[i] - c : c > g.barC1[i] ? c - g.barC1[i] : 0;
		if (dist < bestDist) [best, bestDist] = [i, dist];
	}
	return best >= 0 ? { kind: 'bar', index: best } : null;
}

/** The bar on another lane nearest in time to bar `from` (for arrow-key moves between lanes). */
export function nearestBarOnLane(layout: TimelineLayout, g: Geometry, lane: number, c: number): number | null {
	const l = layout.lanes[lane];
	if (!l || l.barEnd === l.barStart) return null;
	let best = l.barStart;
	for (let i = l.barStart; i < l.barEnd; i++) {
		if (Math.abs(g.barC0[i] - c) < Math.abs(g.barC0[best] - c)) best = i;
	}
	return best;
}

/** Rounds to one decimal for path data (cheaper than toFixed in the hot loops). */
export function r1(x: number): number {
	return Math.round(x * 10) / 10;
}

/** Horizontal runs closer than this (px) are drawn as one shape: the gap is not visible. */
export const MERGE_PX = 0.25;
/**
 * Dots of radius r (px) whose centres are at most this far apart are drawn as one capsule: the
 * union of such circles differs from the capsule only by notches up to MERGE_PX deep
 * (r - sqrt(r² - (d/2)²) for spacing d); 2.96 px for the 4.5 px dots.
 */
export function dotMergePx(r: number): number {
	return r > MERGE_PX ? 2 * Math.sqrt(r * r - (r - MERGE_PX) * (r - MERGE_PX)) : 0;
}

/**
 * Path data of horizontal runs on one row, added in order of x0: a run that starts within
 * MERGE_PX of the current one extends it, so what is drawn is the union of the runs at screen
 * resolution, however many there are. 'rect' draws [x0, x1] × [y, y + h], 'line' draws a
 * segment at y (h unused). start() begins a row, end() returns the row's data.
 */
export class RunPath {
	#kind: 'rect' | 'line';
	#y = 0;
	#h = 0;
	#x0 = 0;
	#x1 = -Infinity;
	#d = '';
	constructor(kind: 'rect' | 'line') {
		this.#kind = kind;
	}
	start(y: number, h: number): void {
		this.#y = y;
		this.#h = h;
		this.#x1 = -Infinity;
		this.#d = '';
	}
	add(x0: number, x1: number): void {
		if (x0 >= this.#x0 && x0 <= this.#x1 + MERGE_PX) {
			if (x1 > this.#x1) this.#x1 = x1;
			return;
		}
		this.#flush();
		this.#x0 = x0;
		this.#x1 = x1;
	}
	end(): string {
		this.#flush();
		this.#x1 = -Infinity;
		const d = this.#d;
		this.#d = '';
		return d;
	}
	#flush(): void {
		if (this.#x1 === -Infinity) return;
		const x = r1(this.#x0);
		if (this.#kind === 'line') this.#d += `M${x} ${this.#y}H${r1(this.#x1)}`;
		else {
			const w = r1(this.#x1 - this.#x0);
			this.#d += `M${x} ${this.#y}h${w}v${this.#h}h${-w}z`;
		}
	}
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

/**
 * What is drawn at plot point (x, y) for a view, from geometry alone (paths mode has no elements
 * to ask): the upper part of a lane picks dots, the rest bars. Tolerances: dot radius + 1 px, 4 px.
 */
export function targetAt(layout: TimelineLayout, g: Geometry, view: View, plotW: number, m: LaneMetrics, x: number, y: number): Hit {
	if (y < m.axisH) return null;
	const k = Math.max(1, plotW) / Math.max(1e-9, view.c1 - view.c0);
	const lane = Math.floor((y - m.axisH) / m.laneH);
	const inLane = y - (m.axisH + lane * m.laneH);
	return hitTest(layout, g, lane, view.c0 + x / k, (m.dotR + 1) / k, 4 / k, inLane < m.barY - 1 ? 'dot' : 'bar');
}

/** Bars drawn as elements on top in every mode: the highlighted ones and the focused one. */
export function accentBars(bars: readonly TimelineBar[], highlight: string | null, focus: number | null): { bar: TimelineBar; cls: string }[] {
	const out: { bar: TimelineBar; cls: string }[] = [];
	if (highlight) {
		for (const bar of bars) if (bar.segmentId === highlight) out.push({ bar, cls: bar.index === focus ? 'highlight focused' : 'highlight' });
	}
	if (focus !== null && bars[focus] && !(highlight && bars[focus].segmentId === highlight)) out.push({ bar: bars[focus], cls: 'focused' });
	return out;
}

export interface DrawModel {
	/** true: bars / dots in view are individual elements (barIdx / dotIdx); false: paths. */
	detailed: boolean;
	barIdx: number[];
	dotIdx: number[];
	/** Paths mode: bars per lane, dots per lane and author class. */
	barPaths: string[];
	dotPaths: { lane: number; author: string; d: string }[];
	/** Always paths: idle holes inside bars, sub-bars, idle spans, compaction markers. */
	gaps: string;
	subs: string;
	idle: string;
	markers: string;
	/** Rewind points in view (a small marker each, with its fold's words as the tooltip). */
	rewinds: { x: number; y: number; label: string; uuid: string | null }[];
}

/**
 * Everything the SVG draws for a view, as plain data: computed in one pass over what is in view
 * with no reactive reads inside the loops (the component calls it from one $derived).
 */
export function drawModel(layout: TimelineLayout, g: Geometry, view: View, plotW: number, m: LaneMetrics): DrawModel {
	const v0 = view.c0;
	const k = Math.max(1, plotW) / Math.max(1e-9, view.c1 - view.c0);
	const { lanes, bars, dots, axis } = layout;
	const toC = timeToCMapper(axis);
	const top = (lane: number) => m.axisH + lane * m.laneH;
	const fx = (c: number) => r1((c - v0) * k);

	const ranges = lanes.map((l) => visibleBars(layout, g, l.index, view.c0, view.c1));
	const pad = (m.dotR + 1) / k;
	const dotRanges = lanes.map((l) => {
		const [d0, d1] = g.laneDots[l.index];
		const a = lowerBound(g.dotC, d0, d1, view.c0 - pad);
		return [a, lowerBound(g.dotC, a, d1, view.c1 + pad)] as const;
	});
	const count = ranges.reduce((s, [a, b]) => s + (b - a), 0);
	const out: DrawModel = { detailed: count <= m.detailMax, barIdx: [], dotIdx: [], barPaths: [], dotPaths: [], gaps: '', subs: '', idle: '', markers: '', rewinds: [] };

	// Shapes closer than a fraction of a pixel are drawn as one (see RunPath): at full view
	// thousands of bars share a few hundred pixels, and the path's size, not the pixels, costs.
	const bar = new RunPath('rect');
	const hole = new RunPath('rect');
	for (const lane of lanes) {
		const [a, b] = ranges[lane.index];
		const [d0, d1] = dotRanges[lane.index];
		const y = top(lane.index);
		if (out.detailed) {
			for (let i = a; i < b; i++) out.barIdx.push(i);
			for (let i = d0; i < d1; i++) out.dotIdx.push(i);
		} else {
			bar.start(y + m.barY, m.barH);
			for (let i = a; i < b; i++) {
				const x0 = (g.barC0[i] - v0) * k;
				bar.add(x0, x0 + Math.max(m.minBarW, (g.barC1[i] - g.barC0[i]) * k));
			}
			out.barPaths.push(bar.end());
			// Dots are sorted by time: a run of same-coloured dots each within dotMergePx of the one
			// before is drawn as one capsule (the union of those circles, to a quarter px).
			const byAuthor = new Map<string, { d: string; xa: number; xb: number }>();
			const r = m.dotR;
			const merge = dotMergePx(r);
			const cy = y + m.dotY;
			const capsule = (acc: { d: string; xa: number; xb: number }) =>
				`M${r1(acc.xa)} ${cy - r}H${r1(acc.xb)}a${r} ${r} 0 0 1 0 ${2 * r}H${r1(acc.xa)}a${r} ${r} 0 0 1 0 ${-2 * r}z`;
			for (let i = d0; i < d1; i++) {
				const au = dots[i].author;
				const x = (g.dotC[i] - v0) * k;
				const acc = byAuthor.get(au);
				if (!acc) byAuthor.set(au, { d: '', xa: x, xb: x });
				else if (x - acc.xb <= merge) acc.xb = x;
				else {
					acc.d += capsule(acc);
					acc.xa = acc.xb = x;
				}
			}
			for (const acc of byAuthor.values()) acc.d += capsule(acc);
			for (const [author, acc] of byAuthor) out.dotPaths.push({ lane: lane.index, author, d: acc.d });
		}
		hole.start(y + m.barY + 2, m.barH - 4);
		for (let i = a; i < b; i++) {
			const bg = bars[i].gaps;
			for (let j = 0; j < bg.length; j++) hole.add((toC(bg[j][0]) - v0) * k, (toC(bg[j][1]) - v0) * k);
		}
		out.gaps += hole.end();
	}
	// Plain loops, each path built in a local string (no callback per item).
	const { subBars, idle, markers } = layout;
	let subs = '';
	for (let i = 0; i < subBars.length; i++) {
		if (g.subC1[i] < view.c0 || g.subC0[i] > view.c1) continue;
		const w = Math.max(m.minBarW, (g.subC1[i] - g.subC0[i]) * k);
		subs += `M${fx(g.subC0[i])} ${top(subBars[i].lane) + m.barY + m.barH + 2}h${r1(w)}v3h${-r1(w)}z`;
	}
	out.subs = subs;
	// Idle spans are sorted by time within each lane, lane after lane.
	const line = new RunPath('line');
	let idleLane = -1;
	for (let i = 0; i < idle.length; i++) {
		if (g.idleC1[i] < view.c0 || g.idleC0[i] > view.c1) continue;
		if (idle[i].lane !== idleLane) {
			out.idle += line.end();
			idleLane = idle[i].lane;
			line.start(top(idleLane) + m.barY + m.barH / 2, 0);
		}
		line.add(Math.max(-5, (g.idleC0[i] - v0) * k), Math.min(plotW + 5, (g.idleC1[i] - v0) * k));
	}
	out.idle += line.end();
	let marks = '';
	for (let i = 0; i < markers.length; i++) {
		const x = (g.markerC[i] - v0) * k;
		if (x < -10 || x > plotW + 10) continue;
		const y = top(markers[i].lane);
		if (markers[i].kind === 'rewind') {
			out.rewinds.push({ x: r1(x), y: y + m.barY + m.barH + 1, label: markers[i].label ?? 'Rewound here', uuid: markers[i].uuid });
			continue;
		}
		marks += `M${r1(x)} ${y + m.barY - 3}v${m.barH + 6}M${r1(x - 4)} ${y + 2}h8l-4 6z`;
	}
	out.markers = marks;
	return out;
}
