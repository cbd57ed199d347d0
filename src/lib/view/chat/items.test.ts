// Atoms → rows for every item type the chat zoom names (Claude Code mapping, reference §4).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Atom } from '../../model/types';
import { buildChatRows, rowIndexOf, type ChildLike } from './rows';
import { assistant, call, resetClock, result, session, text, thinking, toolUse, turn, user } from './test-builders';
import type { ChatRow } from './types';

beforeEach(() => resetClock());

function rows1(atoms: Atom[], ended = true): ChatRow[] {
	return buildChatRows(session([turn(atoms, ended)]));
}
function only<K extends ChatRow['kind']>(rows: ChatRow[], kind: K): Extract<ChatRow, { kind: K }> {
	const r = rows.filter((x) => x.kind === kind);
	expect(r).toHaveLength(1);
	return r[0] as Extract<ChatRow, { kind: K }>;
}

describe('user prompts and their authors', () => {
	it('human, sdk, romp, teammate and peer authors are labelled', () => {
		const rows = buildChatRows(
			session([
				turn([user('h', 'hi')]),
				turn([user('s', 'batch job', { author: 'sdk', promptSource: 'sdk' })]),
				turn([user('r', 'nudge', { author: 'romp', rompAuto: true })]),
				turn([user('t', 'Another Claude session sent a message: hi', { author: 'teammate' })]),
				turn([user('p', 'ASK: which auth?', { author: { peer: 'abcdef0123456789', mid: 'm1', kind: 'question' } })]),
				turn([user('q', 'lost', { author: { peer: null, mid: 'm2', kind: '' } })])
			])
		);
		const users = rows.filter((r): r is Extract<ChatRow, { kind: 'user' }> => r.kind === 'user');
		expect(users.map((u) => [u.author.kind, u.author.label])).toEqual([
			['human', 'User'],
			['sdk', 'SDK'],
			['romp', 'romp'],
			['teammate', 'Teammate'],
			['peer', 'Peer \u00b7 abcdef01'],
			['peer', 'Peer (sender unknown)']
		]);
		expect(users[2].rompAuto).toBe(true);
		expect(users[4].author.msgKind).toBe('question');
	});
	it('a system-authored prompt (task notification) is a notice, not a bubble', () => {
		const n = only(rows1([user('u', 'go'), user('s', '<task-notification>done</task-notification>', { author: 'system', promptSource: 'system' })]), 'notice');
		expect(n.noticeKind).toBe('system');
		expect(n.title).toBe('Task notification');
	});
	it('a slash command is a user row carrying the command; its stdout is a notice', () => {
		const rows = rows1([user('c', '/usage', { command: '/usage' }), assistant('o', [text('You have 42 credits left.')], { command: true, stop: 'end_turn' })]);
		expect(only(rows, 'user').command).toBe('/usage');
		const n = only(rows, 'notice');
		expect(n.noticeKind).toBe('command-output');
		expect(n.text).toBe('You have 42 credits left.');
	});
	it('pasted images become data: URLs; disallowed types are kept but not shown', () => {
		const a = user('u', 'look');
		a.message!.content.push(
			{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
			{ type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: 'PHN2Zz4=' } },
			{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: '"><script>' } }
		);
		const u = only(rows1([a]), 'user');
		expect(u.images.map((i) => i.dataUrl)).toEqual(['data:image/png;base64,iVBORw0KGgo=', '', '']);
		expect(u.images[1].mediaType).toBe('image/svg+xml');
	});
	it('an absorbed prompt is flagged', () => {
		expect(only(rows1([user('u', 'also this', { absorbed: true })]), 'user').absorbed).toBe(true);
	});
});

describe('assistant content', () => {
	it('prose split over lines of one message is one row', () => {
		const rows = rows1([user('u', 'go'), assistant('a1', [text('Part one.')], { messageId: 'm' }), assistant('a2', [text('Part two.')], { messageId: 'm', stop: 'end_turn' })]);
		const a = only(rows, 'assistant');
		expect(a.text).toBe('Part one.\n\nPart two.');
		expect(a.atomUuids).toEqual(['a1', 'a2']);
		expect(a.key).toBe('a:a1');
	});
	it('empty and redacted thinking say so', () => {
		const rows = rows1([user('u', 'go'), assistant('t1', [thinking('')]), assistant('p', [text('ok')], { stop: 'end_turn' }), user('u2', 'again'), assistant('t2', [{ type: 'redacted_thinking', data: 'xx' }])]);
		const ths = rows.filter((r): r is Extract<ChatRow, { kind: 'thinking' }> => r.kind === 'thinking');
		expect(ths.map((t) => t.state)).toEqual(['empty', 'redacted']);
	});
	it('an API error is an error row; a rate limit takes the warning tone', () => {
		const rows = rows1([
			user('u', 'go'),
			assistant('e1', [text('API Error: 529 overloaded')], { isApiError: true, apiErrorStatus: 529, stop: 'stop_sequence' }),
			assistant('e2', [text('API Error: 429 rate limit reached')], { isApiError: true, apiErrorStatus: 429, stop: 'stop_sequence' })
		]);
		const errs = rows.filter((r): r is Extract<ChatRow, { kind: 'error' }> => r.kind === 'error');
		expect(errs.map((e) => [e.errorKind, e.tone, e.status])).toEqual([
			['api', 'alert', 529],
			['api', 'warning', 429]
		]);
	});
	it('a refusal stop reason adds an error row after the content', () => {
		const rows = rows1([user('u', 'go'), assistant('a', [text('I cannot help with that.')], { stop: 'refusal' })]);
		expect(rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'error']);
		expect(only(rows, 'error').errorKind).toBe('refusal');
	});
	it('a skill load is a notice with the skill Markdown', () => {
		const n = only(rows1([user('u', 'go'), assistant('s', [], { skillMd: 'Base directory for this skill: /x\n\n# Release notes\nGroup by area.', stop: null })]), 'notice');
		expect(n.noticeKind).toBe('skill');
		expect(n.title).toBe('Loaded skill: # Release notes');
		expect(n.markdown).toBe(true);
	});
});

