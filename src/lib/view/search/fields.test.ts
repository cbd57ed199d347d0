import { describe, expect, it } from 'vitest';
import { buildChatRows } from '../chat/rows.ts';
import { assistant, call, resetClock, session, text, thinking, toolUse, result, turn, user } from '../chat/test-builders.ts';
import { fieldsOfRows, inputText } from './fields.ts';
import { compileQuery } from './query.ts';
import { scanFields, snippetOf } from './scan.ts';
import { runSearch, type SearchSource } from './run.ts';

function sample() {
	resetClock();
	const s = session([
		turn([
			user('u1', 'please delete the cache folder'),
			assistant('th1', [thinking('the user wants rm of a directory')]),
			...call('bash1', 'Bash', { command: 'rm -rf ./cache', description: 'Remove the cache' }, 'removed 42 files\nZEBRA-ONLY-IN-OUTPUT'),
			...call('edit1', 'Edit', { file_path: '/src/app.ts', old_string: 'const "a" = 1;\nnext', new_string: 'const b = 2;' }, 'ok'),
			...call('fail1', 'Bash', { command: 'make' }, 'make: *** No rule', { isError: true }),
			assistant('a1', [text('Done: the cache is gone.')], { stop: 'end_turn' })
		]),
		turn([
			user('u2', 'now ask a helper'),
			assistant('d1', [toolUse('task1', 'Task', { description: 'Look around', prompt: 'Explore the repo for TODO markers' })]),
			result('rd1', 'task1', 'The helper found 3 markers')
		])
	]);
	resetClock();
	const child = session([
		turn([
			user('cu1', 'Explore the repo for TODO markers'),
			...call('cgrep', 'Grep', { pattern: 'TODO' }, 'src/x.ts:1: TODO HIPPO inside subagent'),
			assistant('ca1', [text('Found 3.')], { stop: 'end_turn' })
		])
	]);
	const rows = buildChatRows(s, { task1: { toolUseId: 'task1', result: { session: child } } });
	return { rows, fields: fieldsOfRows(rows) };
}

describe('fieldsOfRows', () => {
	it('derives a field for every prompt, reply, thought, tool input, tool output and error, with its landing', () => {
		const { rows, fields } = sample();
		const kinds = (uuid: string) => fields.filter((f) => f.atomUuid === uuid).map((f) => f.kind);
		expect(kinds('u1')).toEqual(['prompt']);
		expect(kinds('a1')).toEqual(['reply']);
		expect(kinds('a_bash1')).toEqual(['tool-call']);
		expect(kinds('r_bash1')).toEqual(['tool-output']);
		expect(kinds('r_fail1')).toEqual(['error']);
		const out = fields.find((f) => f.text.includes('ZEBRA-ONLY-IN-OUTPUT'))!;
		expect(out.tool).toBe('Bash');
		expect(out.author).toBe('claude');
		// It sits in a failed tool group, which first shows only its failed call: landing opens the
		// group, its "show all", then the call.
		const group = rows[out.row];
		expect(group.kind).toBe('tool-group');
		expect(out.opens.map((o) => o.key)).toEqual([group.key, `${group.key}~all`, expect.stringContaining('bash1')]);
		const failed = fields.find((f) => f.atomUuid === 'r_fail1')!;
		expect(failed.opens.map((o) => o.key)).toEqual([group.key, expect.stringContaining('fail1')]);
		expect(fields.find((f) => f.kind === 'thinking')?.atomUuid).toBe('th1');
	});

	it('flattens tool inputs to their strings, unescaped (edit strings with quotes and newlines)', () => {
		const { fields } = sample();
		const edit = fields.find((f) => f.atomUuid === 'a_edit1')!;
		expect(edit.text).toContain('const "a" = 1;\nnext');
		expect(edit.text).toContain('/src/app.ts');
		expect(edit.text).not.toContain('\\"');
	});

	it('takes subagent transcripts from the delegation row, marked and landing inside it', () => {
		const { rows, fields } = sample();
		const hit = fields.find((f) => f.text.includes('HIPPO'))!;
		expect(hit.author).toBe('subagent');
		expect(hit.subagent).toEqual(['Look around']);
		expect(hit.atomUuid).toBe('r_cgrep');
		const deleg = rows[hit.row];
		expect(deleg.kind).toBe('delegation');
		expect(hit.opens[0].key).toBe(deleg.key);
		expect(hit.opens.length).toBeGreaterThanOrEqual(2);
		// The prompt is shown once, inside the child transcript; the call keeps the description.
		expect(fields.filter((f) => f.text.includes('Explore the repo for TODO markers'))).toHaveLength(1);
		expect(fields.find((f) => f.kind === 'tool-call' && f.tool === 'Task')?.text).toBe('Look around');
		expect(fields.find((f) => f.text === 'The helper found 3 markers')?.kind).toBe('tool-output');
	});

	it('inputText keeps the title and every string value', () => {
		const { rows } = sample();
		const group = rows.find((r) => r.kind === 'tool-group');
		if (group?.kind !== 'tool-group') throw new Error('no group');
		const e = group.entries.find((x) => x.kind === 'tool' && x.call.name === 'Bash');
		if (e?.kind !== 'tool') throw new Error('no call');
		expect(inputText(e.call).split('\n')).toEqual(expect.arrayContaining(['rm -rf ./cache', 'Remove the cache']));
	});
});

