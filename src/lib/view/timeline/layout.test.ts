import { describe, expect, it } from 'vitest';
import type { Atom, Author, Session, Turn } from '../../model/index.ts';
import { axisTicks, timeToC } from './axis.ts';
import { atomMs, authorClass, findBar, layoutTimeline, type LaneInput } from './layout.ts';
import { syntheticLayoutInput } from './synthetic.ts';

const T = Date.UTC(2026, 5, 10, 13, 0, 0) / 1000; // epoch seconds
const SID = 'sess-1';

// ── tiny builders: atoms as the model emits them (viewer mode, whole seconds) ──
const prompt = (uuid: string, t: number, text: string, author: Author = 'human', extra: Partial<Atom> = {}): Atom => ({
	type: 'user', uuid, session_id: SID, t: T + t, author, message: { role: 'user', content: [{ type: 'text', text }] }, ...extra
});
const reply = (uuid: string, t: number, text: string, stop = 'end_turn'): Atom => ({
	type: 'assistant', uuid, session_id: SID, t: T + t, message: { role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop }
});
const call = (uuid: string, t: number, id: string, name = 'Bash', input: unknown = {}): Atom => ({
	type: 'assistant', uuid, session_id: SID, t: T + t, message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }], stop_reason: 'tool_use' }
});
const thinking = (uuid: string, t: number): Atom => ({
	type: 'assistant', uuid, session_id: SID, t: T + t, message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }] }
});
const result = (uuid: string, t: number, id: string): Atom => ({
	type: 'user', uuid, session_id: SID, t: T + t, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] }
});
const idle = (t: number, end: number): Atom => ({ type: 'idle', uuid: null, session_id: SID, t: T + t, end: T + end });
const boundary = (uuid: string, t: number): Atom => ({
	type: 'system', subtype: 'compact_boundary', uuid, session_id: SID, t: T + t, compact_metadata: { trigger: 'auto', pre_tokens: 123456, post_tokens: null }, summary: 's'
});

function turn(atoms: Atom[], trigger: string | null = atoms[0]?.uuid ?? null): Turn {
	const end = Math.max(...atoms.map((a) => a.end ?? a.t));
	return { id: `${SID}:${atoms[0].t}:x`, trigger: trigger ? { uuid: trigger } : null, t: atoms[0].t, end, ended: true, atoms };
}
function session(turns: Turn[], rompUuid = SID): Session {
	return { rompUuid, name: rompUuid, dir: '', color: '', leafFsid: rompUuid, landedTextUuids: [], turns };
}
const lane = (s: Session, key = s.rompUuid, children?: LaneInput['children']): LaneInput => ({ key, label: key, session: s, children });
const ms = (t: number) => (T + t) * 1000;

