import { describe, expect, test } from 'vitest';
import { parseCodex } from './parse.ts';
import { allAtoms, balanced, blocks, fixtureRecords } from '../harness/test-helpers.ts';
import { readRecords } from '../reader.ts';

const AUTH = 'codex/_authored__harness-corpus/sessions';
const G0 = `${AUTH}/2025/08/20/rollout-2025-08-20T09-00-00-aaaaaaaa-0000-4000-8000-000000000001.jsonl`;
const G1 = `${AUTH}/2025/12/20/rollout-2025-12-20T10-00-00-bbbbbbbb-0000-7000-8000-000000000002.jsonl`;
const G2 = `${AUTH}/2026/04/10/rollout-2026-04-10T08-00-00-cccccccc-0000-7000-8000-000000000003.jsonl`;
const LOG = 'codex/daaain__claude-code-log/test/test_data/codex/sessions/2026';
const PARENT = `${LOG}/01/03/rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl`;
const CHILD = `${LOG}/01/03/rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl`;
const MIXED = `${LOG}/01/02/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl`;

const texts = (r: ReturnType<typeof parseCodex>, author: string) =>
	allAtoms(r).filter((a) => a.type === 'user' && a.author === author).map((a) => (a.message?.content ?? []).map((b) => (b as { text?: string }).text ?? '').join(''));