describe('system atoms', () => {
	it('compaction carries trigger, token counts and the summary', () => {
		const c: Atom = { type: 'system', subtype: 'compact_boundary', uuid: 'c1', session_id: 'S', t: 100, compact_metadata: { trigger: 'auto', pre_tokens: 263239, post_tokens: 6514 }, summary: 'so far…' };
		const row = only(buildChatRows(session([turn([user('u', 'go')]), turn([c])])), 'compaction');
		expect([row.trigger, row.preTokens, row.postTokens, row.summary]).toEqual(['auto', 263239, 6514, 'so far…']);
		expect(row.atomUuid).toBe('c1');
	});
	it('a model fallback is a notice naming both models', () => {
		const f: Atom = { type: 'system', subtype: 'model_refusal_fallback', uuid: 'f', session_id: 'S', t: 5, content: 'retried', fallback_from: 'opus', fallback_to: 'sonnet' };
		const n = only(rows1([user('u', 'go'), f]), 'notice');
		expect(n.title).toBe('Model fallback: opus \u2192 sonnet');
	});
	it('an unknown system subtype and an unknown atom type are raw cards', () => {
		const s: Atom = { type: 'system', subtype: 'brand_new', uuid: 'x', session_id: 'S', t: 5 };
		const r: Atom = { type: 'result', uuid: 'y', session_id: 'S', t: 6 };
		const rows = rows1([user('u', 'go'), s, r]);
		expect(rows.map((x) => x.kind)).toEqual(['user', 'raw', 'raw']);
		const raw = rows[1];
		if (raw.kind !== 'raw') throw new Error();
		expect(raw.title).toContain('brand_new');
		expect(JSON.parse(raw.json).subtype).toBe('brand_new');
	});
	it('unknown records from the parse (metadata with a value) are raw cards placed by time', () => {
		const atoms = [user('u', 'go'), assistant('a', [text('ok')], { stop: 'end_turn' })];
		const midT = Math.floor(((atoms[0].ms as number) + 500) / 1000);
		const rows = buildChatRows(session([turn(atoms)]), {}, { metadata: [{ file: 'f.jsonl', line: 7, type: 'atis-latch', t: midT + 0.6, value: { type: 'atis-latch', x: 1 } }, { file: 'f.jsonl', line: 8, type: 'summary' }] });
		expect(rows.map((r) => r.kind)).toEqual(['user', 'raw', 'assistant']);
		expect(rows[1].key).toBe('r:f.jsonl:7');
	});
	it('idle atoms draw nothing', () => {
		const idle: Atom = { type: 'idle', uuid: null, session_id: 'S', t: 10, end: 100 };
		expect(rows1([user('u', 'go'), idle]).map((r) => r.kind)).toEqual(['user']);
	});
	it('a tool result with no call in the session is a notice, not lost', () => {
		const n = only(rows1([user('u', 'go'), result('r', 'ghost', 'late output')]), 'notice');
		expect(n.noticeKind).toBe('orphan-result');
		expect(n.text).toBe('late output');
	});
});

