// The arithmetic of the virtualized chat list, kept pure so it is tested in Node: prefix-sum
// offsets from measured-or-estimated heights, the row under a y position, the window of rows to
// draw, the scroll position that keeps an anchor row where it was, and how many rows to draw a task.

/** offsets[i] = top of row i; offsets[n] = total height. */
export function computeOffsets(heights: ArrayLike<number>): Float64Array {
	const o = new Float64Array(heights.length + 1);
	for (let i = 0; i < heights.length; i++) o[i + 1] = o[i] + Math.max(0, heights[i]);
	return o;
}

/** The row containing y: the largest i with offsets[i] <= y, clamped to [0, n-1] (0 when empty). */
export function rowAt(offsets: Float64Array, y: number): number {
	const n = offsets.length - 1;
	if (n <= 0) return 0;
	let lo = 0;
	let hi = n - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (offsets[mid] <= y) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/**
 * Rows [start, end) to draw for a viewport at scrollTop of height viewportH, with `overscan` px
 * beyond each edge and never more than `maxRows` rows (the first visible row is always drawn).
 */
export function windowRange(offsets: Float64Array, scrollTop: number, viewportH: number, overscan: number, maxRows: number): { start: number; end: number } {
	const n = offsets.length - 1;
	if (n <= 0) return { start: 0, end: 0 };
	const first = rowAt(offsets, scrollTop);
	const start = Math.min(rowAt(offsets, scrollTop - overscan), first);
	const end = Math.min(n, rowAt(offsets, scrollTop + viewportH + overscan) + 1, start + maxRows);
	return { start, end: Math.max(end, Math.min(n, first + 1)) };
}

export interface Anchor {
	index: number;
	/** scrollTop − top of the anchor row (how far into the row the viewport starts). */
	delta: number;
}

export function anchorAt(offsets: Float64Array, scrollTop: number): Anchor {
	const index = rowAt(offsets, scrollTop);
	return { index, delta: scrollTop - offsets[index] };
}

/** The scrollTop that puts the anchor row back where it was after heights changed. */
export function scrollForAnchor(offsets: Float64Array, anchor: Anchor): number {
	const n = offsets.length - 1;
	if (n <= 0) return 0;
	const i = Math.max(0, Math.min(anchor.index, n - 1));
	return Math.max(0, offsets[i] + anchor.delta);
}

/** Row index of the next (dir 1) or previous (dir -1) turn start from row `cur`, or null. */
export function turnJump(turnOf: (i: number) => number, n: number, cur: number, dir: 1 | -1): number | null {
	if (n === 0) return null;
	const start = (i: number): number => {
		const t = turnOf(i);
		while (i > 0 && turnOf(i - 1) === t) i--;
		return i;
	};
	if (dir === 1) {
		const t = turnOf(cur);
		let i = cur + 1;
		while (i < n && turnOf(i) === t) i++;
		return i < n ? i : null;
	}
	const s = start(cur);
	if (s < cur) return s;
	return s > 0 ? start(s - 1) : null;
}

/** Rows drawn per task: how many fit a time budget, judged by the last slice. A row's
 *  cost depends on the device and on how warm the page is: a fixed 8 rows were a 100–190 ms task
 *  at 4× CPU on a cold start. The next slice scales the last one's count by budget / its time,
 *  at most doubling, within [min, max]. */
export function nextSlice(lastCount: number, lastMs: number, budgetMs: number, min: number, max: number): number {
	const perRow = lastMs / Math.max(1, lastCount);
	const fit = perRow > 0 ? Math.floor(budgetMs / perRow) : max;
	return Math.max(min, Math.min(max, 2 * Math.max(1, lastCount), fit));
}
