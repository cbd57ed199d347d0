// One test per viewer-mode divergence listed in docs/divergences.md: each shows the romp-mode
// (reference) behaviour and the viewer-mode improvement on the same input.
import { describe, expect, it } from 'vitest';
import { buildSession } from './build.ts';
import { readRecords } from './reader.ts';
import type { Atom, ParseOptions, ParseResult } from './types.ts';

let clock = Date.UTC(2026, 5, 10, 13, 0, 0);
const ts = (s: number) => new Date(clock + s * 1000).toISOString();
type L = Record<string, unknown>;
const user = (uuid: string, parent: string | null, s: number, content: unknown, extra: L = {}): L =>
	({ type: 'user', uuid, parentUuid: parent, timestamp: ts(s), message: { role: 'user', content }, ...extra });
const asst = (uuid: string, parent: string | null, s: number, id: string, content: unknown[], stop: string | null, extra: L = {}): L =>
	({ type: 'assistant', uuid, parentUuid: parent, timestamp: ts(s), message: { id, role: 'assistant', content, stop_reason: stop }, ...extra });
const text = (t: string) => ({ type: 'text', text: t });
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

function run(lines: L[], opts: ParseOptions = {}): ParseResult {
	const body = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
	return buildSession({ transcripts: [readRecords('/p/sess.jsonl', [body])] }, opts);
}
const both = (lines: L[], opts: ParseOptions = {}) => ({ romp: run(lines, { ...opts, compat: 'romp' }), viewer: run(lines, { ...opts, compat: 'viewer' }) });
const uuids = (r: ParseResult) => r.session.turns.flatMap((t) => t.atoms.map((a) => a.uuid));
const balanced = (r: ParseResult) => {
	const a = r.accounting;
	expect(a.atoms + a.offPath + a.metadata + a.issues).toBe(a.lines);
};

describe('D1 null stop_reason recovered per message.id', () => {
	const lines = [
		user('u1', null, 0, 'first', { promptSource: 'typed' }),
		asst('a1', 'u1', 1, 'msg_1', [{ type: 'thinking', thinking: '' }], null),
		asst('a2', 'a1', 2, 'msg_1', [text('done')], null),
		user('u2', 'a2', 10, 'second', { promptSource: 'typed' }),
		asst('a3', 'u2', 11, 'msg_2', [text('looking')], null),
		asst('a4', 'a3', 12, 'msg_2', [toolUse('t1')], null),
		user('r1', 'a4', 13, [toolResult('t1')]),
	];
	it('romp: null never ends a turn, so the second prompt is mid-turn', () => {
		const { romp } = both(lines);
		expect(romp.session.turns).toHaveLength(1);
		expect(romp.session.turns[0].ended).toBe(false);
	});
	it('viewer: a message whose last block is text ends the turn; one with tool_use does not', () => {
		const { viewer } = both(lines);
		expect(viewer.session.turns.map((t) => [t.trigger?.uuid, t.ended])).toEqual([['u1', true], ['u2', false]]);
		const atoms = viewer.session.turns.flatMap((t) => t.atoms);
		const byId = (u: string) => atoms.find((a) => a.uuid === u)!;
		expect(byId('a2').message?.stop_reason).toBe('end_turn');
		expect(byId('a2').stopReasonRecovered).toBe(true);
		expect(byId('a1').message?.stop_reason).toBeUndefined(); // only the last line of the message
		expect(byId('a4').message?.stop_reason).toBe('tool_use');
		balanced(viewer);
	});
});

describe('D2 the leaf is the last line of the conversation itself', () => {
	const main = [user('u1', null, 0, 'hello', { promptSource: 'typed' }), asst('a1', 'u1', 1, 'm1', [text('hi')], 'end_turn')];
	it('a trailing inline sidechain chain never becomes the leaf', () => {
		const lines = [...main, user('s1', null, 2, 'side task', { isSidechain: true }), asst('s2', 's1', 3, 'm2', [text('side')], 'end_turn', { isSidechain: true })];
		const { romp, viewer } = both(lines);
		expect(uuids(romp)).toEqual(['s1', 's2']);
		expect(uuids(viewer)).toEqual(['u1', 'a1']);
		expect(viewer.offPath.map((o) => [o.uuid, o.reason])).toEqual([['s1', 'sidechain'], ['s2', 'sidechain']]);
		balanced(viewer);
	});
	it('a trailing null-rooted system line (local command output) never becomes the leaf', () => {
		const lines = [...main, { type: 'system', subtype: 'local_command', uuid: 'x1', parentUuid: null, timestamp: ts(5), content: '<local-command-stdout>ok</local-command-stdout>' }];
		const { romp, viewer } = both(lines);
		expect(uuids(romp)).toEqual([]);
		expect(uuids(viewer)).toEqual(['u1', 'a1']);
		balanced(viewer);
	});
});

