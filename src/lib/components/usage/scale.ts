// Chart geometry for the usage charts: linear scales, round tick values, SVG path strings and the
// nearest point to a pointer. Pure functions over numbers, so they are tested without a DOM.

export type Scale = (v: number) => number;

/** Maps [d0, d1] onto [r0, r1] (a zero-width domain maps to the middle). */
export function linear(d0: number, d1: number, r0: number, r1: number): Scale {
	const span = d1 - d0;
	if (span === 0) return () => (r0 + r1) / 2;
	const k = (r1 - r0) / span;
	return (v) => r0 + (v - d0) * k;
}

/** Round tick values from 0 to at least max, about `count` of them (1, 2 or 5 × a power of ten apart). */
export function niceTicks(max: number, count = 4): number[] {
	if (!(max > 0)) return [0];
	const raw = max / count;
	const pow = 10 ** Math.floor(Math.log10(raw));
	const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
	const out: number[] = [];
	for (let v = 0; v < max + step * 0.999; v += step) out.push(Number(v.toPrecision(12)));
	return out;
}

/** Evenly spaced time ticks over [t0, t1] (epoch ms), at most `count`. */
export function timeTicks(t0: number, t1: number, count = 4): number[] {
	if (!(t1 > t0)) return [t0];
	const out: number[] = [];
	for (let i = 0; i <= count; i++) out.push(t0 + ((t1 - t0) * i) / count);
	return out;
}

/** A polyline through the points ("M x y L x y …"); `step` holds each value until the next x. */
export function linePath(xs: ArrayLike<number>, ys: ArrayLike<number>, step = false): string {
	const n = Math.min(xs.length, ys.length);
	if (!n) return '';
	const r = (v: number) => Math.round(v * 10) / 10;
	let d = `M${r(xs[0])} ${r(ys[0])}`;
	for (let i = 1; i < n; i++) {
		if (step) d += `L${r(xs[i])} ${r(ys[i - 1])}`;
		d += `L${r(xs[i])} ${r(ys[i])}`;
	}
	return d;
}

/** Index of the value in ascending `sorted` closest to v, or -1 when empty. */
export function nearestIndex(sorted: ArrayLike<number>, v: number): number {
	let lo = 0;
	let hi = sorted.length - 1;
	if (hi < 0) return -1;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (sorted[mid] < v) lo = mid + 1;
		else hi = mid;
	}
	return lo > 0 && v - sorted[lo - 1] <= sorted[lo] - v ? lo - 1 : lo;
}
