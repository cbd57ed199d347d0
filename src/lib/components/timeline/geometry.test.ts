import { describe, expect, it } from 'vitest';
import { layoutTimeline, syntheticLayoutInput, timeToC } from '$lib/view/timeline/index.ts';
import {
	accentBars,
	clampView,
	dotMergePx,
	drawModel,
	fullView,
	geometryOf,
	hitTest,
	METRICS,
	MERGE_PX,
	MIN_SPAN,
	nearestBarOnLane,
	panBy,
	reveal,
	RunPath,
	targetAt,
	visibleBars,
	zoomAt
} from './geometry.ts';

const layout = layoutTimeline(syntheticLayoutInput(400, { lanes: 2 }));
const geom = geometryOf(layout);
const W = layout.axis.width;

describe('geometryOf', () => {
	it('maps every bar and dot through the axis and links bars to their dots', () => {
		layout.bars.forEach((b) => {
			expect(geom.barC0[b.index]).toBeCloseTo(timeToC(layout.axis, b.t0), 6);
			expect(geom.barC1[b.index]).toBeGreaterThanOrEqual(geom.barC0[b.index]);
		});
		layout.dots.forEach((d, i) => expect(geom.dotOfBar[d.bar] === i || layout.dots[geom.dotOfBar[d.bar]].bar === d.bar).toBe(true));
		const [d0, d1] = geom.laneDots[1];
		expect(layout.dots.slice(d0, d1).every((d) => d.lane === 1)).toBe(true);
	});
});

describe('view arithmetic', () => {
	it('zooms around an anchor that stays fixed', () => {
		const v = { c0: W * 0.2, c1: W * 0.6 };
		const anchor = W * 0.3;
		const z = zoomAt(v, 0.5, anchor, W);
		expect(z.c1 - z.c0).toBeCloseTo((v.c1 - v.c0) / 2, 6);
		expect((anchor - z.c0) / (z.c1 - z.c0)).toBeCloseTo((anchor - v.c0) / (v.c1 - v.c0), 6);
	});

	it('never zooms past two seconds or beyond the whole axis', () => {
		expect(zoomAt(fullView(layout), 1e-9, W / 2, W).c1 - zoomAt(fullView(layout), 1e-9, W / 2, W).c0).toBeCloseTo(MIN_SPAN, 6);
		expect(zoomAt(fullView(layout), 10, W / 2, W)).toEqual({ c0: 0, c1: W });
	});

	it('pans within bounds', () => {
		const v = { c0: 0, c1: W / 4 };
		expect(panBy(v, -100, W)).toEqual(v);
		const far = panBy(v, W * 10, W);
		expect(far.c1).toBeCloseTo(W, 6);
		expect(clampView({ c0: NaN, c1: NaN }, W).c0).toBe(0);
	});

	it('reveals a range outside the window by moving, not zooming', () => {
		const v = { c0: 0, c1: W / 10 };
		const r = reveal(v, W / 2, W / 2 + 10, W);
		expect(r.c1 - r.c0).toBeCloseTo(v.c1 - v.c0, 6);
		expect(r.c0).toBeLessThan(W / 2);
		expect(r.c1).toBeGreaterThan(W / 2 + 10);
		expect(reveal(v, 1, 2, W)).toBe(v);
	});
});

describe('visibleBars', () => {
	it('returns exactly the lane bars that intersect the window', () => {
		const v0 = W * 0.3;
		const v1 = W * 0.35;
		for (const lane of layout.lanes) {
			const [a, b] = visibleBars(layout, geom, lane.index, v0, v1);
			const expected = layout.bars.filter((bar) => bar.lane === lane.index && geom.barC1[bar.index] >= v0 && geom.barC0[bar.index] <= v1).map((bar) => bar.index);
			const got = Array.from({ length: b - a }, (_, i) => a + i);
			expect(got).toEqual(expected);
		}
	});
});

describe('hitTest', () => {
	const bar = layout.bars[5];
	const mid = (geom.barC0[5] + geom.barC1[5]) / 2;

	it('finds the bar under a point, and the dot at its start first', () => {
		expect(hitTest(layout, geom, bar.lane, mid, 1, 1)).toEqual({ kind: 'bar', index: 5 });
		const di = geom.dotOfBar[5];
		expect(hitTest(layout, geom, bar.lane, geom.dotC[di] + 0.5, 1, 1)).toEqual({ kind: 'dot', index: di });
	});

	it('misses on the wrong lane or far from anything', () => {
		expect(hitTest(layout, geom, 7, mid, 1, 1)).toBeNull();
		const gap = layout.axis.pieces.find((p) => p.collapsed)!;
		expect(hitTest(layout, geom, 0, (gap.c0 + gap.c1) / 2, 1, 1)).toBeNull();
	});

	it('moves between lanes to the bar nearest in time', () => {
		const n = nearestBarOnLane(layout, geom, 1, geom.barC0[5])!;
		expect(layout.bars[n].lane).toBe(1);
		const l1 = layout.lanes[1];
		for (let i = l1.barStart; i < l1.barEnd; i++) {
			expect(Math.abs(geom.barC0[i] - geom.barC0[5])).toBeGreaterThanOrEqual(Math.abs(geom.barC0[n] - geom.barC0[5]));
		}
	});
});