describe('scan', () => {
	it('filters by author, kind and tool', () => {
		const { fields } = sample();
		const c = compileQuery('cache');
		if (!c.ok) throw new Error(c.error);
		const all = scanFields(fields, 0, fields.length, c.matcher, undefined, 'S', 100);
		expect(all.counted).toBe(all.hits.length);
		expect(new Set(all.hits.map((h) => h.kind))).toEqual(new Set(['prompt', 'tool-call', 'reply']));
		expect(scanFields(fields, 0, fields.length, c.matcher, { authors: ['you'] }, 'S', 100).hits.map((h) => h.atomUuid)).toEqual(['u1']);
		expect(scanFields(fields, 0, fields.length, c.matcher, { kinds: ['tool-call'], tools: ['bash'] }, 'S', 100).hits.map((h) => h.atomUuid)).toEqual(['a_bash1']);
		const capped = scanFields(fields, 0, fields.length, c.matcher, undefined, 'S', 1);
		expect(capped).toMatchObject({ counted: all.counted, hits: [all.hits[0]] });
	});

	it('snippets keep match ranges on one line', () => {
		const text = 'line one\nthe needle is here and the Needle again';
		const s = snippetOf(text, [[13, 19], [36, 42]]);
		expect(s.text).not.toContain('\n');
		expect(s.ranges.map(([a, b]) => s.text.slice(a, b))).toEqual(['needle', 'Needle']);
		expect(s.match).toBe('needle');
		const far = 'x '.repeat(200) + 'needle';
		const f = snippetOf(far, [[400, 406]]);
		expect(f.text.startsWith('…')).toBe(true);
		expect(f.text.slice(...f.ranges[0])).toBe('needle');
	});

	it('runSearch streams batches, stops when cancelled, reports an invalid regex as a value', async () => {
		const { fields } = sample();
		const many = Array.from({ length: 3000 }, () => fields).flat();
		const src = (key: string): SearchSource => ({ key, fields: () => ({ fields: many, folded: [] }) });
		let tick = 0;
		const batches: number[] = [];
		const done = await runSearch({ query: 'cache' }, [src('A'), src('B')], {
			cancelled: () => false,
			pause: async () => undefined,
			onBatch: (b) => batches.push(b.total),
			now: () => (tick += 5)
		});
		expect(done.ok).toBe(true);
		if (done.ok) {
			expect(done.total).toBe(2 * 3000 * 3);
			expect(done.hits).toHaveLength(1000);
			expect(done.truncated).toBe(true);
		}
		expect(batches.length).toBeGreaterThan(2);
		expect(batches.at(-1)).toBe(2 * 3000 * 3);
		let polls = 0;
		const stopped = await runSearch({ query: 'cache' }, [src('A'), src('B')], { cancelled: () => ++polls > 1, pause: async () => undefined, now: () => (tick += 5) });
		expect(stopped).toMatchObject({ ok: false, cancelled: true });
		const bad = await runSearch({ query: '(', options: { regex: true } }, [src('A')], { cancelled: () => false, pause: async () => undefined });
		expect(bad).toMatchObject({ ok: false, cancelled: false, error: expect.stringMatching(/^Invalid regular expression/) });
	});
});
