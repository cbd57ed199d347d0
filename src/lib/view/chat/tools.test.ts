// The tool normalizer: verbs, titles, targets, renderer facts.
import { describe, expect, it } from 'vitest';
import { bashVerb, buildCallView, classifyTool, splitMcp } from './tools';

const view = (name: string, input: unknown, out: unknown = 'ok', tur?: unknown, isError = false) =>
	buildCallView({ type: 'tool_use', id: 'x', name, input }, 'a', 1000, { block: { type: 'tool_result', tool_use_id: 'x', content: out, ...(isError ? { is_error: true } : {}) }, uuid: 'r', ms: 3000, toolUseResult: tur }, true);

describe('tool normalizer', () => {
	it('classifies exploratory Bash as read/search, anything else (or a redirect) as run', () => {
		expect(bashVerb('cat a.txt | head -5')).toBe('read');
		expect(bashVerb('cd src && rg foo')).toBe('search');
		expect(bashVerb('git status')).toBe('read');
		expect(bashVerb('cat a > b')).toBe('run');
		expect(bashVerb('echo "a > b" | grep a')).toBe('run');
		expect(bashVerb('grep x file 2>/dev/null')).toBe('search');
		expect(bashVerb('npm test')).toBe('run');
	});
	it('splits MCP names for display', () => {
		expect(splitMcp('mcp__playwright__browser_take_screenshot')).toEqual({ server: 'playwright', tool: 'browser_take_screenshot' });
		expect(splitMcp('Bash')).toBeNull();
		expect(view('mcp__github__create_issue', {}).title).toBe('Used github \u00b7 create_issue');
	});
	it('an unknown tool reads "Used <name>" with its input and output kept', () => {
		const v = view('Frobnicate', { level: 3 }, 'frobbed', { extra: true });
		expect(v.title).toBe('Used Frobnicate');
		expect(JSON.parse(v.inputJson)).toEqual({ level: 3 });
		expect(v.output).toBe('frobbed');
		expect(JSON.parse(v.resultJson!)).toEqual({ extra: true });
		expect(classifyTool('Frobnicate').itemType).toBe('tool');
	});
	it('Bash keeps command, description, stdout and stderr', () => {
		const v = view('Bash', { command: 'npm test', description: 'Run tests' }, 'x', { stdout: 'PASS', stderr: 'warn' });
		expect([v.title, v.command, v.stdout, v.stderr, v.verb]).toEqual(['Run tests', 'npm test', 'PASS', 'warn', 'run']);
	});
	it('Read / Grep / Glob are compact with their target', () => {
		expect(view('Read', { file_path: '/src/app.ts', offset: 10, limit: 20 }).target).toBe('/src/app.ts:10+20');
		expect(view('Read', { file_path: '/src/app.ts' }).title).toBe('Read app.ts');
		expect(view('Grep', { pattern: 'TODO', path: 'src' }).target).toBe('TODO in src');
		expect(view('Glob', { pattern: '**/*.ts' }).title).toBe('Found files **/*.ts');
	});
	it('TodoWrite is a checklist', () => {
		const v = view('TodoWrite', { todos: [{ content: 'a', status: 'completed', activeForm: 'A-ing' }, { content: 'b', status: 'in_progress' }] });
		expect(v.todos).toEqual([{ content: 'a', status: 'completed', activeForm: 'A-ing' }, { content: 'b', status: 'in_progress' }]);
		expect(v.title).toBe('Updated the plan (1/2 done)');
		expect(classifyTool('TodoWrite').itemType).toBe('plan');
	});
	it('tool-result images are validated thumbnails', () => {
		const v = view('mcp__pw__shot', {}, [{ type: 'text', text: 'shot' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } }]);
		expect(v.output).toBe('shot');
		expect(v.images).toEqual([{ mediaType: 'image/jpeg', dataUrl: 'data:image/jpeg;base64,AAAA', bytes: 3 }]);
	});
	it('status comes from is_error; times from the two lines', () => {
		const v = view('Bash', { command: 'false' }, 'Exit code 1', undefined, true);
		expect([v.status, v.startMs, v.endMs, v.callUuid, v.resultUuid]).toEqual(['error', 1000, 3000, 'a', 'r']);
	});
});
