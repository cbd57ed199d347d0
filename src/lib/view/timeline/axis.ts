// The timeline's broken time axis. Real time (epoch ms) maps piecewise-linearly to "compressed
// time" c: active pieces keep their length (1 ms of time = 1 unit of c), and every stretch of
// 20 min or more with no activity on any lane becomes a collapsed piece of fixed small width with
// a label ("3 h", "2 days"). The axis is plain data so the worker can build it and the main
// thread can map through it; the component turns c into pixels with its own zoom and pan.

export interface AxisPiece {
	/** Real-time span, epoch ms. */
	t0: number;
	t1: number;
	/** Compressed span. Active pieces have c1 - c0 === t1 - t0. */
	c0: number;
	c1: number;
	collapsed: boolean;
	/** Duration label of a collapsed piece ("3 h", "2 days"), else null. */
	label: string | null;
}

export interface TimelineAxis {
	pieces: AxisPiece[];
	/** Real-time domain (first piece's t0 .. last piece's t1); 0..0 when empty. */
	t0: number;
	t1: number;
	/** Total compressed width (last piece's c1; the first piece starts at c = 0). */
	width: number;
}

export interface AxisOptions {
	/** Gaps at least this long (ms) collapse. Default 20 min. */
	collapseMs?: number;
	/** false keeps real time everywhere. Default true. */
	collapse?: boolean;
	/** Width of one collapsed gap as a share of the total active width. Default 0.08. */
	gapShare?: number;
	/** Cap on all collapsed gaps together, as a share of the total active width. Default 0.3. */
	maxGapShare?: number;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** An idle stretch this long collapses on the axis (docs/divergences.md T3). */
export const COLLAPSE_MS = 20 * MINUTE;

/** "25 min", "3 h", "1 day", "2 days", "1 week", "3 weeks", "2 months". */
export function formatGap(ms: number): string {
	const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
	if (ms < HOUR) return `${Math.max(1, Math.round(ms / MINUTE))} min`;
	if (ms < DAY) return `${Math.max(1, Math.round(ms / HOUR))} h`;
	if (ms < 7 * DAY) return plural(Math.max(1, Math.round(ms / DAY)), 'day');
	if (ms < 30 * DAY) return plural(Math.round(ms / (7 * DAY)), 'week');
	return plural(Math.round(ms / (30 * DAY)), 'month');
}

/** Sorts and merges intervals (touching ones too). Input is not modified. */
export function mergeIntervals(spans: readonly (readonly [number, number])[]): [number, number][] {
	return mergeSpans(SpanList.of(spans), false);
}

/**
 * Intervals as two parallel lists of starts and ends: what the layout collects for the axis,
 * one entry per bar, without a pair array per bar.
 */
export class SpanList {
	readonly starts: number[] = [];
	readonly ends: number[] = [];
	add(a: number, b: number): void {
		this.starts.push(a);
		this.ends.push(b);
	}
	static of(spans: readonly (readonly [number, number])[]): SpanList {
		const list = new SpanList();
		for (let i = 0; i < spans.length; i++) list.add(spans[i][0], spans[i][1]);
		return list;
	}
}

/**
 * The union of the spans (optionally only the finite ones) as sorted, disjoint intervals, touching
 * ones merged. A sweep over the starts and the ends sorted apart (typed arrays, native numeric
 * sort: no comparator, no pairs built): where no span is open, a merged interval ends.
 */
function mergeSpans(spans: SpanList, finiteOnly: boolean): [number, number][] {
	const len = spans.starts.length;
	const starts = new Float64Array(len);
	const ends = new Float64Array(len);
	let n = 0;
	for (let i = 0; i < len; i++) {
		const a = spans.starts[i];
		const b = spans.ends[i];
		if (finiteOnly && !(Number.isFinite(a) && Number.isFinite(b))) continue;
		starts[n] = Math.min(a, b);
		ends[n] = Math.max(a, b);
		n++;
	}
	const s = starts.subarray(0, n).sort();
	const e = ends.subarray(0, n).sort();
	const out: [number, number][] = [];
	let open = 0;
	let from = 0;
	for (let i = 0, j = 0; j < n; ) {
		// A start at the same place as an end comes first: touching spans merge.
		if (i < n && s[i] <= e[j]) {
			if (open++ === 0) from = s[i];
			i++;
		} else {
			if (--open === 0) out.push([from, e[j]]);
			j++;
		}
	}
	return out;
}

/**
 * Builds the axis from activity intervals (bars, sub-bars; points as [t, t]). Clusters get a
 * small pad so a lone point has width and nothing sits on the edge of a break.
 */
export function buildAxis(activity: readonly (readonly [number, number])[] | SpanList, opts: AxisOptions = {}): TimelineAxis {
	const collapseMs = opts.collapseMs ?? COLLAPSE_MS;
	const collapse = opts.collapse ?? true;
	const merged = mergeSpans(activity instanceof SpanList ? activity : SpanList.of(activity), true);
	if (merged.length === 0) return { pieces: [], t0: 0, t1: 0, width: 0 };

	// Group merged intervals into clusters separated by collapsible gaps.
	const clusters: [number, number][] = [];
	for (let i = 0; i < merged.length; i++) {
		const a = merged[i][0];
		const b = merged[i][1];
		const last = clusters[clusters.length - 1];
		if (last && (!collapse || a - last[1] < collapseMs)) last[1] = Math.max(last[1], b);
		else clusters.push([a, b]);
	}
	const raw = clusters.reduce((s, [a, b]) => s + (b - a), 0);
	const pad = Math.min(MINUTE, Math.max(1000, raw * 0.02));
	const padded = clusters.map(([a, b]) => [a - pad, b + pad] as [number, number]);
	const active = padded.reduce((s, [a, b]) => s + (b - a), 0);
	const gaps = padded.length - 1;
	const gapWidth = gaps > 0 ? Math.min((opts.gapShare ?? 0.08) * active, ((opts.maxGapShare ?? 0.3) * active) / gaps) : 0;

	const pieces: AxisPiece[] = [];
	let c = 0;
	padded.forEach(([a, b], i) => {
		if (i > 0) {
			const prev = padded[i - 1][1];
			const w = Math.min(gapWidth, a - prev);
			pieces.push({ t0: prev, t1: a, c0: c, c1: c + w, collapsed: true, label: formatGap(a - prev) });
			c += w;
		}
		pieces.push({ t0: a, t1: b, c0: c, c1: c + (b - a), collapsed: false, label: null });
		c += b - a;
	});
	return { pieces, t0: pieces[0].t0, t1: pieces[pieces.length - 1].t1, width: c };
}

/** Index of the piece whose [key0, key1] holds v (clamped to the first / last piece). */
function pieceAt(pieces: readonly AxisPiece[], v: number, key: 't' | 'c'): number {
	const k0 = key === 't' ? 't0' : 'c0';
	let lo = 0;
	let hi = pieces.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (pieces[mid][k0] <= v) lo = mid;
		else hi = mid - 1;
	}
	return lo;
}