describe('bars', () => {
	it('run from the input to the last non-idle atom, never through idle time', () => {
		const s = session([
			turn([prompt('u1', 0, 'first ask'), reply('a1', 10, 'done'), idle(11, 400)]),
			turn([prompt('u2', 400, 'second ask'), reply('a2', 410, 'done too'), idle(411, 600)])
		]);
		const { bars, idle: idles } = layoutTimeline([lane(s)]);
		expect(bars.map((b) => [b.t0, b.t1])).toEqual([[ms(0), ms(10)], [ms(400), ms(410)]]);
		expect(idles.map((i) => [i.t0, i.t1])).toEqual([[ms(11), ms(400)], [ms(411), ms(600)]]);
		expect(bars[0].gaps).toEqual([]);
	});

	it('start at the first non-idle atom when a leading waiting row was prepended', () => {
		const s = session([turn([idle(-300, 0), prompt('u1', 0, 'go'), reply('a1', 20, 'ok')], null)]);
		const [bar] = layoutTimeline([lane(s)]).bars;
		expect([bar.t0, bar.t1]).toEqual([ms(0), ms(20)]);
	});

	it('use millisecond precision when the atoms carry it', () => {
		const p = { ...prompt('u1', 0, 'go'), ms: ms(0) + 250 };
		const a = { ...reply('a1', 1, 'ok'), ms: ms(1) + 750 };
		const [bar] = layoutTimeline([lane(session([turn([p, a])]))]).bars;
		expect([bar.t0, bar.t1]).toEqual([ms(0) + 250, ms(1) + 750]);
		expect(atomMs(prompt('x', 5, ''))).toBe(ms(5));
	});

	it('cut idle spans inside a segment out as gaps', () => {
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 5, 't1'), idle(6, 100), result('r1', 100, 't1'), reply('a1', 110, 'ok')])]);
		const [bar] = layoutTimeline([lane(s)]).bars;
		expect(bar.gaps).toEqual([[ms(6), ms(100)]]);
		expect([bar.t0, bar.t1]).toEqual([ms(0), ms(110)]);
	});

	it('split a turn at each input: an absorbed prompt opens its own bar and dot', () => {
		const peer: Author = { peer: 'other-sid', mid: 'm1', kind: 'question' };
		const s = session([turn([
			prompt('u1', 0, 'main ask'), call('c1', 5, 't1'),
			prompt('sys', 6, '<task-notification>\nbg done\n</task-notification>', 'system'),
			prompt('q1', 8, 'also this', peer, { absorbed: true }), result('r1', 9, 't1'), reply('a1', 30, 'both done')
		])]);
		const { bars, dots } = layoutTimeline([lane(s)]);
		expect(bars.map((b) => [b.triggerUuid, b.t0, b.t1])).toEqual([['u1', ms(0), ms(6)], ['q1', ms(8), ms(30)]]);
		expect(dots.map((d) => [d.triggerUuid, d.author, d.absorbed, d.bar])).toEqual([['u1', 'human', false, 0], ['q1', 'peer', true, 1]]);
	});

	it('carry the segment id, lane key and turn id', () => {
		const s = session([turn([prompt('u1', 0, 'go'), reply('a1', 3, 'ok')])]);
		const [bar] = layoutTimeline([lane(s, 'lane-a')]).bars;
		expect(bar.segmentId).toMatch(new RegExp(`^${SID}:${T}:[0-9a-f]{8}$`));
		expect(bar.laneKey).toBe('lane-a');
		expect(bar.turnId).toBe(s.turns[0].id);
		expect(findBar(layoutTimeline([lane(s, 'lane-a')]), bar.segmentId)?.index).toBe(0);
	});
});

describe('click targets', () => {
	it('land on the reply: the last assistant atom with text', () => {
		const s = session([turn([prompt('u1', 0, 'go'), thinking('th', 1), reply('a1', 2, 'reading', 'tool_use'), call('c1', 3, 't1'), result('r1', 4, 't1'), reply('a2', 5, 'final answer'), thinking('th2', 6)])]);
		const [bar] = layoutTimeline([lane(s)]).bars;
		expect(bar).toMatchObject({ target: 'a2', targetKind: 'reply', replyUuid: 'a2', workUuid: 'a1', triggerUuid: 'u1' });
	});

	it('fall back to the first work atom (tool call), never a thinking-only atom', () => {
		const s = session([turn([prompt('u1', 0, 'go'), thinking('th', 1), call('c1', 2, 't1'), result('r1', 3, 't1')])]);
		expect(layoutTimeline([lane(s)]).bars[0]).toMatchObject({ target: 'c1', targetKind: 'work', replyUuid: null });
	});

	it('fall back to the trigger when the segment did no work', () => {
		const s = session([turn([prompt('u1', 0, '[Request interrupted by user]'), thinking('th', 1)])]);
		expect(layoutTimeline([lane(s)]).bars[0]).toMatchObject({ target: 'u1', targetKind: 'trigger' });
	});

	it('skip API-error atoms', () => {
		const err = { ...reply('e1', 5, 'API Error: 529'), isApiError: true as const };
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 2, 't1'), result('r1', 3, 't1'), err])]);
		expect(layoutTimeline([lane(s)]).bars[0].target).toBe('c1');
	});

	it('use the first atom as the anchor of a trigger-less compaction segment', () => {
		const s = session([turn([prompt('u1', 0, 'go'), reply('a1', 5, 'ok')]), turn([boundary('cb1', 100)], null)]);
		const { bars, dots, markers } = layoutTimeline([lane(s)]);
		expect(bars[1]).toMatchObject({ target: 'cb1', targetKind: 'anchor', triggerUuid: null, author: 'none', compaction: true, gist: 'Context compacted (auto)' });
		expect(dots).toHaveLength(1);
		expect(markers).toEqual([{ kind: 'compaction', laneKey: SID, lane: 0, t: ms(100), uuid: 'cb1', trigger: 'auto', preTokens: 123456 }]);
	});
});

