// Text the timeline shows about its items: durations, time spans, the hover tooltip of a bar, a
// prompt dot or a collapsed gap, and the sentence announced when keyboard focus moves to a bar.
// Pure functions of the layout; local time comes in as a UtcOffset so tests can pin it.

import {
	formatClock,
	formatDate,
	formatGap,
	type AuthorClass,
	type TimelineBar,
	type TimelineLayout
} from '$lib/view/timeline/index.ts';
import type { Target } from './geometry.ts';

/** Minutes east of UTC at instant t, in the browser's zone (follows daylight saving). */
export type TzOffset = (t: number) => number;
export const localTz: TzOffset = (t) => -new Date(t).getTimezoneOffset();

export const AUTHOR_LABEL: Record<AuthorClass, string> = {
	human: 'Human',
	sdk: 'SDK',
	peer: 'Peer message',
	romp: 'romp',
	teammate: 'Teammate',
	system: 'System',
	none: 'No author'
};

/** What the pointer (or keyboard focus) is on, and where the tooltip is anchored (plot px). */
export type Hover = Target & { x: number; y: number };

export interface Tooltip {
	x: number;
	y: number;
	/** Open to the left of the anchor (near the right edge of the plot). */
	flip: boolean;
	title: string;
	lines: string[];
}

/** "42 s", "7 min", "2 h", "1 h 5 min". */
export function duration(ms: number): string {
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s} s`;
	const m = Math.round(s / 60);
	if (m < 60) return `${m} min`;
	const h = Math.floor(m / 60);
	return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

/** "Jun 10 13:05" (or with seconds). */
export function when(t: number, tz: TzOffset = localTz, seconds = false): string {
	return `${formatDate(t, tz(t))} ${formatClock(t, tz(t), seconds)}`;
}

/** "Jun 10 13:05–13:07 (2 min)"; the end carries its date only when it is another day. */
export function barSpan(bar: TimelineBar, tz: TzOffset = localTz): string {
	const sameDay = formatDate(bar.t0, tz(bar.t0)) === formatDate(bar.t1, tz(bar.t1));
	const end = sameDay ? formatClock(bar.t1, tz(bar.t1)) : when(bar.t1, tz);
	return `${when(bar.t0, tz)}–${end} (${duration(bar.t1 - bar.t0)})`;
}

/** Announced to screen readers when keyboard focus moves to a bar. */
export function barLabel(bar: TimelineBar, tz: TzOffset = localTz): string {
	return `${bar.gist} — ${barSpan(bar, tz)}`;
}

/** The tooltip for what is hovered, or null (nothing hovered, or a stale index). */
export function tooltipOf(layout: TimelineLayout, hover: Hover | null, plotW: number, tz: TzOffset = localTz): Tooltip | null {
	if (!hover) return null;
	const { x, y } = hover;
	const flip = x > plotW - 260;
	if (hover.kind === 'bar') {
		const bar = layout.bars[hover.index];
		if (!bar) return null;
		const lines = [`${layout.lanes[bar.lane]?.label ?? ''} · ${barSpan(bar, tz)}`];
		const idleMs = bar.gaps.reduce((s, [a, b]) => s + (b - a), 0);
		const steps = `${bar.atoms} step${bar.atoms === 1 ? '' : 's'}`;
		lines.push(`${AUTHOR_LABEL[bar.author]} · ${steps}${idleMs > 0 ? ` · idle ${duration(idleMs)} inside` : ''}`);
		return { x, y, flip, title: bar.gist, lines };
	}
	if (hover.kind === 'dot') {
		const dot = layout.dots[hover.index];
		if (!dot) return null;
		const kind = [dot.command ? `command ${dot.command}` : '', dot.absorbed ? 'sent mid-turn' : '', dot.auto ? 'auto-nudge' : '']
			.filter(Boolean)
			.join(', ');
		const line = `${AUTHOR_LABEL[dot.author]} prompt · ${when(dot.t, tz, true)}${kind ? ` · ${kind}` : ''}`;
		return { x, y, flip, title: dot.gist, lines: [line] };
	}
	const p = layout.axis.pieces[hover.index];
	if (!p) return null;
	return { x, y, flip, title: `${formatGap(p.t1 - p.t0)} without activity`, lines: [`${when(p.t0, tz)} – ${when(p.t1, tz)}`] };
}
