// Timeline layout as plain data: lanes (one per session) on one shared, broken time axis; one bar
// per segment from its input to its LAST NON-IDLE atom (the reference draws through idle time —
// a regression we do not copy); idle spans from the state log as gaps; prompt dots coloured by
// author class; compaction and rewind markers; subagent delegations as thin sub-bars. All of it
// is structured-cloneable, so the worker computes it and the page only draws it. Times: epoch ms.
// Click targets (event-model reference §5.3): a bar lands on the segment's REPLY — the last
// assistant atom of the segment whose text blocks are non-empty (API-error atoms excluded) —
// else its first WORK atom — the first non-error assistant atom with text or a tool_use block —
// else its trigger. A trigger-less segment (autonomous work, a compaction) uses its first atom
// with a uuid as the trigger stand-in ("anchor"). A dot lands on the trigger.
// The types are in layout-types.ts; one lane's pieces are made in lane.ts.

import { branchLabelOf } from '../chat/branches.ts';
import { buildAxis, SpanList } from './axis.ts';
import { dropUntimed, layoutLane } from './lane.ts';
import type { LaneInput, LayoutOptions, TimelineBar, TimelineDot, TimelineLayout, TimelineMarker } from './layout-types.ts';

export * from './layout-types.ts';
export { atomMs, atomText, authorClass } from './lane.ts';

/** Whether xs is already sorted under cmp (a stable sort would leave it as it is): bars and dots
 *  nearly always come out in order, and a check is cheaper than a sort. */
function inOrder<T>(xs: readonly T[], cmp: (a: T, b: T) => number): boolean {
	for (let i = 1; i < xs.length; i++) if (cmp(xs[i - 1], xs[i]) > 0) return false;
	return true;
}

/** Lays out several sessions on one shared, broken time axis. */
export function layoutTimeline(lanes: readonly LaneInput[], opts: LayoutOptions = {}): TimelineLayout {
	const layout: TimelineLayout = { lanes: [], bars: [], dots: [], subBars: [], idle: [], markers: [], axis: buildAxis([]) };
	const activity = new SpanList();

	lanes.forEach((lane, li) => {
		const built = dropUntimed(layoutLane(lane, li), layout);
		// Sort the lane's bars by start (stable), then renumber them and what points at them.
		const barStart = layout.bars.length;
		const byStart = (x: TimelineBar, y: TimelineBar) => x.t0 - y.t0 || x.index - y.index;
		const sorted = inOrder(built.bars, byStart) ? built.bars : built.bars.slice().sort(byStart);
		const globalOf = new Array<number>(sorted.length);
		for (let i = 0; i < sorted.length; i++) {
			const bar = sorted[i];
			globalOf[bar.index] = layout.bars.length;
			bar.index = layout.bars.length;
			layout.bars.push(bar);
		}
		for (let i = 0; i < built.dots.length; i++) {
			const d = built.dots[i];
			d.bar = globalOf[d.bar];
			layout.dots.push(d);
		}
		for (let i = 0; i < built.subBars.length; i++) {
			const sb = built.subBars[i];
			sb.bar = globalOf[sb.bar];
			layout.subBars.push(sb);
		}
		for (let i = 0; i < built.idle.length; i++) layout.idle.push(built.idle[i]);
		for (let i = 0; i < built.markers.length; i++) layout.markers.push(built.markers[i]);
		// A rewind point where the abandoned branch began (its nested branches are inside it).
		for (const b of lane.session.branches ?? []) {
			if (!(b.t > 0)) continue;
			const m: TimelineMarker = { kind: 'rewind', laneKey: lane.key, lane: li, t: b.t * 1000, uuid: b.rootUuid, trigger: null, preTokens: null, label: branchLabelOf(b) };
			built.markers.push(m);
			layout.markers.push(m);
		}

		let t0: number | null = null;
		let t1: number | null = null;
		for (let i = barStart; i < layout.bars.length; i++) {
			const b = layout.bars[i];
			activity.add(b.t0, b.t1);
			t0 = t0 === null ? b.t0 : Math.min(t0, b.t0);
			t1 = t1 === null ? b.t1 : Math.max(t1, b.t1);
		}
		for (const s of built.subBars) activity.add(s.t0, s.t1);
		for (const m of built.markers) activity.add(m.t, m.t);
		layout.lanes.push({ key: lane.key, label: lane.label, index: li, t0, t1, barStart, barEnd: layout.bars.length });
	});

	const byLaneTime = (x: TimelineDot, y: TimelineDot) => x.lane - y.lane || x.t - y.t;
	if (!inOrder(layout.dots, byLaneTime)) layout.dots.sort(byLaneTime);
	layout.axis = buildAxis(activity, opts);
	return layout;
}

/** The bar with this segment id on this lane (first match), or null. */
export function findBar(layout: TimelineLayout, segmentId: string, laneKey?: string): TimelineBar | null {
	return layout.bars.find((b) => b.segmentId === segmentId && (laneKey === undefined || b.laneKey === laneKey)) ?? null;
}
