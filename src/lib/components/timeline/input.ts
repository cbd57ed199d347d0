// What wheel, drag and keyboard input do to the timeline, as pure functions: the new view for a
// wheel step or a drag, and the action a key press asks for. TimelineView.svelte.ts applies them.

import type { TimelineLayout } from '$lib/view/timeline/index.ts';
import { nearestBarOnLane, panBy, zoomAt, type Geometry, type View } from './geometry.ts';

/** The parts of a WheelEvent that matter here. */
export interface WheelStep {
	deltaX: number;
	deltaY: number;
	/** 0 pixels, 1 lines (16 px each), 2 pages (one plot width). */
	deltaMode: number;
	shiftKey: boolean;
	ctrlKey: boolean;
}

/**
 * A wheel step at plot x: a mostly horizontal (or Shift) scroll pans, a vertical one zooms around
 * the pointer. A pinch on a trackpad arrives as Ctrl + wheel and zooms faster.
 */
export function wheelView(v: View, w: WheelStep, x: number, plotW: number, width: number): View {
	const k = Math.max(1, plotW) / Math.max(1e-9, v.c1 - v.c0);
	const unit = w.deltaMode === 1 ? 16 : w.deltaMode === 2 ? plotW : 1;
	const dx = w.deltaX * unit;
	const dy = w.deltaY * unit;
	if (w.shiftKey || Math.abs(dx) > Math.abs(dy)) return panBy(v, (dx || dy) / k, width);
	return zoomAt(v, Math.exp(dy * (w.ctrlKey ? 0.01 : 0.0015)), v.c0 + x / k, width);
}

/** The view after dragging the plot dx px from where the drag started (with view `start`). */
export function dragView(start: View, dx: number, plotW: number, width: number): View {
	return panBy(start, -dx / (plotW / (start.c1 - start.c0)), width);
}

export type KeyAction =
	/** Move keyboard focus to a bar (null: nowhere to go, the key is still taken). */
	| { kind: 'focus'; index: number | null }
	/** Open the focused bar, or its prompt dot, in the chat. */
	| { kind: 'open-bar'; index: number }
	| { kind: 'open-dot'; index: number }
	| { kind: 'zoom'; factor: number; anchor: number }
	| { kind: 'fit' }
	/** Drop focus and tooltip. */
	| { kind: 'clear' };

/**
 * The action for a key press on the plot, given the focused bar (or null), or null when the key
 * is not the timeline's. Arrows move along a lane and between lanes (to the bar nearest in time),
 * Home / End jump to a lane's ends, Enter opens (Shift+Enter the prompt), + / − / 0 zoom.
 */
export function keyAction(key: string, shift: boolean, layout: TimelineLayout, g: Geometry, view: View, focus: number | null): KeyAction | null {
	const { bars, lanes } = layout;
	if (bars.length === 0) return null;
	const cur = focus !== null && bars[focus] ? bars[focus] : null;
	const lane = cur ? lanes[cur.lane] : lanes.find((l) => l.barEnd > l.barStart)!;
	const anchor = cur ? (g.barC0[cur.index] + g.barC1[cur.index]) / 2 : (view.c0 + view.c1) / 2;
	switch (key) {
		case 'ArrowRight':
			return { kind: 'focus', index: cur ? Math.min(cur.index + 1, lane.barEnd - 1) : lane.barStart };
		case 'ArrowLeft':
			return { kind: 'focus', index: cur ? Math.max(cur.index - 1, lane.barStart) : lane.barStart };
		case 'ArrowDown':
		case 'ArrowUp': {
			const step = key === 'ArrowDown' ? 1 : -1;
			const c = cur ? g.barC0[cur.index] : view.c0;
			for (let l = (cur?.lane ?? -1) + step; l >= 0 && l < lanes.length; l += step) {
				const n = nearestBarOnLane(layout, g, l, c);
				if (n !== null) return { kind: 'focus', index: n };
			}
			return { kind: 'focus', index: null };
		}
		case 'Home':
			return { kind: 'focus', index: lane.barStart };
		case 'End':
			return { kind: 'focus', index: lane.barEnd - 1 };
		case 'Enter':
		case ' ': {
			if (!cur) return { kind: 'focus', index: lane.barStart };
			const di = g.dotOfBar[cur.index];
			return shift && di >= 0 ? { kind: 'open-dot', index: di } : { kind: 'open-bar', index: cur.index };
		}
		case '+':
		case '=':
			return { kind: 'zoom', factor: 0.5, anchor };
		case '-':
		case '_':
			return { kind: 'zoom', factor: 2, anchor };
		case '0':
			return { kind: 'fit' };
		case 'Escape':
			return { kind: 'clear' };
		default:
			return null;
	}
}
