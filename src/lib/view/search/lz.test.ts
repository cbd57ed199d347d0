// The history text's compressor: every input comes back byte for byte (lengths across the
// token's 15 and the length bytes' 255 edges, overlapping matches, text that does not compress),
// repetitive text shrinks, and a block cut short or corrupted throws instead of returning bytes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compress, decompress, DECOMPRESS_SLACK, maxCompressedSize } from './lz.ts';
import { noise, windowEdge } from './test-bytes.ts';

const enc = new TextEncoder();
const roundTrip = (b: Uint8Array) => expect(decompress(compress(b))).toEqual(b);


describe('lz', () => {
	it('gives back empty, tiny and edge-length inputs', () => {
		for (const n of [0, 1, 4, 7, 8, 9, 12, 13, 14, 15, 16, 17, 19, 20, 254, 255, 256, 269, 270, 271, 525, 4096]) {
			roundTrip(noise(n, n + 1));
			roundTrip(new Uint8Array(n).fill(97));
		}
	});

	it('gives back long runs and repeats (overlapping matches, length bytes past 255)', () => {
		roundTrip(new Uint8Array(100_000).fill(0));
		roundTrip(enc.encode('ab'.repeat(40_000)));
		roundTrip(enc.encode('the parser reads each line. '.repeat(5_000) + 'end'));
		roundTrip(windowEdge());
	});

	it('shrinks repetitive text and stays within its bound on noise', () => {
		const text = enc.encode(Array.from({ length: 2_000 }, (_, i) => `{"path": "src/file${i % 50}.ts", "line": ${i}}\n`).join(''));
		expect(compress(text).byteLength).toBeLessThan(text.byteLength / 4);
		const random = noise(50_000, 3);
		const c = compress(random);
		expect(c.byteLength).toBeLessThanOrEqual(maxCompressedSize(random.byteLength));
		expect(decompress(c)).toEqual(random);
	});

	it('gives back any bytes (property)', () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(enc.encode('parser '), enc.encode('{"a":1}'))), { maxLength: 60 }), (parts) => {
				const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
				let at = 0;
				for (const p of parts) {
					joined.set(p, at);
					at += p.length;
				}
				expect(decompress(compress(joined))).toEqual(joined);
			}),
			{ numRuns: 300 }
		);
	});

	it('decompresses into a reused buffer whatever it held, and only one with room for the slack', () => {
		const scratch = new Uint8Array(300_000).fill(0xaa);
		for (const input of [enc.encode('the parser reads each line. '.repeat(5_000)), noise(20_000, 9), enc.encode('ab'.repeat(9_000) + 'abc'.repeat(7_000))]) {
			const out = decompress(compress(input), scratch);
			expect(out).toEqual(input);
			expect(out.buffer).toBe(scratch.buffer);
			scratch.fill(0x55);
		}
		const tight = new Uint8Array(1_000 + DECOMPRESS_SLACK - 1);
		const input = noise(1_000, 4);
		const out = decompress(compress(input), tight);
		expect(out).toEqual(input);
		expect(out.buffer).not.toBe(tight.buffer);
	});

	it('refuses a block cut short or corrupted', () => {
		const block = compress(enc.encode('the parser reads each line. '.repeat(100)));
		expect(() => decompress(block.subarray(0, block.length - 3))).toThrow();
		expect(() => decompress(block.subarray(0, 3))).toThrow();
		// A length header that promises more than the sequences give.
		const longer = block.slice();
		longer[0] += 1;
		expect(() => decompress(longer)).toThrow();
		// A match that reaches back before the start.
		const bad = compress(enc.encode('abcdabcdabcdabcd'));
		const token = 4;
		const lits = bad[token] >>> 4;
		bad[token + 1 + lits] = 0xff;
		bad[token + 2 + lits] = 0xff;
		expect(() => decompress(bad)).toThrow();
		// The same in a short sequence of a long block (the wide-copy path): 14 literals, then a
		// match 4,095 back, then 82 literals.
		const n = 14 + 4 + 82;
		const handMade = new Uint8Array([n, 0, 0, 0, (14 << 4) | 0, ...enc.encode('abcdefghijklmn'), 0xff, 0x0f, 15 << 4, 82 - 15, ...noise(82, 5)]);
		expect(() => decompress(handMade)).toThrow('corrupt');
		handMade.set([14, 0], 4 + 1 + 14); // 14 back: the first literals again
		expect(decompress(handMade).subarray(14, 18)).toEqual(enc.encode('abcd'));
	});
});
