// A session's detail timeline as a Gantt of delegation: the main lane, then one lane per
// subagent, whose bar starts at the Task / Agent call that spawned it and ends when its result
// (or the child's last activity) came back. One lane each, in spawn order, so subagents that ran
// in parallel sit side by side on their own rows and are never drawn over each other.
// Pure: takes a finished layout (layout.ts) and returns a new one with the lanes appended; the
// main lanes' bars keep their indexes (subagent bars come after them).
import type { TimelineBar, TimelineLane, TimelineLayout } from './layout.ts';

/** Lane key of a subagent lane: `<session key>#<tool_use id>` (its bars keep the session's laneKey). */
export const subagentLaneKey = (laneKey: string, toolUseId: string) => `${laneKey}#${toolUseId}`;

export function withSubagentLanes(layout: TimelineLayout): TimelineLayout {
	if (!layout.subBars.length) return layout;
	const lanes: TimelineLane[] = layout.lanes.slice();
	const bars: TimelineBar[] = layout.bars.slice();
	for (const main of layout.lanes) {
		const subs = layout.subBars
			.filter((s) => s.lane === main.index)
			.sort((a, b) => a.t0 - b.t0 || a.t1 - b.t1 || (a.toolUseId < b.toolUseId ? -1 : 1));
		for (const s of subs) {
			const index = lanes.length;
			const bar: TimelineBar = {
				index: bars.length,
				segmentId: `agent:${s.toolUseId}`,
				turnId: layout.bars[s.bar]?.turnId ?? '',
				// Clicks land in the session's own chat, on the call that spawned the subagent.
				laneKey: s.laneKey,
				lane: index,
				t0: s.t0,
				t1: Math.max(s.t0, s.t1),
				gaps: [],
				target: s.callUuid,
				targetKind: s.callUuid ? 'trigger' : null,
				replyUuid: s.resultUuid,
				workUuid: null,
				triggerUuid: s.callUuid,
				author: 'none',
				gist: s.finished ? s.label : `${s.label} (unfinished)`,
				atoms: 0,
				compaction: false
			};
			bars.push(bar);
			lanes.push({ key: subagentLaneKey(s.laneKey, s.toolUseId), label: `↳ ${s.label}`, index, t0: bar.t0, t1: bar.t1, barStart: bar.index, barEnd: bar.index + 1 });
		}
	}
	return { ...layout, lanes, bars };
}
