// The grouping rules of the transcript behaviour contract, one case each, as data: a list of
// atoms in, the digest of the top-level rows out.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Atom } from '../../model/types';
import { formatDuration, summarize, workedMs } from './grouping';
import { atomRowMap, buildChatRows, locateAtom } from './rows';
import {
	assistant,
	call,
	floodTurn,
	resetClock,
	result,
	session,
	text,
	thinking,
	toolUse,
	turn,
	user
} from './test-builders';
import type { ChatRow, ToolCallView } from './types';

function digest(rows: ChatRow[]): string[] {
	return rows.map((r) => (r.kind === 'tool-group' ? `group:${r.steps}` : r.kind));
}
function rowsOf(...turns: Atom[][]): ChatRow[] {
	return buildChatRows(session(turns.map((a) => turn(a))));
}
const thought = (id: string, t = 'hmm'): Atom => assistant(id, [thinking(t)]);
const prose = (id: string, t = 'Done.'): Atom => assistant(id, [text(t)], { stop: 'end_turn' });

beforeEach(() => resetClock());

describe('grouping: the contract, case by case', () => {
	const cases: { name: string; atoms: () => Atom[][]; want: string[] }[] = [
		{
			name: 'consecutive tool work of mixed verbs is one group',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash', { command: 'make' }), ...call('2', 'Read', { file_path: '/a' }), ...call('3', 'Edit', { file_path: '/a', old_string: 'x', new_string: 'y' }), ...call('4', 'Grep', { pattern: 'x' })]],
			want: ['user', 'group:4']
		},
		{
			name: '40 × (thought, call): the first thought is outside, the rest travel with the run',
			atoms: () => [[user('u', 'go'), ...Array.from({ length: 40 }, (_, i) => [thought(`t${i}`), ...call(`c${i}`, 'Bash', { command: 'x' })]).flat()]],
			want: ['user', 'thinking', 'group:40']
		},
		{
			name: 'a thought after the last call stays top-level, behind the group',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), ...call('2', 'Bash'), thought('t'), prose('p')]],
			want: ['user', 'group:2', 'thinking', 'assistant']
		},
		{
			name: 'a plan update between calls does not split the run',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), ...call('p', 'TodoWrite', { todos: [{ content: 'a', status: 'pending' }] }), ...call('2', 'Bash')]],
			want: ['user', 'group:2']
		},
		{
			name: 'prose splits a run',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), assistant('p', [text('Now the tests.')]), ...call('2', 'Bash')]],
			want: ['user', 'tool', 'assistant', 'tool']
		},
		{
			name: 'a question splits a run and stands alone',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), ...call('q', 'AskUserQuestion', { questions: [] }), ...call('2', 'Bash')]],
			want: ['user', 'tool', 'question', 'tool']
		},
		{
			name: 'an approval splits a run and stands alone',
			atoms: () => [[user('u', 'go'), ...call('1', 'Read'), ...call('x', 'ExitPlanMode', { plan: '# Plan' }), ...call('2', 'Read')]],
			want: ['user', 'tool', 'approval', 'tool']
		},
		{
			name: 'a delegation splits a run and stands alone',
			atoms: () => [[user('u', 'go'), ...call('1', 'Read'), ...call('d', 'Task', { description: 'look', prompt: 'look around' }), ...call('2', 'Read')]],
			want: ['user', 'tool', 'delegation', 'tool']
		},
		{
			name: 'an API error splits a run',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), assistant('e', [text('API Error: 529 overloaded')], { isApiError: true, stop: 'stop_sequence' }), ...call('2', 'Bash')]],
			want: ['user', 'tool', 'error', 'tool']
		},
		{
			name: 'a turn boundary ends a run even with a thought between',
			atoms: () => [
				[user('u1', 'one'), ...call('1', 'Bash')],
				[user('u2', 'two'), thought('t'), ...call('2', 'Bash')]
			],
			want: ['user', 'tool', 'user', 'thinking', 'tool']
		},
		{
			name: 'an unknown content block is a raw card, never dropped, and ends the run',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), assistant('x', [{ type: 'fancy_new_block', data: 1 }]), ...call('2', 'Bash')]],
			want: ['user', 'tool', 'raw', 'tool']
		},
		{
			name: 'consecutive thoughts outside a run coalesce into one row',
			atoms: () => [[user('u', 'go'), thought('t1', 'first'), thought('t2', 'second'), prose('p')]],
			want: ['user', 'thinking', 'assistant']
		},
		{
			name: 'an interrupt is its own notice row',
			atoms: () => [[user('u', 'go'), ...call('1', 'Bash'), user('i', '[Request interrupted by user for tool use]'), ...call('2', 'Bash')]],
			want: ['user', 'tool', 'notice', 'tool']
		}
	];
	for (const c of cases) {
		it(c.name, () => {
			expect(digest(rowsOf(...c.atoms()))).toEqual(c.want);
		});
	}

	it('coalesced thoughts keep both texts and both atoms', () => {
		const rows = rowsOf([user('u', 'go'), thought('t1', 'first'), thought('t2', 'second'), prose('p')]);
		const th = rows[1];
		expect(th.kind).toBe('thinking');
		if (th.kind !== 'thinking') return;
		expect(th.text).toBe('first\n\nsecond');
		expect(th.preview).toBe('second');
		expect(th.atomUuids).toEqual(['t1', 't2']);
	});

	it('grouping depends on item types, not tool names: unknown tools group the same way', () => {
		const named = rowsOf([user('u', 'go'), ...call('1', 'Bash'), thought('t'), ...call('2', 'Read'), prose('p')]);
		resetClock();
		const unknown = rowsOf([user('u', 'go'), ...call('1', 'mcp__x__a'), thought('t'), ...call('2', 'SomethingNew'), prose('p')]);
		expect(digest(unknown)).toEqual(digest(named));
		expect(digest(named)).toEqual(['user', 'group:2', 'assistant']);
	});
});