describe('paths', () => {
	it('draws overlapping and sub-pixel-adjacent runs as one shape, others apart', () => {
		const runs = new RunPath('rect');
		runs.start(5, 8);
		runs.add(0, 4);
		runs.add(2, 3); // inside
		runs.add(4.2, 6); // 0.2 px after the end: merged
		runs.add(7, 9); // 1 px gap: a new rectangle
		runs.add(1, 2); // backwards: never merged into a later run
		expect(runs.end()).toBe('M0 5h6v8h-6zM7 5h2v8h-2zM1 5h1v8h-1z');
		expect(runs.end()).toBe('');
		const line = new RunPath('line');
		line.start(3, 0);
		line.add(0, 1);
		line.add(1, 2.5);
		expect(line.end()).toBe('M0 3H2.5');
	});

	it('merges dots only while the notches between them stay under MERGE_PX', () => {
		const r = 4.5;
		const d = dotMergePx(r);
		expect(r - Math.sqrt(r * r - (d / 2) ** 2)).toBeCloseTo(MERGE_PX, 9);
		expect(dotMergePx(0.2)).toBe(0);
	});
});

/** [x, y, w] of each rectangle subpath ("M x y h w v h h -w z"). */
function rects(d: string): [number, number, number][] {
	return [...d.matchAll(/M(-?[\d.]+) (-?[\d.]+)h(-?[\d.]+)v/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
}

/** [xa, xb, y] of each dot capsule ("M xa y H xb a … H xa a … z"). */
function capsules(d: string): [number, number, number][] {
	return [...d.matchAll(/M(-?[\d.]+) (-?[\d.]+)H(-?[\d.]+)a/g)].map((m) => [Number(m[1]), Number(m[3]), Number(m[2])]);
}

describe('drawModel', () => {
	const metrics = { axisH: 20, laneH: 30, dotY: 8, dotR: 4, barY: 14, barH: 10, minBarW: 2, detailMax: 100 };

	it('lists bars and dots in view as elements when few are visible', () => {
		const v = { c0: geom.barC0[10], c1: geom.barC1[14] };
		const m = drawModel(layout, geom, v, 800, metrics);
		expect(m.detailed).toBe(true);
		const expected = layout.bars.filter((b) => geom.barC1[b.index] >= v.c0 && geom.barC0[b.index] <= v.c1).map((b) => b.index);
		expect(m.barIdx).toEqual(expected);
		expect(m.barPaths).toEqual([]);
		const pad = (5 * (v.c1 - v.c0)) / 800; // dot radius + 1 px, in compressed units
		const dotsInView = layout.dots.map((_, i) => i).filter((i) => geom.dotC[i] >= v.c0 - pad && geom.dotC[i] <= v.c1 + pad);
		expect(m.dotIdx).toEqual(dotsInView);
		expect(m.dotIdx.length).toBeGreaterThan(0);
	});

	it('switches to one path per lane (and per author for dots) when many are visible', () => {
		const m = drawModel(layout, geom, fullView(layout), 800, metrics);
		expect(m.detailed).toBe(false);
		expect(m.barIdx).toEqual([]);
		expect(m.barPaths).toHaveLength(layout.lanes.length);
		const authors = new Set(m.dotPaths.map((d) => d.author));
		expect(authors).toEqual(new Set(layout.dots.map((d) => d.author)));
		expect(m.idle).not.toBe('');
		expect(m.subs.match(/M/g)?.length).toBe(layout.subBars.length);
		expect(m.markers.match(/M/g)?.length).toBe(layout.markers.length * 2);
	});

	it('draws the union of the bars in view at screen resolution: every bar covered, nothing invented', () => {
		const plotW = 800;
		const v = fullView(layout);
		const m = drawModel(layout, geom, v, plotW, metrics);
		const k = plotW / (v.c1 - v.c0);
		let drawn = 0;
		for (const lane of layout.lanes) {
			const rs = rects(m.barPaths[lane.index]);
			drawn += rs.length;
			for (const [, y] of rs) expect(y).toBe(20 + lane.index * 30 + 14);
			const xs = [];
			for (let i = lane.barStart; i < lane.barEnd; i++) {
				const x0 = (geom.barC0[i] - v.c0) * k;
				xs.push([x0, x0 + Math.max(metrics.minBarW, (geom.barC1[i] - geom.barC0[i]) * k)]);
			}
			for (const [x0, x1] of xs) expect(rs.some(([x, , w]) => x <= x0 + 0.06 && x + w >= x1 - 0.11)).toBe(true);
			for (const [x] of rs) expect(xs.some(([x0]) => Math.abs(x0 - x) <= 0.06)).toBe(true);
			for (let j = 1; j < rs.length; j++) expect(rs[j][0] - (rs[j - 1][0] + rs[j - 1][2])).toBeGreaterThan(MERGE_PX - 0.11);
			// Within one rectangle the bars leave no visible hole: it is their union.
			for (const [x, , w] of rs) {
				let reach = -Infinity;
				for (const [x0, x1] of xs.filter(([x0]) => x0 >= x - 0.06 && x0 <= x + w)) {
					if (reach > -Infinity) expect(x0).toBeLessThanOrEqual(reach + MERGE_PX + 0.11);
					reach = Math.max(reach, x1);
				}
			}
		}
		// 400 segments over 800 px: overlapping bars are drawn once.
		expect(drawn).toBeLessThan(layout.bars.length);
		for (const { lane, author, d } of m.dotPaths) {
			const cs = capsules(d);
			const cx = layout.dots.flatMap((dot, i) => (dot.lane === lane && dot.author === author ? [(geom.dotC[i] - v.c0) * k] : []));
			for (const x of cx) expect(cs.some(([xa, xb]) => xa - 0.06 <= x && x <= xb + 0.06)).toBe(true);
			for (const [xa, xb] of cs) expect(cx.some((x) => Math.abs(x - xa) <= 0.06) && cx.some((x) => Math.abs(x - xb) <= 0.06)).toBe(true);
			for (let j = 1; j < cs.length; j++) expect(cs[j][0] - cs[j - 1][1]).toBeGreaterThan(dotMergePx(metrics.dotR) - 0.11);
		}
	});

	it('draws every bar and dot on its own when they are apart on screen', () => {
		const lane0 = layout.lanes[0];
		const v = { c0: geom.barC0[lane0.barStart], c1: geom.barC1[lane0.barStart + 5] };
		const m = drawModel(layout, geom, v, 2000, { ...metrics, detailMax: 0 });
		const [a, b] = visibleBars(layout, geom, 0, v.c0, v.c1);
		expect(rects(m.barPaths[0])).toHaveLength(b - a);
		const dotsInLane = m.dotPaths.filter((d) => d.lane === 0).reduce((s, d) => s + capsules(d.d).length, 0);
		const pad = (metrics.dotR + 1) / (2000 / (v.c1 - v.c0));
		expect(dotsInLane).toBe(layout.dots.filter((d, i) => d.lane === 0 && geom.dotC[i] >= v.c0 - pad && geom.dotC[i] <= v.c1 + pad).length);
	});

	it('places lane n at axisH + n·laneH', () => {
		const lane1 = layout.lanes[1];
		const v = { c0: geom.barC0[lane1.barStart], c1: geom.barC1[lane1.barStart] };
		const m = drawModel(layout, geom, v, 500, { ...metrics, detailMax: 0 });
		expect(m.barPaths[1]).toMatch(new RegExp(`^M-?[\\d.]+ ${20 + 30 + 14}h`));
	});
});

describe('targetAt', () => {
	const m = METRICS;
	const i = 5;
	const bar = layout.bars[i];
	const v = { c0: geom.barC0[i] - 1000, c1: geom.barC1[i] + 1000 };
	const plotW = 600;
	const px = (c: number) => ((c - v.c0) * plotW) / (v.c1 - v.c0);
	const top = m.axisH + bar.lane * m.laneH;

	it('picks the bar in the lower part of a lane and the dot in the upper part', () => {
		const mid = px((geom.barC0[i] + geom.barC1[i]) / 2);
		expect(targetAt(layout, geom, v, plotW, m, mid, top + m.barY + 2)).toEqual({ kind: 'bar', index: i });
		const di = geom.dotOfBar[i];
		expect(targetAt(layout, geom, v, plotW, m, px(geom.dotC[di]) + 2, top + m.dotY)).toEqual({ kind: 'dot', index: di });
	});

	it('misses on the axis strip and below the last lane', () => {
		expect(targetAt(layout, geom, v, plotW, m, px(geom.barC0[i]), m.axisH - 1)).toBeNull();
		expect(targetAt(layout, geom, v, plotW, m, px(geom.barC0[i]), m.axisH + layout.lanes.length * m.laneH + 5)).toBeNull();
	});
});

describe('accentBars', () => {
	const id = layout.bars[7].segmentId;

	it('lists the highlighted bars, then the focused one, never twice', () => {
		expect(accentBars(layout.bars, null, null)).toEqual([]);
		expect(accentBars(layout.bars, id, 3).map((a) => [a.bar.index, a.cls])).toEqual([
			[7, 'highlight'],
			[3, 'focused']
		]);
		expect(accentBars(layout.bars, id, 7).map((a) => [a.bar.index, a.cls])).toEqual([[7, 'highlight focused']]);
		expect(accentBars(layout.bars, null, 1e6)).toEqual([]);
	});
});
