// Edit / MultiEdit / Write diffs: recorded structuredPatch first (real line numbers), else computed.
import { describe, expect, it } from 'vitest';
import { computeHunks, diffsForCall, hunksFromPatch, statLabel } from './diff';

describe('diffs', () => {
	it('uses toolUseResult.structuredPatch with its line numbers', () => {
		const patch = [{ oldStart: 10, oldLines: 3, newStart: 10, newLines: 3, lines: [' a', '-b', '+B', ' c'] }];
		const [d] = diffsForCall('Edit', { file_path: '/x.ts', old_string: 'b', new_string: 'B' }, { filePath: '/x.ts', structuredPatch: patch })!;
		expect(d.approximate).toBe(false);
		expect([d.added, d.removed]).toEqual([1, 1]);
		expect(d.hunks[0].lines.map((l) => [l.op, l.oldNo, l.newNo])).toEqual([
			[' ', 10, 10],
			['-', 11, null],
			['+', null, 11],
			[' ', 12, 12]
		]);
	});
	it('computes real line numbers from the recorded original file', () => {
		const original = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
		const [d] = diffsForCall('Edit', { file_path: '/f', old_string: 'six', new_string: 'SIX' }, { originalFile: original })!;
		expect(d.approximate).toBe(false);
		const removed = d.hunks[0].lines.find((l) => l.op === '-');
		expect(removed).toEqual({ op: '-', text: 'six', oldNo: 6, newNo: null });
	});
	it('falls back to a snippet diff, flagged approximate', () => {
		const [d] = diffsForCall('Edit', { file_path: '/f', old_string: 'a\nb\n', new_string: 'a\nc\nd\n' }, undefined)!;
		expect(d.approximate).toBe(true);
		expect(statLabel(d.added, d.removed)).toBe('+2 \u22121');
	});
	it('MultiEdit without a patch diffs each edit', () => {
		const [d] = diffsForCall('MultiEdit', { file_path: '/f', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd' }] }, 'Error: string')!;
		expect(d.hunks).toHaveLength(2);
		expect([d.added, d.removed]).toEqual([2, 2]);
	});
	it('Write of a new file is all additions', () => {
		const [d] = diffsForCall('Write', { file_path: '/n.md', content: 'x\ny\n' }, { type: 'create', structuredPatch: [] })!;
		expect([d.mode, d.added, d.removed]).toEqual(['create', 2, 0]);
	});
	it('Write over an existing file diffs against the original', () => {
		const [d] = diffsForCall('Write', { file_path: '/n.md', content: 'x\nY\n' }, { type: 'update', originalFile: 'x\ny\n' })!;
		expect([d.mode, d.added, d.removed]).toEqual(['overwrite', 1, 1]);
	});
	it('non-edit tools and junk patches yield nothing usable', () => {
		expect(diffsForCall('Bash', {}, {})).toBeNull();
		expect(hunksFromPatch('nope')).toBeNull();
		expect(hunksFromPatch([{ lines: 3 }])).toBeNull();
	});
	it('computeHunks keeps unchanged text out of a small diff', () => {
		const h = computeHunks('a\nb\nc\n', 'a\nB\nc\n');
		expect(h).toHaveLength(1);
		expect(h[0].lines.map((l) => l.op + l.text)).toEqual([' a', '-b', '+B', ' c']);
	});
});

describe('multi-file patch results (toolUseResult.files)', () => {
	it('one diff per file; recorded hunks keep real line numbers, edits are snippet-relative', () => {
		const files = [
			{ filePath: 'a.py', type: 'update', edits: [{ old_string: 'x', new_string: 'y' }], structuredPatch: [{ oldStart: 40, newStart: 40, lines: ['-x', '+y'] }] },
			{ filePath: 'b.py', type: 'create', edits: [{ old_string: '', new_string: 'print(1)' }] },
			{ filePath: 'c.py', type: 'update', movePath: 'd.py', edits: [{ old_string: 'p\nq', new_string: 'p\nr' }] }
		];
		const diffs = diffsForCall('MultiEdit', { file_path: 'a.py', edits: [] }, { filePath: 'a.py', files });
		expect(diffs?.map((d) => [d.path, d.mode, d.approximate, d.added, d.removed])).toEqual([
			['a.py', 'edit', false, 1, 1],
			['b.py', 'create', false, 1, 0],
			['c.py \u2192 d.py', 'edit', true, 1, 1]
		]);
		expect(diffs?.[0].hunks[0].lines[0]).toMatchObject({ op: '-', oldNo: 40 });
	});
});
