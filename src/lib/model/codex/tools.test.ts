import { describe, expect, test } from 'vitest';
import { canonicalCall, readOutput, shellBody } from './tools.ts';

describe('Codex tool identity', () => {
	test('shell forms become Bash with the script, not the bash -lc wrapper', () => {
		expect(canonicalCall('shell', { command: ['bash', '-lc', 'ls -la'] }).input).toEqual({ command: 'ls -la' });
		expect(canonicalCall('shell', { command: ['git', 'commit', '-m', 'a b'] }).input).toEqual({ command: "git commit -m 'a b'" });
		expect(canonicalCall('shell_command', { command: 'pytest -q', workdir: '/w' })).toMatchObject({ name: 'Bash', input: { command: 'pytest -q', workdir: '/w' } });
		expect(canonicalCall('exec_command', { cmd: 'rg x' })).toMatchObject({ name: 'Bash', kind: 'shell' });
		expect(canonicalCall('write_stdin', { session_id: 7, chars: 'y\n' })).toMatchObject({ name: 'BashOutput', input: { bash_id: '7' } });
	});

	test('apply_patch, also inside a shell heredoc, becomes an edit with its files', () => {
		const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** Add File: b.py\n+print(1)\n*** End Patch';
		const c = canonicalCall('apply_patch', patch);
		expect(c.name).toBe('MultiEdit');
		expect((c.resultBase?.files as { filePath: string; type: string }[]).map((f) => [f.filePath, f.type])).toEqual([['a.py', 'update'], ['b.py', 'create']]);
		const heredoc = canonicalCall('shell', { command: ['bash', '-lc', `apply_patch <<'EOF'\n${patch}\nEOF`] });
		expect(heredoc.kind).toBe('patch');
		const single = canonicalCall('apply_patch', '*** Begin Patch\n*** Update File: a.py\n*** Move to: c.py\n@@\n-x\n+y\n*** End Patch');
		expect(single).toMatchObject({ name: 'Edit', input: { file_path: 'a.py', old_string: 'x', new_string: 'y' } });
		expect((single.resultBase?.files as { movePath: string }[])[0].movePath).toBe('c.py');
	});

	test('plan, image, spawn', () => {
		expect(canonicalCall('update_plan', { plan: [{ step: 'a', status: 'completed' }, { step: 'b', status: 'in_progress' }] })).toMatchObject({
			name: 'TodoWrite',
			input: { todos: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] }
		});
		expect(canonicalCall('view_image', { path: '/x.png' })).toMatchObject({ name: 'Read', input: { file_path: '/x.png' } });
		expect(canonicalCall('spawn_agent', { message: 'go', agent_role: 'explorer' })).toMatchObject({ name: 'Task', input: { prompt: 'go', subagent_type: 'explorer' } });
		expect(canonicalCall('mcp__fs__read', { p: 1 })).toEqual({ name: 'mcp__fs__read', input: { p: 1 }, kind: 'other' });
	});

	test('outputs: exit codes from JSON, G1 and G2 text; failure words; images', () => {
		expect(readOutput('{"output":"x","metadata":{"exit_code":2}}')).toMatchObject({ text: 'x', exitCode: 2, error: true });
		expect(readOutput('Exit code: 0\nWall time: 0 seconds\nOutput:\nok\n')).toMatchObject({ exitCode: 0, error: false });
		expect(readOutput('Command: ls\nChunk ID: 1\nProcess exited with code 3\nOutput:\n')).toMatchObject({ exitCode: 3, error: true });
		expect(readOutput('aborted by user').error).toBe(true);
		expect(readOutput([{ type: 'input_image', image_url: 'data:image/png;base64,AA' }]).images).toEqual(['data:image/png;base64,AA']);
		expect(shellBody('Exit code: 0\nWall time: 1\nOutput:\nhello\n')).toBe('hello\n');
	});
});