/** Real time (ms) → compressed coordinate. Outside the domain it extrapolates at real scale. */
export function timeToC(axis: TimelineAxis, t: number): number {
	const ps = axis.pieces;
	if (ps.length === 0) return 0;
	if (t <= ps[0].t0) return ps[0].c0 - (ps[0].t0 - t);
	const last = ps[ps.length - 1];
	if (t >= last.t1) return last.c1 + (t - last.t1);
	const p = ps[pieceAt(ps, t, 't')];
	const span = p.t1 - p.t0;
	return span > 0 ? p.c0 + ((t - p.t0) / span) * (p.c1 - p.c0) : p.c0;
}

/**
 * timeToC for many times in a row: remembers the piece of the last call and tries it (and the
 * next) before a binary search, so a run of mostly ascending times costs O(1) each. Same results.
 */
export function timeToCMapper(axis: TimelineAxis): (t: number) => number {
	const ps = axis.pieces;
	const n = ps.length;
	let k = 0;
	return (t) => {
		if (n === 0) return 0;
		if (t <= ps[0].t0) return ps[0].c0 - (ps[0].t0 - t);
		const last = ps[n - 1];
		if (t >= last.t1) return last.c1 + (t - last.t1);
		// The piece pieceAt picks: the last one starting at or before t.
		if (!(ps[k].t0 <= t && (k + 1 >= n || ps[k + 1].t0 > t))) {
			k = k + 1 < n && ps[k + 1].t0 <= t && (k + 2 >= n || ps[k + 2].t0 > t) ? k + 1 : pieceAt(ps, t, 't');
		}
		const p = ps[k];
		const span = p.t1 - p.t0;
		return span > 0 ? p.c0 + ((t - p.t0) / span) * (p.c1 - p.c0) : p.c0;
	};
}

