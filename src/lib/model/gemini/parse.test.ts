import { describe, expect, test } from 'vitest';
import { parseGeminiDocument, parseGeminiRecords } from './parse.ts';
import { allAtoms, balanced, blocks, fixtureRecords, fixtureText } from '../harness/test-helpers.ts';
import { readRecords } from '../reader.ts';

const CHATS = 'gemini/_authored__harness-corpus/tmp/calc-project/chats';
const MAIN = `${CHATS}/session-2026-04-20T09-00-d4c1f0aa.jsonl`;
const AV = 'gemini/kenn-io__agentsview/internal/parser/testdata/gemini';
const doc = (rel: string) => parseGeminiDocument(rel, JSON.parse(fixtureText(rel)));

describe('Gemini CLI recordings', () => {
	test('JSONL: $set.messages compacts: the history it drops stays before the compaction, rewound messages do not', () => {
		const r = parseGeminiRecords(fixtureRecords(MAIN));
		const atoms = allAtoms(r);
		const comp = atoms.findIndex((a) => a.subtype === 'compact_boundary');
		expect(atoms[comp].summary).toBe('User asked why divide(1,0) crashes; answer: no zero guard.');
		const prompts = atoms.filter((a) => a.author === 'human').map((a) => (a.message?.content[0] as { text: string }).text);
		expect(prompts).toEqual(['Why does divide(1, 0) crash?', 'Skip the tests; just explain.', 'Add a guard that raises ValueError.']);
		expect(atoms.findIndex((a) => a.author === 'human' && (a.message?.content[0] as { text: string }).text.startsWith('Skip'))).toBeLessThan(comp);
		// g-2 (the failed pytest call) and the info after it were rewound away.
		expect(blocks(r, 'tool_use').map((u) => u.id)).toEqual(['read_file_1775800000000_0']);
		expect(r.offPath.filter((o) => o.reason === 'rewind').map((o) => o.line)).toEqual([7, 8]);
		expect(atoms.some((a) => a.isApiError && /429/.test((a.message?.content[0] as { text: string }).text))).toBe(true);
		expect(r.info.title).toBe('Explained why divide() fails on zero');
		expect(balanced(r)).toBe(true);
	});

	test('JSONL: last copy of a message id wins, $rewindTo drops the tail', () => {
		const L = (o: object) => JSON.stringify(o);
		const text = [
			L({ sessionId: 's', startTime: '2026-01-01T00:00:00.000Z' }),
			L({ id: 'u1', timestamp: '2026-01-01T00:00:01.000Z', type: 'user', content: [{ text: 'hi' }] }),
			L({ id: 'g1', timestamp: '2026-01-01T00:00:02.000Z', type: 'gemini', content: '', toolCalls: [{ id: 't1', name: 'run_shell_command', args: { command: 'ls' }, status: 'executing' }] }),
			L({ id: 'g1', timestamp: '2026-01-01T00:00:02.000Z', type: 'gemini', content: '', tokens: { input: 100, output: 5, cached: 60 }, toolCalls: [{ id: 't1', name: 'run_shell_command', args: { command: 'ls' }, status: 'success', result: [{ functionResponse: { id: 't1', name: 'run_shell_command', response: { output: 'a\nExit Code: 0' } } }] }] }),
			L({ id: 'u2', timestamp: '2026-01-01T00:00:03.000Z', type: 'user', content: [{ functionResponse: { id: 't1', name: 'run_shell_command', response: { output: 'a' } } }] }),
			L({ id: 'g2', timestamp: '2026-01-01T00:00:04.000Z', type: 'gemini', content: 'done' }),
			L({ id: 'u3', timestamp: '2026-01-01T00:00:05.000Z', type: 'user', content: [{ text: 'oops' }] }),
			L({ $rewindTo: 'u3' }),
			L({ id: 'u4', timestamp: '2026-01-01T00:00:06.000Z', type: 'user', content: [{ text: 'again' }] })
		].join('\n');
		const r = parseGeminiRecords(readRecords('s.jsonl', [text]));
		const uses = blocks(r, 'tool_use');
		expect(uses).toHaveLength(1);
		expect(uses[0]).toMatchObject({ name: 'Bash', input: { command: 'ls' }, harnessTool: 'run_shell_command' });
		const res = blocks(r, 'tool_result');
		expect(res).toHaveLength(1); // the synthetic functionResponse user message is not a second result
		const usage = allAtoms(r).find((a) => a.message?.usage)?.message?.usage;
		expect(usage).toMatchObject({ input_tokens: 40, cache_read_input_tokens: 60, output_tokens: 5 });
		const prompts = allAtoms(r).filter((a) => a.author === 'human').map((a) => (a.message?.content[0] as { text: string }).text);
		expect(prompts).toEqual(['hi', 'again']);
		expect(r.offPath.map((o) => [o.line, o.reason])).toEqual(expect.arrayContaining([[3, 'superseded'], [5, 'duplicate:functionResponse'], [7, 'rewind']]));
		expect(balanced(r)).toBe(true);
	});

	test('legacy JSON: tool calls with results and status, thoughts, system messages', () => {
		const r = doc(`${AV}/tool_calls_with_results.json`);
		expect(blocks(r, 'tool_use').length).toBeGreaterThan(0);
		expect(blocks(r, 'tool_result')).toHaveLength(blocks(r, 'tool_use').length);
		const t = doc(`${AV}/thinking_only.json`);
		expect(blocks(t, 'thinking').length).toBeGreaterThan(0);
		const s = doc(`${AV}/system_messages.json`);
		expect(allAtoms(s).some((a) => a.speaker === 'Info' || a.speaker === 'Warning')).toBe(true);
		expect(allAtoms(s).some((a) => a.isApiError)).toBe(true);
	});

	test('a call with status error or cancelled is a failed result; a running call has none', () => {
		const calls = [
			{ id: 'e', name: 'read_file', args: { file_path: 'x' }, status: 'error', result: [{ functionResponse: { id: 'e', name: 'read_file', response: { error: 'ENOENT' } } }] },
			{ id: 'c', name: 'write_file', args: { file_path: 'y', content: 'z' }, status: 'cancelled' },
			{ id: 'r', name: 'glob', args: { pattern: '*.py' }, status: 'executing' }
		];
		const r = parseGeminiDocument('s.json', { sessionId: 's', messages: [{ id: 'g', type: 'gemini', content: '', toolCalls: calls }] });
		expect(blocks(r, 'tool_use').map((u) => u.name)).toEqual(['Read', 'Write', 'Glob']);
		expect(blocks(r, 'tool_result').map((b) => [b.tool_use_id, b.is_error])).toEqual([['e', true], ['c', true]]);
		const large = doc('gemini/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/gemini/large.json');
		expect(blocks(large, 'tool_use').map((u) => u.name)).toContain('Bash');
		expect(balanced(large)).toBe(true);
	});
});