describe('prompt dots', () => {
	it('are coloured by author class', () => {
		const s = session([
			turn([prompt('h', 0, 'typed'), reply('a1', 1, 'ok')]),
			turn([prompt('k', 10, 'from the sdk', 'sdk'), reply('a2', 11, 'ok')]),
			turn([prompt('r', 20, '<!-- romp-injected --><!-- romp-auto -->keep going', 'romp', { rompAuto: true }), reply('a3', 21, 'ok')]),
			turn([prompt('p', 30, 'hello', { peer: null, mid: 'x', kind: '' }), reply('a4', 31, 'ok')]),
			turn([prompt('c', 40, '/usage', 'human', { command: '/usage' })])
		]);
		const { dots } = layoutTimeline([lane(s)]);
		expect(dots.map((d) => [d.triggerUuid, d.author])).toEqual([['h', 'human'], ['k', 'sdk'], ['r', 'romp'], ['p', 'peer'], ['c', 'human']]);
		expect(dots.find((d) => d.triggerUuid === 'r')).toMatchObject({ auto: true, gist: 'keep going' });
		expect(dots.find((d) => d.triggerUuid === 'c')?.command).toBe('/usage');
	});

	it('authorClass maps every author', () => {
		expect(['human', 'sdk', 'romp', 'teammate', 'system'].map((a) => authorClass(a as Author))).toEqual(['human', 'sdk', 'romp', 'teammate', 'system']);
		expect(authorClass({ peer: 'p', mid: 'm', kind: 'delegate' })).toBe('peer');
		expect(authorClass(undefined)).toBe('none');
		expect(authorClass(null)).toBe('none');
	});

	it('never come from a system notice (it folds into the previous segment)', () => {
		const s = session([turn([prompt('u1', 0, 'go'), reply('a1', 1, 'ok', 'tool_use'), prompt('n1', 2, '<system-reminder>x</system-reminder>', 'system'), reply('a2', 3, 'ok')])]);
		const { bars, dots } = layoutTimeline([lane(s)]);
		expect(bars).toHaveLength(1);
		expect(dots.map((d) => d.triggerUuid)).toEqual(['u1']);
	});

	it('carry the prompt gist', () => {
		const s = session([turn([prompt('u1', 0, '<command-name>/review</command-name>\n<command-args>the ledger module please</command-args>'), reply('a1', 1, 'ok')])]);
		const { bars, dots } = layoutTimeline([lane(s)]);
		expect(bars[0].gist).toBe('/review the ledger module please');
		expect(dots[0].gist).toBe(bars[0].gist);
	});
});

describe('subagent sub-bars', () => {
	it('span a delegation from its call to its result', () => {
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 5, 'task1', 'Task', { description: 'explore code' }), result('r1', 60, 'task1'), reply('a1', 70, 'done')])]);
		const { subBars } = layoutTimeline([lane(s)]);
		expect(subBars).toEqual([{ bar: 0, laneKey: SID, lane: 0, toolUseId: 'task1', t0: ms(5), t1: ms(60), label: 'explore code', callUuid: 'c1', resultUuid: 'r1', finished: true }]);
	});

	it('widen to the child transcript and take its description', () => {
		const child = session([turn([prompt('cu', 6, 'child prompt'), reply('ca', 90, 'child done')])], 'child');
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 5, 'bg1', 'Agent', {}), result('r1', 6, 'bg1'), reply('a1', 100, 'done')])]);
		const { subBars } = layoutTimeline([lane(s, SID, { bg1: { description: 'background audit', agentType: 'general', result: { session: child } } })]);
		expect(subBars[0]).toMatchObject({ t0: ms(5), t1: ms(90), label: 'background audit', finished: true });
	});

	it('end at a result that lands in a later turn (a background delegation), the first one counting', () => {
		const s = session([
			turn([prompt('u1', 0, 'go'), call('c1', 5, 'bg1', 'Task', { description: 'audit' }), reply('a1', 10, 'started it')]),
			turn([prompt('u2', 100, 'next'), result('r1', 150, 'bg1'), result('r2', 160, 'bg1'), reply('a2', 170, 'done')])
		]);
		const { subBars } = layoutTimeline([lane(s)]);
		expect(subBars).toHaveLength(1);
		expect(subBars[0]).toMatchObject({ bar: 0, t0: ms(5), t1: ms(150), resultUuid: 'r1', finished: true });
	});

	it('run to the bar end when the delegation never finished', () => {
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 5, 'task1', 'Task', { subagent_type: 'Explore' }), thinking('th', 30)])]);
		expect(layoutTimeline([lane(s)]).subBars[0]).toMatchObject({ t1: ms(30), finished: false, label: 'Explore', resultUuid: null });
	});

	it('ignore ordinary tool calls', () => {
		const s = session([turn([prompt('u1', 0, 'go'), call('c1', 5, 't1', 'Bash'), result('r1', 6, 't1')])]);
		expect(layoutTimeline([lane(s)]).subBars).toEqual([]);
	});
});

