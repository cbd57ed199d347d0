import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatFragment, MAX_ID_CHARS, parseFragment } from './fragment.ts';

describe('parseFragment', () => {
	it('reads session key, atom and turn from a fragment with or without "#"', () => {
		expect(parseFragment('#s=abc-123&a=u1')).toEqual({ s: 'abc-123', a: 'u1' });
		expect(parseFragment('s=k&t=sid:1780004000:d780b71b')).toEqual({ s: 'k', t: 'sid:1780004000:d780b71b' });
	});

	it('decodes percent escapes and keeps the first occurrence of a key', () => {
		expect(parseFragment('#a=orphan%3A17&a=other&s=x%20y')).toEqual({ a: 'orphan:17', s: 'x y' });
	});

	it('keeps the z payload verbatim', () => {
		expect(parseFragment('#z=AQ-_xyz&s=k')).toEqual({ z: 'AQ-_xyz', s: 'k' });
	});

	it('drops junk: unknown keys, empty values, bad escapes, missing "=", over-long ids', () => {
		expect(parseFragment('#foo=1&s=&a=%E0%A4%A&&=x&t&s=ok')).toEqual({ s: 'ok' });
		expect(parseFragment(`#a=${'x'.repeat(MAX_ID_CHARS + 1)}`)).toEqual({});
		expect(parseFragment('')).toEqual({});
		expect(parseFragment(null)).toEqual({});
		expect(parseFragment('#')).toEqual({});
	});
});

describe('formatFragment', () => {
	it('writes keys in a fixed order and keeps ":" readable', () => {
		expect(formatFragment({ a: 'u 1', s: 'key' })).toBe('#s=key&a=u%201');
		expect(formatFragment({ t: 'sid:17:ab' })).toBe('#t=sid:17:ab');
		expect(formatFragment({})).toBe('');
		expect(formatFragment({ q: 'rm -rf & "x"', a: 'u', s: 'k' })).toBe('#s=k&a=u&q=rm%20-rf%20%26%20%22x%22');
	});

	it('round-trips any ids, unicode and separators included', () => {
		const id = fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' });
		fc.assert(
			fc.property(fc.record({ s: id, a: id, t: id, q: id }, { requiredKeys: [] }), (f) => {
				expect(parseFragment(formatFragment(f))).toEqual(f);
			})
		);
	});

	it('never throws on arbitrary input', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (s) => {
				const f = parseFragment(s);
				for (const v of Object.values(f)) expect(typeof v).toBe('string');
			})
		);
	});
});

describe('search scope in the fragment', () => {
	it('qs round-trips after q, and a link without it parses as before', () => {
		const hash = formatFragment({ s: 'k', a: 'u', q: 'timeout after', qs: 'history' });
		expect(hash).toBe('#s=k&a=u&q=timeout%20after&qs=history');
		expect(parseFragment(hash)).toEqual({ s: 'k', a: 'u', q: 'timeout after', qs: 'history' });
		expect(parseFragment('#s=k&q=x')).toEqual({ s: 'k', q: 'x' });
	});
});
