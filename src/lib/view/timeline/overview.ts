// The project-level timeline: one compact row per listed session on one shared, broken time axis
// (idle stretches between sessions collapse, axis.ts), and the axis marks for a zoomed view with
// labels that never overlap: neighbouring breaks closer than a label's width merge into one mark
// ("4 gaps · 3 days"), and a tick label is dropped where a break label or an earlier tick label
// already sits. Pure data; the component virtualizes the rows and maps c to pixels with its zoom.
import { axisTicks, buildAxis, formatGap, timeToCMapper, type TimelineAxis, type UtcOffset } from './axis.ts';

/** What a row needs of a listed session (view/sessions ListEntry fits). */
export interface OverviewInput {
	key: string;
	title: string;
	startedAt: number | null;
	endedAt: number | null;
}

export interface OverviewRow {
	key: string;
	title: string;
	t0: number;
	t1: number;
	/** Compressed span on the shared axis. */
	c0: number;
	c1: number;
}

export interface OverviewLayout {
	rows: OverviewRow[];
	axis: TimelineAxis;
	/** Sessions without any timestamp (not drawn). */
	untimed: number;
}

/** Rows in the given order (the session list's), on an axis over every session's span. */
export function layoutOverview(entries: readonly OverviewInput[]): OverviewLayout {
	const timed = entries.filter((e) => e.startedAt !== null || e.endedAt !== null);
	const spans = timed.map((e) => {
		const t0 = (e.startedAt ?? e.endedAt) as number;
		return [t0, Math.max(t0, e.endedAt ?? t0)] as [number, number];
	});
	const axis = buildAxis(spans);
	const toC = timeToCMapper(axis);
	const rows = timed.map((e, i) => {
		const [t0, t1] = spans[i];
		return { key: e.key, title: e.title, t0, t1, c0: toC(t0), c1: toC(t1) };
	});
	return { rows, axis, untimed: entries.length - timed.length };
}

export interface OverviewMarks {
	ticks: { x: number; label: string; major: boolean }[];
	/** Merged breaks in view: pixel span, how many gaps, their label. */
	breaks: { x0: number; x1: number; gaps: number; label: string }[];
}

/** Least distance (px) between the starts of two labels; the component caps a label's width below it. */
export const LABEL_PX = 72;

/** Axis marks for the window [c0, c1] drawn `width` px wide (see the module comment). */
export function overviewMarks(axis: TimelineAxis, c0: number, c1: number, width: number, offset: UtcOffset = 0): OverviewMarks {
	const span = Math.max(1e-9, c1 - c0);
	const x = (c: number) => ((c - c0) / span) * width;
	const breaks: OverviewMarks['breaks'] = [];
	let group: { x0: number; x1: number; gaps: number; ms: number } | null = null;
	const flush = () => {
		// Merged: "×6 · 2 days" (six gaps, two days of idle in all), short enough for one label's room.
		if (group) breaks.push({ x0: group.x0, x1: group.x1, gaps: group.gaps, label: group.gaps === 1 ? formatGap(group.ms) : `×${group.gaps} · ${formatGap(group.ms)}` });
		group = null;
	};
	for (const p of axis.pieces) {
		if (!p.collapsed || p.c1 < c0 || p.c0 > c1) continue;
		const x0 = x(p.c0);
		const x1 = x(p.c1);
		if (group && x0 - group.x0 < LABEL_PX) {
			group.x1 = x1;
			group.gaps++;
			group.ms += p.t1 - p.t0;
		} else {
			flush();
			group = { x0, x1, gaps: 1, ms: p.t1 - p.t0 };
		}
	}
	flush();
	const ticks: OverviewMarks['ticks'] = [];
	let last = -Infinity;
	for (const tk of axisTicks(axis, c0, c1, Math.max(1, Math.floor(width / (LABEL_PX * 1.5))), offset)) {
		const tx = x(tk.c);
		if (tx < 0 || tx > width - LABEL_PX / 2) continue;
		if (tx - last < LABEL_PX) continue;
		if (breaks.some((b) => Math.abs(b.x0 - tx) < LABEL_PX)) continue;
		ticks.push({ x: tx, label: tk.label, major: tk.major });
		last = tx;
	}
	return { ticks, breaks };
}
