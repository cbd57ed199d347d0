import { describe, expect, it } from 'vitest';
import { segmentsOf } from './segments.ts';
import { sha1Hex } from './sha1.ts';
import { groupTurns } from './turns.ts';
import type { Atom } from './types.ts';

const S = 'sess';
const u = (uuid: string, t: number, text: string, extra: Partial<Atom> = {}): Atom =>
	({ type: 'user', uuid, session_id: S, t, author: 'human', message: { role: 'user', content: [{ type: 'text', text }] }, ...extra });
const a = (uuid: string, t: number, stop: string | null, text = ''): Atom =>
	({ type: 'assistant', uuid, session_id: S, t, message: { role: 'assistant', content: text ? [{ type: 'text', text }] : [], ...(stop ? { stop_reason: stop } : {}) } });

describe('groupTurns', () => {
	it('opens a turn at a prompt after end_turn; a prompt before it is a mid-turn input', () => {
		const turns = groupTurns([u('u1', 0, 'one'), a('a1', 1, 'tool_use'), u('u2', 2, 'more'), a('a2', 3, 'end_turn'), u('u3', 4, 'next'), a('a3', 5, null)], S);
		expect(turns.map((t) => [t.trigger?.uuid, t.atoms.map((x) => x.uuid), t.ended])).toEqual([['u1', ['u1', 'a1', 'u2', 'a2'], true], ['u3', ['u3', 'a3'], false]]);
	});
	it('hashes the trigger text into the id; a trigger-less turn hashes its first atom text', () => {
		const turns = groupTurns([a('a0', 7, 'end_turn', 'autonomous'), u('u1', 9, 'abc')], S);
		expect(turns[0].id).toBe(`${S}:7:${sha1Hex('autonomous').slice(0, 8)}`);
		expect(turns[1].id).toBe(`${S}:9:a9993e36`); // sha1("abc")
	});
	it('a compaction boundary opens its own trigger-less, ended turn', () => {
		const cb: Atom = { type: 'system', subtype: 'compact_boundary', uuid: 'cb', session_id: S, t: 5 };
		const turns = groupTurns([u('u1', 0, 'x'), a('a1', 1, 'tool_use'), cb, a('a2', 6, 'tool_use')], S);
		expect(turns.map((t) => [t.trigger, t.ended, t.atoms.length])).toEqual([[{ uuid: 'u1' }, false, 2], [null, false, 2]]);
		expect(turns[1].id).toBe(`${S}:5:da39a3ee`);
	});
	it('an interrupt record at the end of a turn ends it; idle atoms extend end but not ended', () => {
		const idle: Atom = { type: 'idle', uuid: null, session_id: S, t: 3, end: 50 };
		const turns = groupTurns([u('u1', 0, 'x'), a('a1', 1, 'tool_use'), u('i1', 2, '[Request interrupted by user for tool use]'), idle], S);
		expect(turns).toHaveLength(1);
		expect([turns[0].ended, turns[0].end]).toEqual([true, 50]);
	});
	it('system and tool_result atoms fold in and never open', () => {
		const sys = u('s1', 2, '<task-notification>done</task-notification>', { author: 'system' });
		const tr: Atom = { type: 'user', uuid: 'r1', session_id: S, t: 3, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] } };
		const turns = groupTurns([u('u1', 0, 'x'), a('a1', 1, 'end_turn', 'ok'), sys, tr], S);
		expect(turns.map((t) => t.atoms.map((x) => x.uuid))).toEqual([['u1', 'a1', 's1', 'r1']]);
	});
});

describe('segmentsOf', () => {
	it('splits a turn at its inputs; text-less segments hash their anchor uuid', () => {
		const turns = groupTurns([u('u1', 0, 'one'), a('a1', 1, 'tool_use'), u('u2', 2, 'two'), a('a2', 3, 'end_turn')], S);
		const segs = segmentsOf(turns[0], S);
		expect(segs.map((s) => [s.trigger, s.t, s.end, s.atoms, s.start, s.stop])).toEqual([['u1', 0, 2, ['u1', 'a1'], 0, 2], ['u2', 2, 3, ['u2', 'a2'], 2, 4]]);
		expect(segs[0].id).toBe(turns[0].id);
		const cb: Atom = { type: 'system', subtype: 'compact_boundary', uuid: 'cb1', session_id: S, t: 4 };
		const [seg] = segmentsOf(groupTurns([cb], S)[0], S);
		expect(seg.id.endsWith(':d780b71b')).toBe(true); // sha1("cb1"), pinned by the reference canary
	});
});
