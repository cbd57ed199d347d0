import { describe, expect, it } from 'vitest';
import { codePointLength, codePointSlice, isPyWs, pySplit, pyStrip, utf8Replace } from './pystr.ts';

describe('pyStrip follows Python str.strip(), not JS trim()', () => {
	it('strips the information separators \\x1c-\\x1f and NEL \\x85, which trim() keeps', () => {
		expect(pyStrip('\x1c\x1d hi \x1e\x1f\x85')).toBe('hi');
		expect('\x1chi\x85'.trim()).not.toBe('hi');
	});
	it('keeps U+FEFF and U+200B, which are not Python whitespace', () => {
		expect(pyStrip('\ufeffhi\ufeff')).toBe('\ufeffhi\ufeff');
		expect(pyStrip('\u200bhi')).toBe('\u200bhi');
	});
	it('strips the Unicode spaces Python knows', () => {
		expect(pyStrip('\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000x\t\n\v\f\r ')).toBe('x');
	});
	it('returns the same string when nothing is stripped, and "" for all-blank', () => {
		expect(pyStrip('a b')).toBe('a b');
		expect(pyStrip(' \x1f\x85 ')).toBe('');
	});
	it('isPyWs agrees with the class for every BMP code unit (spot checks)', () => {
		expect(isPyWs(0x1c)).toBe(true);
		expect(isPyWs(0x1b)).toBe(false);
		expect(isPyWs(0x180e)).toBe(false);
		expect(isPyWs(0xfeff)).toBe(false);
	});
});

describe('pySplit follows str.split() with no argument', () => {
	it('splits on runs of Python whitespace and drops empties', () => {
		expect(pySplit('  keep   the\x1csync\u3000API  ')).toEqual(['keep', 'the', 'sync', 'API']);
		expect(pySplit('   ')).toEqual([]);
	});
});

describe('utf8Replace encodes like s.encode("utf-8", "replace")', () => {
	it('encodes ASCII, 2-, 3- and 4-byte characters', () => {
		expect([...utf8Replace('aé✓😀')]).toEqual([0x61, 0xc3, 0xa9, 0xe2, 0x9c, 0x93, 0xf0, 0x9f, 0x98, 0x80]);
	});
	it('turns a lone surrogate into "?" (TextEncoder would give U+FFFD)', () => {
		expect([...utf8Replace('a\ud800b')]).toEqual([0x61, 0x3f, 0x62]);
		expect([...utf8Replace('\udc00')]).toEqual([0x3f]);
		expect([...new TextEncoder().encode('\ud800')]).not.toEqual([0x3f]);
	});
});

describe('code point helpers (Python len / slicing)', () => {
	it('counts an astral character as one', () => {
		expect(codePointLength('a😀b')).toBe(3);
		expect(codePointSlice('😀😀😀', 2)).toBe('😀😀');
	});
});
