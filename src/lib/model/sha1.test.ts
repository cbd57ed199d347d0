import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1Bytes, sha1Hex, sha1Hex8 } from './sha1.ts';

const node = (s: string | Uint8Array) => createHash('sha1').update(s).digest('hex');

describe('sha1', () => {
	it('matches the FIPS test vectors', () => {
		expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
		expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
		expect(sha1Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
	});
	it('agrees with node:crypto around the padding boundaries and on non-ASCII text', () => {
		for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 1000]) {
			const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 255);
			expect(sha1Bytes(bytes)).toBe(node(bytes));
		}
		expect(sha1Hex('naïve café 数据 ✓ 😀')).toBe(node('naïve café 数据 ✓ 😀'));
	});
	it('reuses its buffers safely: a long text, then a short one, then a long one again', () => {
		const long = 'αβγ '.repeat(3000);
		expect(sha1Hex(long)).toBe(node(long));
		expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
		expect(sha1Hex(long + '!')).toBe(node(long + '!'));
	});
	it('hashes a lone surrogate as "?" like Python errors="replace"', () => {
		expect(sha1Hex('x\ud83dy')).toBe(node('x?y'));
	});
	it('encodes short and long text alike (by hand, or through TextEncoder), and sha1Hex8 is its head', () => {
		const parts = ['a', 'é', '数', '😀', ' ', '\u07ff', '\u0800', '\uffff', '\ud7ff', '\ue000'];
		for (let k = 0; k < 200; k++) {
			let t = '';
			for (let i = 0; i < (k * 7) % 300; i++) t += parts[(i * 13 + k) % parts.length];
			expect(sha1Hex(t)).toBe(node(t));
			expect(sha1Hex8(t)).toBe(node(t).slice(0, 8));
		}
		expect(sha1Hex8('x\ud83dy')).toBe(node('x?y').slice(0, 8));
		expect(sha1Hex('\udc00' + 'a'.repeat(300))).toBe(node('?' + 'a'.repeat(300)));
	});
});

