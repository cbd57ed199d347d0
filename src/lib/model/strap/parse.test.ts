import { describe, expect, test } from 'vitest';
import { parseStrapDocument, parseStrapRecords } from './parse.ts';
import { allAtoms, balanced, blocks, fixtureText } from '../harness/test-helpers.ts';
import { readRecords } from '../reader.ts';
import type { HarnessResult } from '../harness/kit.ts';

const doc = (v: string) => JSON.parse(fixtureText(`strap/_authored__harness-corpus/state-${v}.json`));
const load = (v: string) => parseStrapDocument(`state-${v}.json`, doc(v));

describe('Strap state documents', () => {
	test('v0.4: authors and speakers from actors, calls carry results, a human can call tools', () => {
		const r = load('v0.4');
		const human = allAtoms(r).filter((a) => a.author === 'human');
		expect(human.map((a) => a.speaker)).toEqual(['dana']);
		const uses = blocks(r, 'tool_use');
		expect(uses.map((u) => [u.id, u.name])).toEqual([['call_h1', 'Bash'], ['call_m1', 'Read'], ['fork_r1', 'Task']]);
		// The human's call is drawn as a call spoken by the human.
		expect(allAtoms(r).find((a) => a.type === 'assistant' && a.message?.content.some((b) => b.id === 'call_h1'))?.speaker).toBe('dana');
		const res = new Map(blocks(r, 'tool_result').map((b) => [b.tool_use_id, b]));
		expect(res.get('call_m1')?.is_error).toBe(true);
		expect(res.get('call_h1')?.is_error).toBeUndefined();
		expect(res.get('fork_r1')?.content).toEqual([{ type: 'text', text: 'Flush is correct; also handle a trailing \\r.' }]);
		expect(balanced(r)).toBe(true);
	});

	test('v0.4: fork child from hidden.messages, summarize as compaction, checkpoint notice, no times', () => {
		const r = load('v0.4');
		const child = r.children.fork_r1;
		expect(child.agentType).toBe('reviewer');
		expect(blocks(child.result, 'text').map((b) => b.text)).toEqual(['Checking the EOF path.', 'Looks right; add CRLF handling.']);
		const comp = allAtoms(r).filter((a) => a.subtype === 'compact_boundary');
		expect(comp).toHaveLength(1);
		expect(comp[0].summary).toMatch(/^Tests showed the final-row bug/);
		expect(comp[0].summary).toContain('Hidden messages (2)');
		expect(allAtoms(r).find((a) => a.speaker === 'strap \u00b7 checkpoint')?.author).toBe('system');
		expect(allAtoms(r).every((a) => Number.isNaN(a.t) && a.ms === undefined)).toBe(true);
		expect(r.info.startedAt).toBeNull();
	});

	test('v0.3: scope tree, fork with hidden.messages, collapsed scope, harness notice', () => {
		const r = load('v0.3');
		expect(Object.keys(r.children)).toEqual(['fork_01']);
		const child = r.children.fork_01.result;
		expect(blocks(child, 'tool_use').map((u) => u.name)).toEqual(['Read']);
		expect(blocks(child, 'tool_result')).toHaveLength(1);
		const comp = allAtoms(r).filter((a) => a.subtype === 'compact_boundary');
		expect(comp[0].summary).toMatch(/^earlier discussion: Dana confirmed/);
		expect(comp[0].summary).toContain('Do our inputs always end with a newline?');
		expect(allAtoms(r).find((a) => a.speaker === 'harness')?.author).toBe('system');
		expect(r.info.title).toBe('Why does the CSV parser drop the last row?');
	});

	test('v0.2: collapsed scope with hidden children, failed call, provider usage and model', () => {
		const r = load('v0.2');
		const comp = allAtoms(r).filter((a) => a.subtype === 'compact_boundary');
		expect(comp[0].summary).toContain('rg: command not found');
		const withUsage = allAtoms(r).filter((a) => a.message?.usage);
		expect(withUsage.map((a) => a.message?.model)).toEqual(['gpt-5.1', 'gpt-5.1']);
		// The collapsed scope is a compaction, which starts its own turn (turns.ts).
		expect(r.session.turns.map((t) => t.trigger !== null)).toEqual([true, false]);
	});

	test('forks nest: a fork inside a fork is its own child, ids stay unique', () => {
		const inner = { from: 'model', text: '', calls: [{ id: 'f', tool: 'agent.fork', input: { task: 'inner' }, ok: true, output: { summary: 'in' }, hidden: { messages: [{ from: 'model', text: 'deep work' }] } }] };
		const events = [
			{ type: 'event', from: 'user', kind: 'message', text: 'go' },
			{ type: 'event', from: 'model', kind: 'tool_request', text: '', calls: [{ id: 'f', tool: 'agent.fork', input: { task: 'outer' }, ok: true, output: { summary: 'out' }, hidden: { messages: [inner] } }] }
		];
		const r: HarnessResult = parseStrapDocument('events.json', events);
		const ids = Object.keys(r.children);
		expect(ids).toHaveLength(2);
		const outer = r.children.f.result;
		const innerId = blocks(outer, 'tool_use')[0].id as string;
		expect(innerId).not.toBe('f');
		expect(blocks(r.children[innerId].result, 'text').map((b) => b.text)).toEqual(['deep work']);
	});

	test('the intended shape as JSONL: pending call has no result', () => {
		const lines = [
			{ type: 'event', from: 'user', kind: 'message', text: 'hi' },
			{ type: 'event', from: 'model', agent: 'a1', kind: 'tool_request', text: '', calls: [{ id: 'c1', tool: 'json_echo.echo', input: { value: 'x' } }] }
		].map((e) => JSON.stringify(e)).join('\n') + '\nnot json\n';
		const r = parseStrapRecords(readRecords('ev.jsonl', [lines]));
		expect(blocks(r, 'tool_use').map((u) => u.name)).toEqual(['json_echo.echo']);
		expect(blocks(r, 'tool_result')).toHaveLength(0);
		expect(r.issues.some((i) => i.accounted && i.line === 3)).toBe(true);
		expect(balanced(r)).toBe(true);
	});

	test('a time an exporter added is read; without one nothing is made up', () => {
		const r = parseStrapDocument('e.json', [
			{ type: 'event', from: 'user', kind: 'message', text: 'a', timestamp: '2026-02-01T10:00:00.000Z' },
			{ type: 'event', from: 'model', kind: 'message', text: 'b' }
		]);
		const atoms = allAtoms(r);
		expect(atoms[0].ms).toBe(Date.UTC(2026, 1, 1, 10));
		expect(atoms[1].ms).toBeUndefined();
		expect(r.info.startedAt).toBe(Date.UTC(2026, 1, 1, 10));
	});

	test('v0.2 agent_fold carries the child state: a delegation with that state as its child', () => {
		const child = { version: 'strap.state.v0.2', actors: { helper: { kind: 'agent' } }, root: { type: 'scope', status: 'open', children: [{ type: 'event', from: 'helper', kind: 'message', text: 'child work' }] } };
		const doc = {
			version: 'strap.state.v0.2',
			actors: { user: { kind: 'human' }, assistant: { kind: 'agent' } },
			root: { type: 'scope', status: 'open', children: [
				{ type: 'event', from: 'user', kind: 'message', text: 'go' },
				{ type: 'event', from: 'assistant', agent: 'helper', kind: 'agent_fold', text: 'Helper found it.', hidden: { child_state: child } }
			] }
		};
		const r = parseStrapDocument('s.json', doc);
		const [id] = Object.keys(r.children);
		expect(blocks(r, 'tool_use')).toEqual([expect.objectContaining({ id, name: 'Task', harnessTool: 'agent_fold' })]);
		expect(blocks(r.children[id].result, 'text').map((b) => b.text)).toEqual(['child work']);
		expect(balanced(r)).toBe(true);
	});
});

