// What the time axis draws for a view, besides the ticks themselves (view/timeline axisTicks):
// which collapsed pieces ("breaks") are in view and which of them get a label, which tick labels
// have room, and the squiggle drawn down the middle of a break. Pure; x maps c to plot pixels.

import type { AxisPiece, Tick } from '$lib/view/timeline/index.ts';
import type { View } from './geometry.ts';

export interface BreakMark {
	p: AxisPiece;
	/** Index of the piece in axis.pieces (the tooltip's "break" index). */
	i: number;
	label: boolean;
}

/** Least distance (px) between the centres of two break labels. */
const BREAK_LABEL_GAP = 48;
/** Least distance (px) between two tick labels, and room kept free at the right edge. */
const TICK_LABEL_GAP = 44;
const TICK_RIGHT_MARGIN = 34;
/** A tick label (drawn from x + 3, about 28 px wide) keeps this clear of a break label centre. */
const TICK_BREAK_GAP = 34;

/**
 * Collapsed pieces in view. A label is drawn only where it has room (no pile-ups when zoomed out
 * over many breaks); the hover tooltip always names the gap.
 */
export function breakMarks(pieces: readonly AxisPiece[], view: View, x: (c: number) => number): BreakMark[] {
	const out: BreakMark[] = [];
	let lastLabelX = -Infinity;
	pieces.forEach((p, i) => {
		if (!p.collapsed || p.c1 < view.c0 || p.c0 > view.c1) return;
		const mid = x((p.c0 + p.c1) / 2);
		const label = mid - lastLabelX >= BREAK_LABEL_GAP;
		if (label) lastLabelX = mid;
		out.push({ p, i, label });
	});
	return out;
}

/** For each tick, whether its label is drawn: spaced out, inside the plot, clear of break labels. */
export function tickLabelMask(ticks: readonly Tick[], breaks: readonly BreakMark[], x: (c: number) => number, plotW: number): boolean[] {
	const taken = breaks.filter((b) => b.label).map((b) => x((b.p.c0 + b.p.c1) / 2));
	let last = -Infinity;
	return ticks.map((tk) => {
		const tx = x(tk.c);
		const ok =
			tx - last >= TICK_LABEL_GAP && tx <= plotW - TICK_RIGHT_MARGIN && taken.every((bx) => Math.abs(bx - tx - 14) >= TICK_BREAK_GAP);
		if (ok) last = tx;
		return ok;
	});
}

/** Path data of a zigzag 3 px either side of x = mid, from y0 down to y1 in 6 px steps. */
export function squigglePath(mid: number, y0: number, y1: number): string {
	const steps = Math.ceil((y1 - y0) / 6);
	let d = `M${mid} ${y0}`;
	for (let j = 0; j < steps; j++) d += `L${mid + (j % 2 ? -3 : 3)} ${y0 + (j + 1) * 6}`;
	return d;
}

/**
 * The breaks in view drawn as two paths (all shaded bands, all squiggles) from y0 down to y1, so a
 * long session's hundred breaks cost two elements; breakAt finds the break under a band point.
 */
export function breakPaths(breaks: readonly BreakMark[], x: (c: number) => number, y0: number, y1: number): { bands: string; squiggles: string } {
	let bands = '';
	let squiggles = '';
	for (const { p } of breaks) {
		const x0 = x(p.c0);
		const w = Math.max(1, x(p.c1) - x0);
		bands += `M${x0} ${y0}h${w}v${y1 - y0}h${-w}z`;
		squiggles += squigglePath((x0 + x(p.c1)) / 2, y0, y1);
	}
	return { bands, squiggles };
}

/** Index (in axis.pieces) of the break whose band holds plot x, or null. */
export function breakAt(breaks: readonly BreakMark[], x: (c: number) => number, px: number): number | null {
	for (const { p, i } of breaks) {
		const x0 = x(p.c0);
		if (px >= x0 && px <= x0 + Math.max(1, x(p.c1) - x0)) return i;
	}
	return null;
}
