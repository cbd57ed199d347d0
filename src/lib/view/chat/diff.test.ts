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
