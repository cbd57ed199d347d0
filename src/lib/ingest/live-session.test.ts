// LiveSession: a main transcript and its subagent transcripts appended in pieces, interleaved,
// give after each build what a full load of the same bytes gives (main result and attached
// children), and say which calls' children changed.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from './load-files.ts';
import { LiveSession } from './live-session.ts';
import { enc, filesUnder, jsonl, WORKTREES } from './test-helpers.ts';

const base = resolve(WORKTREES, '..');
const paths = filesUnder(WORKTREES).filter((p) => p.endsWith('.jsonl'));
const files = paths.map((p) => ({ path: relative(base, p), bytes: new Uint8Array(readFileSync(p)), sub: p.includes('/subagents/') }));

/** The full load of each file's first n bytes. */
async function fullLoad(upto: Map<string, number>) {
	const out = await loadSessions(files.filter((f) => upto.has(f.path)).map((f) => ({ path: f.path, blob: new Blob([f.bytes.subarray(0, upto.get(f.path)) as BlobPart]) })));
	expect(out.sessions).toHaveLength(1);
	return out.sessions[0];
}

describe('LiveSession', () => {
	it('equals a full load after interleaved appends, and names the calls whose child changed', async () => {
		const live = new LiveSession();
		const upto = new Map<string, number>();
		// Pieces of about a third of each file, cut at line ends so each build sees whole lines.
		const pieces = files.flatMap((f) => {
			const ends: number[] = [];
			for (let i = 0; i < f.bytes.length; i++) if (f.bytes[i] === 10) ends.push(i + 1);
			const cuts = [ends[Math.floor(ends.length / 3)], ends[Math.floor((2 * ends.length) / 3)], f.bytes.length];
			return cuts.map((end, k) => ({ f, start: k === 0 ? 0 : cuts[k - 1], end, k }));
		});
		pieces.sort((a, b) => a.k - b.k || (a.f.sub ? 1 : 0) - (b.f.sub ? 1 : 0));
		let round = -1;
		for (const p of pieces) {
			if (p.k !== round && round >= 0) {
				const got = live.build();
				const want = await fullLoad(upto);
				expect(got.result).toStrictEqual(want.result);
				expect(Object.keys(got.children).sort()).toEqual(Object.keys(want.children).sort());
				for (const [id, c] of Object.entries(want.children)) expect(got.children[id].result).toStrictEqual(c.result);
				// every subagent grew this round: every tied call is named
				expect(got.changedCalls.sort()).toEqual(Object.keys(got.children).sort());
			}
			round = p.k;
			live.append(p.f.sub ? 'subagent' : 'transcript', p.f.path, p.f.bytes.subarray(p.start, p.end));
			upto.set(p.f.path, p.end);
		}
		const got = live.build();
		const want = await fullLoad(upto);
		expect(got.result).toStrictEqual(want.result);
		expect(Object.keys(got.children).length).toBe(6);
		// Nothing appended since: nothing changed.
		const again = live.build();
		expect(again.changedCalls).toEqual([]);
		expect(again.change.path).toBe('unchanged');
		expect(again.result).toBe(got.result);
	});
});

const u = (uuid: string, parentUuid: string | null, s: number, content: unknown, extra: object = {}) => ({ type: 'user', uuid, parentUuid, sessionId: 'S1', timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(), message: { role: 'user', content }, ...extra });
const a = (uuid: string, parentUuid: string, s: number, content: unknown[], stop: string | null, extra: object = {}) => ({ type: 'assistant', uuid, parentUuid, sessionId: 'S1', timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(), message: { id: `m-${uuid}`, role: 'assistant', model: 'm', stop_reason: stop, content }, ...extra });
const taskCall = a('a1', 'u1', 1, [{ type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: 'look', prompt: 'Look around the repo', subagent_type: 'Explore' } }], 'tool_use');
const sub = (uuid: string, parent: string | null, s: number, content: unknown) => ({ ...u(uuid, parent, s, content), isSidechain: true, agentId: 'abc' });

describe('LiveSession, what changed', () => {
	it('keeps a tied child as the same object while only the main grows, and names the call when the child grows', () => {
		const live = new LiveSession();
		const agent = 'p/S1/subagents/agent-abc.jsonl';
		live.append('transcript', 'p/S1.jsonl', enc(jsonl([u('u1', null, 0, 'go'), taskCall])));
		live.append('subagent', agent, enc(jsonl([sub('c1', null, 2, 'Look around the repo')])));
		let b = live.build();
		expect(Object.keys(b.children)).toEqual(['toolu_T']);
		expect(b.changedCalls).toEqual(['toolu_T']);
		const child = b.children.toolu_T;
		// The main grows (a line after the leaf): the tie and the child object stay.
		live.append('transcript', 'p/S1.jsonl', enc(jsonl([a('a2', 'a1', 3, [{ type: 'text', text: 'waiting' }], null)])));
		b = live.build();
		expect(b.change.path).toBe('fast');
		expect(b.children.toolu_T).toBe(child);
		expect(b.changedCalls).toEqual([]);
		// The child grows: its call is named, and the child is the new parse.
		live.append('subagent', agent, enc(jsonl([{ ...a('c2', 'c1', 4, [{ type: 'text', text: 'found it' }], 'end_turn'), isSidechain: true, agentId: 'abc' }])));
		b = live.build();
		expect(b.changedCalls).toEqual(['toolu_T']);
		expect(b.children.toolu_T.result.session.turns[0].atoms).toHaveLength(2);
	});

	it('ties a child by its .meta.json once described, and unties it when it is dropped', () => {
		const live = new LiveSession();
		// Nothing in the child names the call: not its agent id, not the prompt.
		const agent = 'p/S1/subagents/agent-zzz.jsonl';
		live.append('transcript', 'p/S1.jsonl', enc(jsonl([u('u1', null, 0, 'go'), taskCall])));
		live.append('subagent', agent, enc(jsonl([{ ...sub('c1', null, 2, 'something else'), agentId: 'zzz' }])));
		let b = live.build();
		expect(b.children).toEqual({});
		expect(b.unattached.map((x) => x.file)).toEqual([agent]);
		live.describeSubagent(agent, { meta: { toolUseId: 'toolu_T' } });
		b = live.build();
		expect(Object.keys(b.children)).toEqual(['toolu_T']);
		expect(b.changedCalls).toEqual(['toolu_T']);
		live.dropSubagent(agent);
		b = live.build();
		expect(b.children).toEqual({});
		expect(b.changedCalls).toEqual(['toolu_T']);
	});

	it('builds while a described subagent has no bytes yet, and ties it once it has', () => {
		const live = new LiveSession();
		const agent = 'p/S1/subagents/agent-zzz.jsonl';
		live.append('transcript', 'p/S1.jsonl', enc(jsonl([u('u1', null, 0, 'go'), taskCall])));
		live.describeSubagent(agent, { meta: { toolUseId: 'toolu_T' } });
		let b = live.build();
		expect(b.children).toEqual({});
		expect(b.unattached).toEqual([]);
		live.append('subagent', agent, enc(jsonl([{ ...sub('c1', null, 2, 'something else'), agentId: 'zzz' }])));
		b = live.build();
		expect(Object.keys(b.children)).toEqual(['toolu_T']);
		expect(b.children.toolu_T.file).toBe(agent);
		expect(b.changedCalls).toEqual(['toolu_T']);
	});
});
