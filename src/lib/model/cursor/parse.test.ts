import { describe, expect, test } from 'vitest';
import { parseCursor } from './parse.ts';
import { allAtoms, balanced, blocks, fixtureRecords } from '../harness/test-helpers.ts';

const J = 'cursor/jazzyalex__agent-sessions';

describe('Cursor agent transcripts', () => {
	test('prompts lose their <user_query> wrapper; Shell is a terminal call; calls without results stay unanswered', () => {
		const r = parseCursor(fixtureRecords(`${J}/AgentSessionsTests/Fixtures/Cursor/test-session.jsonl`));
		const prompts = allAtoms(r).filter((a) => a.author === 'human').map((a) => (a.message?.content[0] as { text: string }).text);
		expect(prompts).toEqual(['run ls command', 'now show me the git status']);
		expect(blocks(r, 'tool_use').map((u) => [u.name, (u.input as { command: string }).command])).toEqual([['Bash', 'ls -la /tmp'], ['Bash', 'git status']]);
		expect(blocks(r, 'tool_result')).toEqual([]);
		expect(r.session.turns.filter((t) => t.trigger !== null)).toHaveLength(2);
		expect(allAtoms(r).every((a) => Number.isNaN(a.t))).toBe(true);
		expect(balanced(r)).toBe(true);
	});

	test('results pair with the waiting call even when their tool_use_id names no call', () => {
		const r = parseCursor(fixtureRecords(`${J}/Resources/Fixtures/stage0/agents/cursor/large.jsonl`));
		const uses = blocks(r, 'tool_use');
		const results = blocks(r, 'tool_result');
		expect(results.map((b) => b.tool_use_id)).toEqual(uses.map((u) => u.id));
		expect(blocks(r, 'thinking')).toHaveLength(1);
	});

	test('an Agent call is a delegation the sub-agent file can attach to', () => {
		const r = parseCursor(fixtureRecords(`${J}/Resources/Fixtures/stage0/agents/cursor/subagent/parent.jsonl`));
		expect(blocks(r, 'tool_use')[0]).toMatchObject({ name: 'Task', input: { prompt: 'List files' } });
		expect(r.agentCalls).toHaveLength(1);
	});
});
