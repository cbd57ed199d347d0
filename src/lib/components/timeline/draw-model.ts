// The draw model of a timeline view: what the SVG draws, as plain data. Shapes that overlap
// on screen are drawn once (RunPath merges runs closer than MERGE_PX); above METRICS.detailMax
// bars in view, bars and dots are paths instead of elements.

import { timeToCMapper, type TimelineBar, type TimelineLayout } from '$lib/view/timeline/index.ts';
import { lowerBound, visibleBars, type Geometry, type LaneMetrics, type View } from './coords.ts';

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