describe('Codex rollouts', () => {
	test('G1: human prompts once each, injected context as system, replies not doubled', () => {
		const r = parseCodex(fixtureRecords(G1));
		expect(texts(r, 'human')).toEqual(['Add a multiply() function with a test.', 'yes, and also run the linter', 'Just add the import, skip the linter.']);
		expect(allAtoms(r).filter((a) => a.speaker === 'AGENTS.md instructions')).toHaveLength(1);
		expect(allAtoms(r).filter((a) => a.speaker === 'Environment context')).toHaveLength(1);
		const prose = blocks(r, 'text').filter((b) => typeof b.text === 'string' && (b.text as string).startsWith('I added multiply()'));
		expect(prose).toHaveLength(1);
		expect(blocks(r, 'thinking').map((b) => b.thinking)).toEqual(['**Inspecting the module layout**', '**Writing the patch**']);
		expect(r.offPath.some((o) => o.reason === 'duplicate:agent_message')).toBe(true);
		expect(balanced(r)).toBe(true);
	});

	test('G1: exit codes decide failures, apply_patch becomes a file edit, web search is paired', () => {
		const r = parseCodex(fixtureRecords(G1));
		const results = new Map(blocks(r, 'tool_result').map((b) => [b.tool_use_id as string, b]));
		const uses = blocks(r, 'tool_use');
		expect(uses.find((u) => u.id === 'call_b01')?.name).toBe('Bash');
		expect(results.get('call_b01')?.is_error).toBeUndefined();
		expect(results.get('call_b03')?.is_error).toBe(true);
		expect(results.get('call_b04')?.is_error).toBe(true); // "aborted by user"
		const patch = uses.find((u) => u.id === 'call_b02');
		expect(patch?.name).toBe('MultiEdit');
		const tur = allAtoms(r).find((a) => (a.message?.content[0] as { tool_use_id?: string })?.tool_use_id === 'call_b02')?.toolUseResult as { files: { filePath: string }[] };
		expect(tur.files.map((f) => f.filePath)).toEqual(['calc/ops.py', 'tests/test_ops.py']);
		const web = uses.find((u) => u.name === 'WebSearch');
		expect(web?.input).toEqual({ query: 'pytest import function from package module' });
		expect(results.has(web?.id as string)).toBe(true);
	});

	test('G1: compaction, abort, model and usage', () => {
		const r = parseCodex(fixtureRecords(G1));
		const comp = allAtoms(r).filter((a) => a.subtype === 'compact_boundary');
		expect(comp).toHaveLength(1);
		expect(comp[0].summary).toMatch(/^Summary: user asked for multiply/);
		expect(allAtoms(r).some((a) => a.type === 'user' && /^\[Request interrupted by user/.test((a.message?.content[0] as { text: string }).text))).toBe(true);
		expect(r.info.model).toBe('gpt-5.1-codex-max');
		const usage = allAtoms(r).filter((a) => a.message?.usage).map((a) => a.message!.usage!);
		expect(usage.length).toBeGreaterThan(0);
		expect(usage[0]).toMatchObject({ input_tokens: 1100, cache_read_input_tokens: 3000, output_tokens: 40 });
		// Three human prompts → three turns, plus the compaction's own turn.
		expect(r.session.turns.filter((t) => t.trigger !== null)).toHaveLength(3);
	});

	test('G2: parallel calls pair by call_id, exec_command_end gives the exit code, MCP error, images', () => {
		const r = parseCodex(fixtureRecords(G2));
		const results = new Map(blocks(r, 'tool_result').map((b) => [b.tool_use_id as string, b]));
		expect(results.get('call_c01')?.is_error).toBeUndefined();
		expect(results.get('call_c02')?.is_error).toBe(true);
		expect(results.get('call_c04')?.is_error).toBe(true);
		expect((results.get('call_c03')?.content as { type: string }[]).some((c) => c.type === 'image')).toBe(true);
		expect(blocks(r, 'tool_use').find((u) => u.id === 'call_c01')).toMatchObject({ name: 'Bash', harnessTool: 'exec_command' });
		expect(blocks(r, 'tool_use').find((u) => u.id === 'call_c04')?.name).toBe('mcp__docs__search');
		const human = allAtoms(r).filter((a) => a.author === 'human');
		expect(human).toHaveLength(1);
		expect(human[0].message?.content.some((b) => b.type === 'image')).toBe(true);
		expect(allAtoms(r).find((a) => a.speaker === 'Permissions')).toBeTruthy();
		expect(blocks(r, 'redacted_thinking').length).toBeGreaterThan(0);
		expect(r.session.turns.at(-1)?.ended).toBe(true);
		expect(balanced(r)).toBe(true);
	});

	test('G0: header + bare items, shell argv, apply_patch inside shell, local_shell_call, no times', () => {
		const r = parseCodex(fixtureRecords(G0));
		expect(r.info.id).toBe('aaaaaaaa-0000-4000-8000-000000000001');
		expect(texts(r, 'human')).toEqual(['The add() function returns the wrong value for negative numbers. Fix it.']);
		const uses = blocks(r, 'tool_use');
		expect(uses.map((u) => u.name)).toEqual(['Bash', 'Bash', 'Edit', 'Bash']);
		expect((uses[0].input as { command: string }).command).toBe("grep -rn 'def add' .");
		expect(uses[2].input).toMatchObject({ file_path: 'calc/ops.py', old_string: expect.stringContaining('abs(a)') });
		const results = new Map(blocks(r, 'tool_result').map((b) => [b.tool_use_id as string, b]));
		expect(results.get('call_demo0004')?.is_error).toBe(true); // exit 127
		expect(allAtoms(r).every((a) => a.ms === undefined)).toBe(true);
		expect(r.metadata.filter((m) => m.type === 'record_type:state').length).toBeGreaterThan(5);
		expect(balanced(r)).toBe(true);
	});

	test('sub-agent: the child skips the replayed prefix and names its parent and spawn call', () => {
		const parent = parseCodex(fixtureRecords(PARENT));
		expect(parent.links.spawns).toEqual([{ callId: 'call-spawn-001', threadId: '33333333-3333-4333-8333-333333333333', nickname: null }]);
		expect(blocks(parent, 'tool_use')[0]).toMatchObject({ name: 'Task', input: { description: 'synthetic_researcher', prompt: 'Inspect fixtures.' } });
		const child = parseCodex(fixtureRecords(CHILD));
		expect(child.links.parentThreadId).toBe('22222222-2222-4222-8222-222222222222');
		expect(child.links.spawnCallId).toBe('call-spawn-001');
		expect(child.offPath.filter((o) => o.reason === 'replay')).toHaveLength(2);
		expect(texts(child, 'human')).toEqual(['Inspect fixtures.']);
	});

	test('an unknown record type becomes a raw card, encrypted reasoning never shows', () => {
		const r = parseCodex(fixtureRecords(MIXED));
		expect(r.metadata.find((m) => m.type === 'future_synthetic_record')?.value).toBeTruthy();
		expect(JSON.stringify(r.session)).not.toContain('SYNTHETIC_ENCRYPTED_CONTENT_MUST_NOT_RENDER');
		expect(blocks(r, 'tool_use').find((u) => u.id === 'call-custom-001')).toMatchObject({ name: 'Write', input: { file_path: 'gamma.txt', content: 'synthetic' } });
	});

	test('interleaved outputs pair with their own calls', () => {
		const line = (o: object) => JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', ...o });
		const text = [
			line({ type: 'session_meta', payload: { id: 's1', timestamp: '2026-01-01T00:00:00.000Z' } }),
			line({ type: 'event_msg', payload: { type: 'user_message', message: 'go' } }),
			line({ type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'a' } }),
			line({ type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'b' } }),
			line({ type: 'response_item', payload: { type: 'function_call_output', call_id: 'b', output: 'Exit code: 1\nOutput:\n' } }),
			line({ type: 'response_item', payload: { type: 'function_call_output', call_id: 'a', output: 'Exit code: 0\nOutput:\nx\n' } })
		].join('\n');
		const r = parseCodex(readRecords('s1.jsonl', [text]));
		const res = blocks(r, 'tool_result');
		expect(res.map((b) => [b.tool_use_id, b.is_error === true])).toEqual([['b', true], ['a', false]]);
		expect((allAtoms(r).find((a) => a.toolUseResult && (a.message?.content[0] as { tool_use_id: string }).tool_use_id === 'a')?.toolUseResult as { stdout: string }).stdout).toBe('x\n');
	});
});