describe('lanes and the shared axis', () => {
	const a = session([
		turn([prompt('a1u', 0, 'a one'), reply('a1a', 600, 'ok')]),
		turn([prompt('a2u', 3 * 3600, 'a two'), reply('a2a', 3 * 3600 + 60, 'ok'), idle(3 * 3600 + 61, 9 * 3600)])
	], 'A');
	const b = session([turn([prompt('b1u', 900, 'b one'), reply('b1a', 1500, 'ok')])], 'B');

	it('gives one lane per session, bars in time order with their lane ranges', () => {
		const layout = layoutTimeline([lane(a), lane(b)]);
		expect(layout.lanes.map((l) => [l.key, l.barStart, l.barEnd, l.t0, l.t1])).toEqual([
			['A', 0, 2, ms(0), ms(3 * 3600 + 60)],
			['B', 2, 3, ms(900), ms(1500)]
		]);
		expect(layout.bars.map((x) => x.index)).toEqual([0, 1, 2]);
		expect(layout.bars[2].lane).toBe(1);
	});

	it('collapses only stretches with no bar on ANY lane (idle does not count as activity)', () => {
		const { axis } = layoutTimeline([lane(a), lane(b)]);
		// A is quiet 600..10800 s, but B works 900..1500 s: only 1500..10800 s (≈2.6 h) collapses.
		const gaps = axis.pieces.filter((p) => p.collapsed);
		expect(gaps).toHaveLength(1);
		expect(gaps[0].label).toBe('3 h');
		expect(gaps[0].t0).toBeGreaterThan(ms(1500));
		expect(gaps[0].t1).toBeLessThan(ms(3 * 3600));
		// the trailing idle span (to +9 h) is not activity, so the axis ends near the last bar
		expect(axis.t1).toBeLessThan(ms(3 * 3600 + 60) + 120_000);
	});

	it('maps every bar inside the axis, in order', () => {
		const { axis, bars } = layoutTimeline([lane(a), lane(b)]);
		for (const bar of bars) {
			expect(timeToC(axis, bar.t0)).toBeGreaterThanOrEqual(0);
			expect(timeToC(axis, bar.t1)).toBeLessThanOrEqual(axis.width);
			expect(timeToC(axis, bar.t1)).toBeGreaterThanOrEqual(timeToC(axis, bar.t0));
		}
		expect(axisTicks(axis, 0, axis.width, 8).length).toBeGreaterThan(0);
	});

	it('is empty but well-formed without sessions', () => {
		expect(layoutTimeline([])).toEqual({ lanes: [], bars: [], dots: [], subBars: [], idle: [], markers: [], axis: { pieces: [], t0: 0, t1: 0, width: 0 } });
	});

	it('is plain data that survives structured cloning (worker → main thread)', () => {
		const layout = layoutTimeline([lane(a), lane(b)]);
		expect(structuredClone(layout)).toEqual(layout);
		expect(JSON.parse(JSON.stringify(layout))).toEqual(layout);
	});
});

describe('synthetic input', () => {
	it('yields about the requested number of segments, laid out in per-lane time order', () => {
		const layout = layoutTimeline(syntheticLayoutInput(5000, { lanes: 3 }));
		expect(layout.bars.length).toBeGreaterThan(4900);
		expect(layout.bars.length).toBeLessThan(5100);
		expect(layout.lanes).toHaveLength(3);
		for (const l of layout.lanes) {
			for (let i = l.barStart + 1; i < l.barEnd; i++) expect(layout.bars[i].t0).toBeGreaterThanOrEqual(layout.bars[i - 1].t0);
		}
		expect(layout.subBars.length).toBeGreaterThan(0);
		expect(layout.markers.length).toBeGreaterThan(0);
		expect(layout.axis.pieces.some((p) => p.collapsed)).toBe(true);
		expect(new Set(layout.dots.map((d) => d.author))).toEqual(new Set(['human', 'sdk', 'peer']));
	});
});