describe('what an exporter adds to the seed shape is read back', () => {
	test('a fork input with a description: that is the delegation title, the task stays the prompt', () => {
		const r = parseStrapDocument('e.json', [
			{ type: 'event', from: 'user', kind: 'message', text: 'go' },
			{ type: 'event', from: 'model', kind: 'tool_request', text: '', calls: [{ id: 'f1', tool: 'agent.fork', input: { task: 'Look at the parser.\nThen report.', agent: 'Explore', description: 'Parser survey' }, ok: true, output: { summary: 'done' }, hidden: { messages: [] } }] }
		]);
		expect(blocks(r, 'tool_use')[0].input).toEqual({ description: 'Parser survey', prompt: 'Look at the parser.\nThen report.', subagent_type: 'Explore' });
		expect(r.children.f1.description).toBe('Parser survey');
		// Without one, the task's first line titles the row as before.
		const bare = parseStrapDocument('e.json', [{ type: 'event', from: 'model', kind: 'tool_request', text: '', calls: [{ id: 'f2', tool: 'agent.fork', input: { task: 'First line\nsecond' } }] }]);
		expect((blocks(bare, 'tool_use')[0].input as { description: string }).description).toBe('First line');
	});

	test('a history.summarize input with trigger and pre_tokens: the compaction keeps them', () => {
		const r = parseStrapDocument('e.json', [
			{ type: 'event', from: 'harness', kind: 'tool_request', text: '', calls: [{ id: 'c1', tool: 'history.summarize', input: { trigger: 'auto', pre_tokens: 150000 }, ok: true, output: { summary: 'the story so far' } }] },
			{ type: 'event', from: 'harness', kind: 'tool_request', text: '', calls: [{ id: 'c2', tool: 'history.summarize', input: {}, ok: true, output: { summary: 'again' } }] }
		]);
		const comp = allAtoms(r).filter((a) => a.subtype === 'compact_boundary');
		expect(comp.map((a) => [a.summary, a.compact_metadata?.trigger, a.compact_metadata?.pre_tokens])).toEqual([
			['the story so far', 'auto', 150000],
			['again', 'manual', null]
		]);
	});
});

test('events stay in their order: a harness note before a prompt is not moved after it', () => {
	const r = parseStrapDocument('e.json', [
		{ type: 'event', from: 'user', kind: 'message', text: '/plugin' },
		{ type: 'event', from: 'harness', kind: 'message', text: '(no content)' },
		{ type: 'event', from: 'user', kind: 'message', text: '/plugin again' },
		{ type: 'event', from: 'model', kind: 'message', text: 'done' }
	]);
	const texts = r.session.turns.flatMap((t) => t.atoms).map((a) => (a.message?.content[0] as { text?: string }).text);
	expect(texts).toEqual(['/plugin', '(no content)', '/plugin again', 'done']);
});