describe('D3 sidechain lines are off the main path, and ARE the conversation of a subagent file', () => {
	const lines = [
		user('u1', null, 0, 'go', { promptSource: 'typed' }),
		asst('a1', 'u1', 1, 'm1', [toolUse('task1')], 'tool_use'),
		user('s1', null, 2, 'sub prompt', { isSidechain: true }),
		asst('s2', 's1', 3, 'm2', [text('sub reply')], 'end_turn', { isSidechain: true }),
		user('r1', 'a1', 4, [toolResult('task1')]),
		asst('a2', 'r1', 5, 'm3', [text('done')], 'end_turn'),
	];
	it('viewer: reason "sidechain" in offPath (romp: classified clear, also off path)', () => {
		const { romp, viewer } = both(lines);
		expect(romp.offPath.map((o) => o.reason)).toEqual(['clear', 'clear']);
		expect(viewer.offPath.map((o) => o.reason)).toEqual(['sidechain', 'sidechain']);
	});
	it('subagent: true keeps isSidechain lines as the conversation', () => {
		const sub = run([user('s1', null, 2, 'sub prompt', { isSidechain: true, agentId: 'ag1' }), asst('s2', 's1', 3, 'm2', [text('sub reply')], 'end_turn', { isSidechain: true, agentId: 'ag1' })], { subagent: true });
		expect(uuids(sub)).toEqual(['s1', 's2']);
		expect(sub.session.turns[0].atoms[0].agentId).toBe('ag1');
		expect(sub.session.turns[0].atoms[0].isSidechain).toBe(true);
	});
});

describe('D4 parallel tool calls and local-command side branches are not rewinds', () => {
	const lines = [
		user('u1', null, 0, 'read both', { promptSource: 'typed' }),
		asst('a1', 'u1', 1, 'm1', [toolUse('t1')], null),
		asst('a2', 'a1', 2, 'm1', [toolUse('t2')], 'tool_use'),
		user('r2', 'a2', 3, [toolResult('t2')]),
		{ type: 'attachment', uuid: 'h2', parentUuid: 'r2', timestamp: ts(3), attachment: { type: 'hook_success' } },
		user('r1', 'a1', 4, [toolResult('t1')]),
		asst('a3', 'r1', 5, 'm2', [text('both read')], 'end_turn'),
		user('c1', 'a3', 6, '<command-name>/status</command-name>'),
		user('c2', 'c1', 6, '<local-command-stdout>fine</local-command-stdout>'),
		user('u2', 'a3', 7, 'thanks', { promptSource: 'typed' }),
	];
	it('romp drops the sibling branches as rewinds; viewer keeps them', () => {
		const { romp, viewer } = both(lines);
		expect(romp.offPath.map((o) => o.uuid)).toEqual(['a2', 'r2', 'h2', 'c1', 'c2']);
		expect(uuids(viewer)).toEqual(['u1', 'a1', 'a2', 'r2', 'r1', 'a3', 'c1', 'c2', 'u2']);
		expect(viewer.offPath).toEqual([]);
		balanced(viewer);
	});
	it('a second result for an already-answered call is a genuine rewind', () => {
		const lines = [
			user('u1', null, 0, 'run it', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [toolUse('t1')], 'tool_use'),
			user('r1old', 'a1', 2, [toolResult('t1')]),
			user('r1', 'a1', 3, [toolResult('t1')]),
			asst('a2', 'r1', 4, 'm2', [text('ok')], 'end_turn'),
		];
		expect(run(lines).offPath.map((o) => [o.uuid, o.reason])).toEqual([['r1old', 'rewind']]);
	});
	it('an unanswered prompt on a side branch (sent, then interrupted) is kept', () => {
		const lines = [
			user('u1', null, 0, 'publish it', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [toolUse('t1')], 'tool_use'),
			user('r1', 'a1', 2, [toolResult('t1')]),
			user('q1', 'u1', 3, 'are they still being written?', { promptSource: 'typed' }),
			user('q2', 'q1', 3, [text('[Request interrupted by user]')]),
			asst('a2', 'r1', 4, 'm2', [text('done')], 'end_turn'),
		];
		const { romp, viewer } = both(lines);
		expect(romp.offPath.map((o) => o.uuid)).toEqual(['q1', 'q2']);
		expect(uuids(viewer)).toEqual(['u1', 'a1', 'r1', 'q1', 'q2', 'a2']);
	});
	it('a genuine rewind (an edited prompt) is still dropped in viewer mode', () => {
		const rewind = [
			user('u1', null, 0, 'v1 of the ask', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [text('answer 1')], 'end_turn'),
			user('u1b', null, 5, 'v2 of the ask', { promptSource: 'typed' }),
			asst('a1b', 'u1b', 6, 'm2', [text('answer 2')], 'end_turn'),
		];
		const fork = [user('u0', null, 0, 'start', { promptSource: 'typed' }), asst('a0', 'u0', 1, 'm0', [text('ok')], 'end_turn'), ...rewind.map((l) => (l.parentUuid === null ? { ...l, parentUuid: 'a0' } : l))];
		expect(run(fork).offPath.map((o) => [o.uuid, o.reason])).toEqual([['u1', 'rewind'], ['a1', 'rewind']]);
	});
});

