// Hit tests on the timeline's geometry: what lies under a point, from coordinates alone (the
// paths mode has no elements to ask), and the nearest bar on another lane for arrow keys.

import type { TimelineLayout } from '$lib/view/timeline/index.ts';
import { lowerBound, visibleBars, type Geometry, type LaneMetrics, type View } from './coords.ts';

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