describe('questions, approvals, delegations', () => {
	it('AskUserQuestion shows the options and marks the chosen one', () => {
		const input = { questions: [{ question: 'Which DB?', header: 'DB', multiSelect: false, options: [{ label: 'Postgres', description: 'sql' }, { label: 'Mongo', description: 'doc' }] }] };
		const q = only(rows1([user('u', 'go'), ...call('q', 'AskUserQuestion', input, 'User has answered your questions: "Which DB?"="Postgres".', { toolUseResult: { questions: input.questions, answers: { 'Which DB?': 'Postgres' } } })]), 'question');
		expect(q.status).toBe('answered');
		expect(q.questions[0].options.map((o) => o.chosen)).toEqual([true, false]);
		expect(q.defaultOpen).toBe(true);
	});
	it('an answer parsed from the result text when toolUseResult is absent', () => {
		const input = { questions: [{ question: 'Go?', header: 'G', options: [{ label: 'Yes' }, { label: 'No' }] }] };
		const q = only(rows1([user('u', 'go'), ...call('q', 'AskUserQuestion', input, '"Go?"="No"')]), 'question');
		expect(q.questions[0].answer).toBe('No');
		expect(q.questions[0].options.map((o) => o.chosen)).toEqual([false, true]);
	});
	it('ExitPlanMode shows the plan and the decision', () => {
		const ok = only(rows1([user('u', 'go'), ...call('p', 'ExitPlanMode', { plan: '# Plan\n1. a' }, 'User has approved your plan.')]), 'approval');
		expect([ok.decision, ok.plan]).toEqual(['approved', '# Plan\n1. a']);
		resetClock();
		const no = only(rows1([user('u', 'go'), ...call('p', 'ExitPlanMode', { plan: 'x' }, "The user doesn't want to proceed: use SQLite", { isError: true })]), 'approval');
		expect(no.decision).toBe('rejected');
		expect(no.feedback).toContain('use SQLite');
	});
	it('a Task call is a delegation row carrying the child transcript rows, grouped by the same rules', () => {
		const child = session([turn([user('cu', 'look around', { author: undefined }), ...call('c1', 'Grep', { pattern: 'x' }), assistant('cth', [thinking('hmm')]), ...call('c2', 'Read', { file_path: '/a' }), assistant('cr', [text('Found it.')], { stop: 'end_turn' })])]);
		const children: Record<string, ChildLike> = { d1: { toolUseId: 'd1', agentId: 'ag', agentType: 'Explore', description: 'look', result: { session: child } } };
		const rows = buildChatRows(
			session([turn([user('u', 'go'), ...call('d1', 'Task', { description: 'Find the bug', subagent_type: 'Explore', prompt: 'look around' }, [{ type: 'text', text: 'Found it.' }], { toolUseResult: { status: 'completed', totalToolUseCount: 2, totalDurationMs: 4000, content: [{ type: 'text', text: 'Found it.' }] } })])]),
			children
		);
		const d = only(rows, 'delegation');
		expect([d.description, d.agentType, d.prompt, d.result, d.status, d.stepCount, d.durationMs]).toEqual(['Find the bug', 'Explore', 'look around', 'Found it.', 'ok', 2, 4000]);
		expect(d.childRows?.map((r) => (r.kind === 'tool-group' ? `group:${r.steps}` : r.kind))).toEqual(['user', 'group:2', 'assistant']);
		// Child keys are namespaced under the call, so expand state never collides with the parent's.
		expect(d.childRows?.every((r) => r.key.startsWith('d:d1/'))).toBe(true);
		// The child's prompt came from the delegating agent, not from a person.
		const cu = d.childRows?.[0];
		expect(cu?.kind === 'user' ? cu.author.label : null).toBe('Delegating agent');
		// The child's atoms never appear in the parent's flow.
		expect(rows.some((r) => r.atomUuids.includes('cr'))).toBe(false);
		expect(d.defaultOpen).toBe(false);
	});
	it('a delegation without a child transcript still shows its prompt and result', () => {
		const d = only(rows1([user('u', 'go'), ...call('d', 'Agent', { description: 'x', prompt: 'p' }, 'res')]), 'delegation');
		expect(d.childRows).toBeNull();
		expect(d.result).toBe('res');
	});
	it('a child transcript still running while its parent call has returned reads "no result"', () => {
		const child = session([turn([user('cu', 'p'), assistant('ca', [toolUse('cx', 'Bash', { command: 'x' })])], false)]);
		const rows = buildChatRows(session([turn([user('u', 'go'), ...call('d', 'Task', { prompt: 'p' }, 'done')])]), { d: { toolUseId: 'd', result: { session: child } } });
		const d = only(rows, 'delegation');
		const t = d.childRows?.find((r) => r.kind === 'tool');
		expect(t && t.kind === 'tool' ? t.call.status : null).toBe('no-result');
	});
});

describe('row index', () => {
	it('is tiny and carries kind, key, atom, turn, estimate and preview', () => {
		const rows = rows1([user('u', 'please fix\nthe build'), assistant('a', [text('Fixed.')], { stop: 'end_turn' })]);
		const idx = rows.map(rowIndexOf);
		expect(idx[0]).toMatchObject({ key: 'u:u', kind: 'user', atomUuid: 'u', turnIndex: 0, preview: 'please fix', defaultOpen: false });
		expect(idx[0].estHeight).toBeGreaterThan(40);
		expect(Object.keys(idx[1]).sort()).toEqual(['atomUuid', 'defaultOpen', 'estHeight', 'key', 'kind', 'ms', 'preview', 'turnIndex']);
	});
	it('rows are structured-cloneable plain data', () => {
		const rows = rows1([user('u', 'go'), ...call('1', 'Edit', { file_path: '/a', old_string: 'x', new_string: 'y' }), ...call('2', 'TodoWrite', { todos: [{ content: 'a', status: 'completed' }] })]);
		expect(structuredClone(rows)).toEqual(rows);
	});
});