describe('D5 a line without a usable timestamp is an issue, never a crash (both modes)', () => {
	it('takes the time of the line before it and records the issue', () => {
		const lines = [user('u1', null, 0, 'hi', { promptSource: 'typed' }), { ...asst('a1', 'u1', 0, 'm1', [text('no timestamp')], 'end_turn'), timestamp: undefined }];
		for (const r of Object.values(both(lines))) {
			expect(uuids(r)).toEqual(['u1', 'a1']);
			expect(r.session.turns[0].atoms[1].t).toBe(r.session.turns[0].atoms[0].t);
			expect(r.issues.map((i) => [i.line, i.kind])).toEqual([[2, 'missing-timestamp']]);
			balanced(r);
		}
	});
});

describe('D6 viewer-only atom fields', () => {
	const lines = [
		user('u1', null, 0.25, 'hi', { promptSource: 'typed', isMeta: false }),
		asst('a1', 'u1', 1.5, 'msg_9', [text('yo')], 'end_turn', { agentId: 'x' }),
		user('r1', 'a1', 2, [toolResult('t')], { toolUseResult: { stdout: 'ok' } }),
	];
	it('romp output has none of them; viewer has ms, line, messageId, toolUseResult, isSidechain, agentId', () => {
		const { romp, viewer } = both(lines.map((l) => ({ ...l, isSidechain: false })));
		const keys = ['ms', 'line', 'messageId', 'toolUseResult', 'isSidechain', 'agentId', 'isMeta', 'stopReasonRecovered'];
		for (const a of romp.session.turns.flatMap((t) => t.atoms)) for (const k of keys) expect(a).not.toHaveProperty(k);
		const [u1, a1, r1] = viewer.session.turns.flatMap((t) => t.atoms) as Atom[];
		expect(u1.ms).toBe(clock + 250);
		expect(u1.line).toBe(1);
		expect(a1.messageId).toBe('msg_9');
		expect(a1.agentId).toBe('x');
		expect(r1.toolUseResult).toEqual({ stdout: 'ok' });
		expect(r1.isSidechain).toBe(false);
	});
});