describe('the flood: 100 steps with a thought between every call', () => {
	for (const steps of [10, 100, 400]) {
		it(`${steps} steps are 5 top-level rows`, () => {
			const rows = buildChatRows(session([floodTurn(steps)]));
			expect(digest(rows)).toEqual(['user', 'thinking', `group:${steps}`, 'thinking', 'assistant']);
		});
	}
	it('the summary counts work by verb, and the steps count excludes folded thoughts', () => {
		const rows = buildChatRows(session([floodTurn(100)]));
		const g = rows[2];
		if (g.kind !== 'tool-group') throw new Error('expected a group');
		expect(g.summary).toBe('Ran 62 commands, read 30 files, edited 8 files (+8 \u22128)');
		expect(g.steps).toBe(100);
		expect(g.entries.filter((e) => e.kind === 'thinking')).toHaveLength(99);
		expect(g.defaultOpen).toBe(false);
		// 100 steps: each (thought, call, result) is 3 s apart; the span runs from the first call to the last result.
		expect(g.trailer).toMatch(/^Worked for \d+m \d\ds$/);
	});
});

describe('group identity', () => {
	it('a group keeps its key when more rows arrive', () => {
		const atoms = floodTurn(30).atoms;
		const partial = buildChatRows(session([turn(atoms.slice(0, 12), false)]));
		const full = buildChatRows(session([turn(atoms, true)]));
		const key = (rows: ChatRow[]) => rows.find((r) => r.kind === 'tool-group')?.key;
		expect(key(partial)).toBe('g:b0');
		expect(key(full)).toBe('g:b0');
	});
	it('a one-call run already carries the run key, so it survives growing into a group', () => {
		const one = rowsOf([user('u', 'go'), ...call('1', 'Bash')]);
		resetClock();
		const two = rowsOf([user('u', 'go'), ...call('1', 'Bash'), ...call('2', 'Bash')]);
		expect(one[1].kind).toBe('tool');
		expect(two[1].kind).toBe('tool-group');
		expect(one[1].key).toBe(two[1].key);
	});
	it('every row key is unique', () => {
		const rows = buildChatRows(session([floodTurn(50), turn([user('u2', 'again'), prose('p2')])]));
		expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
	});
	it('a landing on any atom of a group (call, result, folded thought) finds the group row', () => {
		const rows = buildChatRows(session([floodTurn(10)]));
		const map = atomRowMap(rows);
		expect(map['a_b5']).toBe(2);
		expect(map['r_b5']).toBe(2);
		expect(map['th5']).toBe(2);
		expect(map['th0']).toBe(1);
		expect(map['reply']).toBe(4);
	});
	it('locateAtom names the group entry holding a call, a result or a folded thought', () => {
		const rows = buildChatRows(session([floodTurn(10)]));
		expect(locateAtom(rows, 'r_b5')).toEqual({ index: 2, entryKey: 't:b5' });
		expect(locateAtom(rows, 'th5')).toEqual({ index: 2, entryKey: 'th:th5' });
		expect(locateAtom(rows, 'reply')).toEqual({ index: 4, entryKey: null });
		expect(locateAtom(rows, 'nope')).toEqual({ index: -1, entryKey: null });
	});
});

