import { describe, expect, test } from 'vitest';
import { parsePi } from './parse.ts';
import { allAtoms, balanced, blocks, fixtureRecords } from '../harness/test-helpers.ts';
import { readRecords } from '../reader.ts';

const AV = 'pi/kenn-io__agentsview/internal/parser/testdata/pi/session.jsonl';

describe('pi sessions', () => {
	test('messages, paired tool result, compaction, usage, redacted thinking, broken and unknown lines', () => {
		const r = parsePi(fixtureRecords(AV));
		expect(r.info.id).toBe('pi-test-session-uuid');
		expect(r.info.cwd).toBe('/Users/alice/code/my-project');
		expect(blocks(r, 'tool_use')).toEqual([expect.objectContaining({ id: 'toolu_01', name: 'Read', input: { file_path: 'auth.go' }, harnessTool: 'read' })]);
		expect(blocks(r, 'tool_result')).toEqual([expect.objectContaining({ tool_use_id: 'toolu_01' })]);
		expect(blocks(r, 'tool_result')[0].is_error).toBeUndefined();
		expect(allAtoms(r).find((a) => a.subtype === 'compact_boundary')?.compact_metadata?.pre_tokens).toBe(5000);
		expect(blocks(r, 'redacted_thinking')).toHaveLength(1);
		expect(allAtoms(r).find((a) => a.message?.usage)?.message?.usage).toMatchObject({ input_tokens: 100, output_tokens: 50 });
		expect(r.metadata.find((m) => m.type === 'unknown_future_entry_type')?.value).toBeTruthy();
		expect(r.issues.some((i) => i.accounted && i.kind === 'invalid-json')).toBe(true);
		expect(balanced(r)).toBe(true);
	});

	test('only the branch the session ended on is shown; the other branch is off-path', () => {
		const L = (o: object) => JSON.stringify(o);
		const text = [
			L({ type: 'session', version: 3, id: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/w' }),
			L({ type: 'message', id: 'a', parentId: null, timestamp: '2026-01-01T00:00:01Z', message: { role: 'user', content: [{ type: 'text', text: 'first try' }] } }),
			L({ type: 'message', id: 'b', parentId: 'a', timestamp: '2026-01-01T00:00:02Z', message: { role: 'assistant', content: [{ type: 'text', text: 'abandoned' }], stopReason: 'stop' } }),
			L({ type: 'message', id: 'c', parentId: 'a', timestamp: '2026-01-01T00:00:03Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: 't', name: 'bash', arguments: { command: 'false' } }], stopReason: 'toolUse' } }),
			L({ type: 'message', id: 'd', parentId: 'c', timestamp: '2026-01-01T00:00:04Z', message: { role: 'toolResult', toolCallId: 't', toolName: 'bash', content: [{ type: 'text', text: 'exit 1' }], isError: true } })
		].join('\n');
		const r = parsePi(readRecords('s.jsonl', [text]));
		expect(blocks(r, 'text').map((b) => b.text)).toEqual(['first try']);
		expect(r.offPath).toEqual([expect.objectContaining({ line: 3, reason: 'branch' })]);
		expect(blocks(r, 'tool_result')[0].is_error).toBe(true);
		expect(blocks(r, 'tool_use')[0]).toMatchObject({ name: 'Bash', input: { command: 'false' } });
	});
});