describe('D6 a uuid-less queued_command attachment keeps its fsid in viewer mode', () => {
	it('romp: fsid null (reference); viewer: the file stem', () => {
		const lines = [
			user('u1', null, 0, 'go', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [toolUse('t1')], 'tool_use'),
			{ type: 'attachment', parentUuid: 'a1', timestamp: ts(2), attachment: { type: 'queued_command', prompt: 'also this' } },
			asst('a2', 'a1', 3, 'm2', [text('done')], 'end_turn'),
		];
		const { romp, viewer } = both(lines);
		const absorbed = (r: ParseResult) => r.session.turns.flatMap((t) => t.atoms).find((a) => a.absorbed)!;
		expect([absorbed(romp).uuid, absorbed(romp).fsid]).toEqual([null, null]);
		expect([absorbed(viewer).uuid, absorbed(viewer).fsid, absorbed(viewer).line]).toEqual([null, 'sess', 3]);
	});
});

describe('D7 raw value of unrecognised metadata records (viewer only)', () => {
	it('keeps value for an unknown type and a title, not for bulky known kinds', () => {
		const lines = [
			user('u1', null, 0, 'hi', { promptSource: 'typed' }),
			{ type: 'atis-latch', opaque: [1, 2] },
			{ type: 'custom-title', customTitle: 'My session' },
			{ type: 'file-history-snapshot', messageId: 'u1', snapshot: { trackedFileBackups: {} } },
		];
		const { romp, viewer } = both(lines);
		expect(viewer.metadata.map((m) => [m.type, m.value !== undefined])).toEqual([['atis-latch', true], ['custom-title', true], ['file-history-snapshot', false]]);
		expect(viewer.metadata[0].value).toEqual({ type: 'atis-latch', opaque: [1, 2] });
		expect(romp.metadata.every((m) => m.value === undefined)).toBe(true);
	});
});

describe('D8 a null-rooted system note is metadata, not a cleared conversation', () => {
	it('romp: offPath "clear"; viewer: metadata with its raw value', () => {
		const lines = [
			user('u1', null, 0, 'hello', { promptSource: 'typed' }),
			{ type: 'system', subtype: 'local_command', uuid: 'x1', parentUuid: null, timestamp: ts(1), content: '<local-command-stdout>ok</local-command-stdout>' },
			asst('a1', 'u1', 2, 'm1', [text('hi')], 'end_turn'),
		];
		const { romp, viewer } = both(lines);
		expect(romp.offPath.map((o) => [o.uuid, o.reason])).toEqual([['x1', 'clear']]);
		expect(viewer.offPath).toEqual([]);
		const m = viewer.metadata.find((x) => x.uuid === 'x1')!;
		expect(m.type).toBe('system:local_command');
		expect((m.value as { content: string }).content).toContain('ok');
		balanced(viewer);
	});
});

describe('D9 a queued prompt keeps its blocks; one atom per uuid (viewer only)', () => {
	const png = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
	const queued = (uuid: string, parent: string, s: number, prompt: unknown): L =>
		({ type: 'attachment', uuid, parentUuid: parent, timestamp: ts(s), attachment: { type: 'queued_command', prompt } });
	it('romp: one joined text block; viewer: the blocks as given', () => {
		const lines = [
			user('u1', null, 0, 'go', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [toolUse('t1')], 'tool_use'),
			queued('q1', 'a1', 2, [text('see'), png]),
			asst('a2', 'q1', 3, 'm2', [text('done')], 'end_turn'),
		];
		const { romp, viewer } = both(lines);
		const q = (r: ParseResult) => r.session.turns.flatMap((t) => t.atoms).find((a) => a.uuid === 'q1')!;
		expect(q(romp).message?.content).toEqual([text('see')]);
		expect(q(viewer).message?.content).toEqual([text('see'), png]);
		expect([q(romp).author, q(viewer).author]).toEqual(['human', 'human']);
	});
	it('romp: copies of one uuid at two times give two atoms; viewer: one, the other a duplicate', () => {
		const lines = [
			user('u1', null, 0, 'go', { promptSource: 'typed' }),
			asst('a1', 'u1', 1, 'm1', [toolUse('t1')], 'tool_use'),
			queued('q1', 'a1', 2, 'also this'),
			queued('q1', 'a1', 4, 'also this'),
			asst('a2', 'q1', 5, 'm2', [text('done')], 'end_turn'),
		];
		const { romp, viewer } = both(lines);
		const count = (r: ParseResult) => r.session.turns.flatMap((t) => t.atoms).filter((a) => a.uuid === 'q1').length;
		expect([count(romp), count(viewer)]).toEqual([2, 1]);
		expect(viewer.offPath.map((o) => [o.uuid, o.reason])).toEqual([['q1', 'duplicate']]);
		balanced(romp);
		balanced(viewer);
	});
});