describe('liveness is bounded by the turn; status comes from the record', () => {
	const pending = (ended: boolean, later: boolean) => {
		const turns = [turn([user('u', 'go'), assistant('a', [toolUse('x', 'Bash', { command: 'sleep 9' })])], ended)];
		if (later) turns.push(turn([user('u2', 'hello?')], false));
		const rows = buildChatRows(session(turns));
		const r = rows[1];
		if (r.kind !== 'tool') throw new Error('expected a tool row');
		return r.call.status;
	};
	it('a call without a result in an ended turn reads "no result"', () => expect(pending(true, false)).toBe('no-result'));
	it('… and in a turn followed by a later turn, even if the turn never ended', () => expect(pending(false, true)).toBe('no-result'));
	it('only the last, still-open turn may be running', () => expect(pending(false, false)).toBe('running'));
	it('is_error makes a call an error; the word "error" in the output does not', () => {
		const rows = rowsOf([
			user('u', 'go'),
			...call('1', 'Bash', { command: 'a' }, 'Error: everything is fine'),
			...call('2', 'Bash', { command: 'b' }, 'exit 1', { isError: true })
		]);
		const g = rows[1];
		if (g.kind !== 'tool-group') throw new Error('expected a group');
		const calls = g.entries.flatMap((e) => (e.kind === 'tool' ? [e.call] : []));
		expect(calls.map((c) => c.status)).toEqual(['ok', 'error']);
		expect(g.status).toBe('error');
		expect(g.defaultOpen).toBe(true);
	});
});

describe('summary and trailer', () => {
	const c = (verb: ToolCallView['verb'], extra: Partial<ToolCallView> = {}): ToolCallView => ({
		id: Math.random().toString(36),
		name: 'X',
		verb,
		renderer: 'generic',
		title: '',
		target: null,
		mcp: null,
		inputJson: '{}',
		status: 'ok',
		output: '',
		images: [],
		startMs: null,
		endMs: null,
		callUuid: null,
		resultUuid: null,
		...extra
	});
	it('counts work, not frames: distinct files for reads', () => {
		const s = summarize(
			[c('run'), c('run'), c('run'), c('read', { renderer: 'read', target: '/a' }), c('read', { renderer: 'read', target: '/a:10+5' }), c('read', { renderer: 'read', target: '/b' }), c('search'), c('search'), c('search'), c('search')],
			false
		);
		expect(s).toBe('Ran 3 commands, read 2 files, searched 4 times');
	});
	it('singular wording and other tools', () => {
		expect(summarize([c('run'), c('search'), c('tool')], false)).toBe('Ran 1 command, searched once, used 1 tool');
	});
	it('live runs read in the present tense', () => {
		expect(summarize([c('run'), c('run')], true)).toBe('Running 2 commands…');
	});
	it('the trailer is a union span, not a sum', () => {
		expect(workedMs([c('run', { startMs: 0, endMs: 10_000 }), c('run', { startMs: 5_000, endMs: 12_000 })])).toBe(12_000);
	});
	it('no times means no trailer (absent, not zero)', () => {
		expect(workedMs([c('run'), c('read')])).toBeNull();
		expect(workedMs([c('run', { startMs: 5, endMs: 5 })])).toBeNull();
	});
	it('durations format as s / m ss / h mm', () => {
		expect(formatDuration(400)).toBe('1s');
		expect(formatDuration(12_000)).toBe('12s');
		expect(formatDuration(65_000)).toBe('1m 05s');
		expect(formatDuration(3_723_000)).toBe('1h 02m');
	});
	it('a group without times has a null trailer', () => {
		const atoms = [user('u', 'go', { ms: undefined }), ...call('1', 'Bash'), ...call('2', 'Bash')].map((a) => ({ ...a, ms: undefined, t: 100 }));
		const rows = buildChatRows(session([turn(atoms)]));
		const g = rows[1];
		if (g.kind !== 'tool-group') throw new Error('expected a group');
		expect(g.trailer).toBeNull();
		expect(g.workedMs).toBeNull();
	});
});

describe('token usage per turn', () => {
	it('counts usage once per message.id', () => {
		const usage = { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100 };
		const a1 = assistant('a1', [thinking('x')], { messageId: 'm1' });
		const a2 = assistant('a2', [toolUse('t', 'Bash')], { messageId: 'm1' });
		a1.message!.usage = usage;
		a2.message!.usage = usage;
		const a3 = assistant('a3', [text('done')], { messageId: 'm2', stop: 'end_turn' });
		a3.message!.usage = { input_tokens: 1, output_tokens: 2 };
		const rows = buildChatRows(session([turn([user('u', 'go'), a1, a2, result('r', 't', 'ok'), a3])]));
		const last = rows[rows.length - 1];
		expect(last.turnUsage).toEqual({ inputTokens: 11, outputTokens: 7, cacheReadTokens: 100, cacheCreationTokens: 0, messages: 2 });
		expect(rows.slice(0, -1).every((r) => r.turnUsage === undefined)).toBe(true);
	});
});