/** Compressed coordinate → real time (ms); inverse of timeToC. */
export function cToTime(axis: TimelineAxis, c: number): number {
	const ps = axis.pieces;
	if (ps.length === 0) return 0;
	if (c <= ps[0].c0) return ps[0].t0 - (ps[0].c0 - c);
	const last = ps[ps.length - 1];
	if (c >= last.c1) return last.t1 + (c - last.c1);
	const p = ps[pieceAt(ps, c, 'c')];
	const span = p.c1 - p.c0;
	return span > 0 ? p.t0 + ((c - p.c0) / span) * (p.t1 - p.t0) : p.t0;
}

export interface Tick {
	c: number;
	t: number;
	label: string;
	/** Local midnight (a new day): drawn stronger, labelled with the date. */
	major: boolean;
}

const STEPS = [
	1000, 5000, 10_000, 30_000, MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR,
	6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** Formats epoch ms in a fixed UTC offset (minutes east of UTC), so labels are deterministic. */
export function formatClock(t: number, offsetMin: number, seconds = false): string {
	const d = new Date(t + offsetMin * MINUTE);
	const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
	return seconds ? `${hm}:${pad2(d.getUTCSeconds())}` : hm;
}
export function formatDate(t: number, offsetMin: number): string {
	const d = new Date(t + offsetMin * MINUTE);
	return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** Minutes east of UTC, fixed or per instant (daylight saving): t => -new Date(t).getTimezoneOffset(). */
export type UtcOffset = number | ((t: number) => number);

/**
 * Ticks for the visible compressed window [c0, c1], at most about `maxTicks`, on round local
 * times. Collapsed pieces get no ticks (they carry their own label).
 */
export function axisTicks(axis: TimelineAxis, c0: number, c1: number, maxTicks: number, offset: UtcOffset = 0): Tick[] {
	const visible = axis.pieces
		.filter((p) => !p.collapsed && p.c1 >= c0 && p.c0 <= c1)
		.map((p) => [cToTime(axis, Math.max(c0, p.c0)), cToTime(axis, Math.min(c1, p.c1))] as const);
	const span = visible.reduce((s, [a, b]) => s + (b - a), 0);
	if (span <= 0 || maxTicks < 1) return [];
	const step = STEPS.find((s) => span / s <= maxTicks) ?? Math.ceil(span / maxTicks / DAY) * DAY;
	const offAt = typeof offset === 'function' ? offset : () => offset;
	const ticks: Tick[] = [];
	for (const [a, b] of visible) {
		// Align to round local times using the offset at the piece start (steps are ≤ 1 week).
		const off = offAt(a) * MINUTE;
		for (let t = Math.ceil((a + off) / step) * step - off; t <= b; t += step) {
			const offMin = offAt(t);
			const major = (t + offMin * MINUTE) % DAY === 0;
			const label = step >= DAY || major ? formatDate(t, offMin) : formatClock(t, offMin, step < MINUTE);
			ticks.push({ c: timeToC(axis, t), t, label, major });
		}
	}
	return ticks;
}