describe('accounting in both modes', () => {
	it('every line has one home: atoms, offPath, metadata or an accounted issue', () => {
		clock = Date.UTC(2026, 0, 1);
		const body = [
			JSON.stringify(user('u1', null, 0, 'hi', { promptSource: 'typed' })),
			'not json',
			'[1,2]',
			JSON.stringify({ type: 'assistant', timestamp: ts(1), message: { content: [] } }), // no uuid
			JSON.stringify(user('m1', 'u1', 2, 'noise', { isMeta: true })),
			JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: ts(2) }),
			JSON.stringify(asst('a1', 'm1', 3, 'm', [text('ok')], 'end_turn')),
		].join('\n');
		for (const compat of ['romp', 'viewer'] as const) {
			const r = buildSession({ transcripts: [readRecords('s.jsonl', [body])] }, { compat });
			expect(r.accounting).toEqual({ lines: 7, atoms: 2, offPath: 0, metadata: 2, issues: 3 });
			expect(r.issues.filter((i) => i.accounted).map((i) => i.kind)).toEqual(['invalid-json', 'not-object', 'missing-uuid']);
			expect(r.metadata.find((m) => m.uuid === 'm1')?.reason).toBe('isMeta');
		}
	});
	it('an internal failure becomes accounted issues and an empty session, not a throw', () => {
		const hostile = new Proxy({}, { get() { throw new Error('boom'); } }) as Record<string, unknown>;
		const r = buildSession({ transcripts: [{ file: 'x/s.jsonl', bytes: 10, lines: 1, records: [{ line: 1, value: hostile, bytes: 10 }], issues: [] }] });
		expect(r.session.turns).toEqual([]);
		expect(r.session.leafFsid).toBe('s');
		expect(r.issues.map((i) => [i.line, i.kind, i.accounted])).toEqual([[1, 'internal-error', true]]);
		balanced(r);
	});
	it('never throws on garbage input', () => {
		const r = buildSession({ transcripts: [readRecords('s.jsonl', ['{"type":"user","uuid":5,"message":7}\n{"type":"system","subtype":"compact_boundary","uuid":"c","compactMetadata":[]}\n'])] });
		expect(r.session.turns.length).toBeGreaterThanOrEqual(0);
		balanced(r);
	});
});

describe('D11 rewound branches kept beside the path', () => {
	// a1 is answered twice: u2's branch was rewound (Esc Esc) and u3 took its place
	const lines = [
		user('u1', null, 0, 'first', { promptSource: 'typed' }),
		asst('a1', 'u1', 1, 'msg_1', [text('done')], 'end_turn'),
		user('u2', 'a1', 10, 'try this', { promptSource: 'typed' }),
		asst('a2', 'u2', 11, 'msg_2', [text('tried')], 'end_turn'),
		user('u3', 'a1', 20, 'no, this', { promptSource: 'typed' }),
		asst('a3', 'u3', 21, 'msg_3', [text('did')], 'end_turn'),
	];
	it('D11 romp: the branch is dropped (offPath rewind), no branches field', () => {
		const { romp } = both(lines);
		expect(uuids(romp)).toEqual(['u1', 'a1', 'u3', 'a3']);
		expect(romp.offPath.map((o) => [o.uuid, o.reason])).toEqual([['u2', 'rewind'], ['a2', 'rewind']]);
		expect('branches' in romp.session).toBe(false);
	});
	it('D11 viewer: the same path and offPath, plus the branch with its atoms after a1', () => {
		const { romp, viewer } = both(lines);
		expect(uuids(viewer)).toEqual(uuids(romp));
		expect(viewer.offPath).toEqual(romp.offPath);
		balanced(viewer);
		const [b] = viewer.session.branches!;
		expect([b.forkUuid, b.afterUuid, b.rootUuid, b.lines, b.children]).toEqual(['a1', 'a1', 'u2', 2, []]);
		expect(b.turns.flatMap((t) => t.atoms.map((a) => a.uuid))).toEqual(['u2', 'a2']);
	});
});
