import { describe, expect, it } from 'vitest';
import { buildAxis } from './axis.ts';
import { withSubagentLanes } from './subagent-lanes.ts';
import type { TimelineBar, TimelineLayout, TimelineSubBar } from './layout.ts';

const bar = (index: number, t0: number, t1: number): TimelineBar => ({
	index, segmentId: `s${index}`, turnId: `t${index}`, laneKey: 'S', lane: 0, t0, t1, gaps: [], target: null, targetKind: null,
	replyUuid: null, workUuid: null, triggerUuid: null, author: 'human', gist: '', atoms: 1, compaction: false
});
const sub = (toolUseId: string, t0: number, t1: number, finished = true): TimelineSubBar => ({
	bar: 0, laneKey: 'S', lane: 0, toolUseId, t0, t1, label: `task ${toolUseId}`, callUuid: `call-${toolUseId}`, resultUuid: null, finished
});
function layout(subBars: TimelineSubBar[]): TimelineLayout {
	return {
		lanes: [{ key: 'S', label: 'Main', index: 0, t0: 0, t1: 100, barStart: 0, barEnd: 2 }],
		bars: [bar(0, 0, 50), bar(1, 60, 100)],
		dots: [], subBars, idle: [], markers: [], axis: buildAxis([[0, 100]])
	};
}

describe('withSubagentLanes', () => {
	it('adds one lane per subagent in spawn order, each bar starting at its call', () => {
		const out = withSubagentLanes(layout([sub('b', 30, 90), sub('a', 10, 40)]));
		expect(out.lanes.map((l) => l.label)).toEqual(['Main', '↳ task a', '↳ task b']);
		expect(out.bars.slice(2).map((b) => [b.lane, b.t0, b.t1, b.target, b.laneKey])).toEqual([
			[1, 10, 40, 'call-a', 'S'],
			[2, 30, 90, 'call-b', 'S']
		]);
		expect(out.lanes.slice(1).map((l) => [l.barStart, l.barEnd])).toEqual([[2, 3], [3, 4]]);
	});

	it('parallel subagents never share a lane, so no two bars overlap on one row', () => {
		const out = withSubagentLanes(layout([sub('a', 10, 80), sub('b', 10, 80), sub('c', 20, 30)]));
		const rows = new Map<number, [number, number][]>();
		for (const b of out.bars.slice(2)) rows.set(b.lane, [...(rows.get(b.lane) ?? []), [b.t0, b.t1]]);
		expect(rows.size).toBe(3);
		for (const spans of rows.values()) expect(spans).toHaveLength(1);
	});

	it('keeps the main bars (and their indexes) and marks an unfinished subagent', () => {
		const out = withSubagentLanes(layout([sub('a', 10, 40, false)]));
		expect(out.bars.slice(0, 2).map((b) => b.index)).toEqual([0, 1]);
		expect(out.bars[2].gist).toBe('task a (unfinished)');
		expect(withSubagentLanes(layout([]))).toEqual(layout([]));
	});
});
