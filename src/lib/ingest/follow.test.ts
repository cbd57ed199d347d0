import { describe, expect, it } from 'vitest';
import { headChanged, isFollowed, planFollow, type Tracked } from './follow.ts';

const t = (size: number, mtime = 1, head = new Uint8Array([1, 2, 3])): Tracked => ({ size, mtime, head });

describe('planFollow', () => {
	it('reads only the appended range of a file that grew', () => {
		const steps = planFollow(new Map([['p/s.jsonl', t(100)]]), [{ path: 'p/s.jsonl', size: 164, mtime: 2 }]);
		expect(steps).toEqual([{ kind: 'append', path: 'p/s.jsonl', from: 100, to: 164 }]);
	});

	it('does nothing for a file whose size and time are unchanged', () => {
		expect(planFollow(new Map([['s.jsonl', t(100, 5)]]), [{ path: 's.jsonl', size: 100, mtime: 5 }])).toEqual([]);
	});

	it('re-reads a file that shrank, with a notice naming it', () => {
		const [step] = planFollow(new Map([['p/s.jsonl', t(100)]]), [{ path: 'p/s.jsonl', size: 40, mtime: 2 }]);
		expect(step.kind).toBe('reread');
		if (step.kind !== 'reread') return;
		expect(step.size).toBe(40);
		expect(step.notice).toMatch(/s\.jsonl got shorter/);
	});

	it('checks the head of a file touched without growing', () => {
		expect(planFollow(new Map([['s.jsonl', t(100, 1)]]), [{ path: 's.jsonl', size: 100, mtime: 9 }])).toEqual([{ kind: 'check', path: 's.jsonl', size: 100 }]);
	});

	it('re-reads a changed .json file silently (they are written whole)', () => {
		expect(planFollow(new Map([['a.meta.json', t(10)]]), [{ path: 'a.meta.json', size: 30, mtime: 2 }])).toEqual([{ kind: 'reread', path: 'a.meta.json', size: 30, notice: null }]);
	});

	it('adds new transcript files, ignores other files and reports files that left', () => {
		const steps = planFollow(new Map([['old.jsonl', t(5)]]), [
			{ path: 'p/new.jsonl', size: 12, mtime: 1 },
			{ path: 'p/notes.txt', size: 3, mtime: 1 }
		]);
		expect(steps).toEqual([
			{ kind: 'add', path: 'p/new.jsonl', size: 12 },
			{ kind: 'gone', path: 'old.jsonl' }
		]);
		expect(isFollowed('x/agent-1.meta.json')).toBe(true);
		expect(isFollowed('README.md')).toBe(false);
	});
});

describe('headChanged', () => {
	it('is false when the first bytes match (a file that only grew)', () => {
		expect(headChanged(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(false);
	});
	it('is true when a byte differs or the head got shorter', () => {
		expect(headChanged(new Uint8Array([1, 2, 3]), new Uint8Array([1, 9, 3]))).toBe(true);
		expect(headChanged(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(true);
	});
});
