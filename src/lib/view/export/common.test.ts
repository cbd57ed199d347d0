// The shared helpers of the exports: cutting long text says how much was cut, fences outgrow
// backticks inside, and the UTF-8 size is counted without encoding.
import { describe, expect, it } from 'vitest';
import { fenced, shorten, utf8Bytes } from './common.ts';

describe('export helpers', () => {
	it('shorten keeps the head and says how many lines and characters were cut', () => {
		expect(shorten('a\nb\nc', 5, 100)).toEqual({ text: 'a\nb\nc', cut: null });
		expect(shorten('a\nb\nc', 1, 100)).toEqual({ text: 'a', cut: '… cut for the export: 2 more lines' });
		expect(shorten('abcdef', 5, 4)).toEqual({ text: 'abcd', cut: '… cut for the export: 2 more characters' });
		expect(shorten('a\n', 1, 100).cut).toBeNull();
	});
	it('a fence is longer than any backtick run in the text', () => {
		expect(fenced('x ```` y', 'sh')).toBe('`````sh\nx ```` y\n`````');
		expect(fenced('plain')).toBe('```\nplain\n```');
	});
	it('counts UTF-8 bytes like TextEncoder', () => {
		for (const s of ['', 'abc', 'naïve café', '数据 ✓ →', '😀 emoji', 'lone \ud800 surrogate']) {
			expect(utf8Bytes(s), s).toBe(new TextEncoder().encode(s).byteLength);
		}
	});
});