describe('Codex patch_apply_end', () => {
	test('the applied unified diff gives the patch file its real hunks', () => {
		const line = (o: object) => JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', ...o });
		const patch = '*** Begin Patch\n*** Update File: src/a.py\n@@\n-x = 1\n+x = 2\n*** End Patch';
		const text = [
			line({ type: 'session_meta', payload: { id: 's2', timestamp: '2026-01-01T00:00:00.000Z' } }),
			line({ type: 'event_msg', payload: { type: 'user_message', message: 'edit' } }),
			line({ type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', input: patch, call_id: 'p' } }),
			line({ type: 'event_msg', payload: { type: 'patch_apply_end', call_id: 'p', success: true, changes: { '/repo/src/a.py': { type: 'update', unified_diff: '@@ -40,1 +40,1 @@\n-x = 1\n+x = 2\n' } } } }),
			line({ type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'p', output: 'Success.' } })
		].join('\n');
		const r = parseCodex(readRecords('s2.jsonl', [text]));
		const tur = allAtoms(r).find((a) => a.toolUseResult)?.toolUseResult as { files: { structuredPatch: { oldStart: number; lines: string[] }[] }[] };
		expect(tur.files[0].structuredPatch).toEqual([{ oldStart: 40, oldLines: 1, newStart: 40, newLines: 1, lines: ['-x = 1', '+x = 2'] }]);
	});
});

describe('Codex exec_command_end without an output item', () => {
	test('the end event is the call result, with its exit code', () => {
		const line = (o: object) => JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', ...o });
		const text = [
			line({ type: 'session_meta', payload: { id: 's3', timestamp: '2026-01-01T00:00:00.000Z' } }),
			line({ type: 'event_msg', payload: { type: 'user_message', message: 'run' } }),
			line({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"make"}', call_id: 'e' } }),
			line({ type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'e', exit_code: 2, aggregated_output: 'make: *** [all] Error 2', stdout: '', stderr: 'make: *** [all] Error 2' } })
		].join('\n');
		const r = parseCodex(readRecords('s3.jsonl', [text]));
		const res = blocks(r, 'tool_result');
		expect(res.map((b) => [b.tool_use_id, b.is_error])).toEqual([['e', true]]);
		expect((allAtoms(r).find((a) => a.toolUseResult)?.toolUseResult as { exitCode: number; stderr: string })).toMatchObject({ exitCode: 2, stderr: 'make: *** [all] Error 2' });
		expect(balanced(r)).toBe(true);
	});
});
