// The WebAssembly decompressor (lz-wasm.ts, lz-decode.wat) against lz.ts's: the same bytes back
// for every block compress() writes, the same refusal of a block cut short or corrupted, and the
// committed module is the assembly of the committed text.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { compress, decompress } from './lz.ts';
import { decompressFast, fastAvailable } from './lz-wasm.ts';
import { noise, windowEdge } from './test-bytes.ts';
import { assemble, moduleSource, MODULES } from '../../../../scripts/build-wasm.ts';

const enc = new TextEncoder();


/** Copied out: the answer is a view of the decoder's memory, good until the next call. */
const fast = (block: Uint8Array) => decompressFast(block)!.slice();
const same = (input: Uint8Array) => {
	const block = compress(input);
	expect(fast(block)).toEqual(decompress(block));
	expect(fast(block)).toEqual(input);
};

/** The outcome of a decompressor on a block: its bytes or its error's message. */
function outcome(run: () => Uint8Array): string {
	try {
		return Buffer.from(run()).toString('hex');
	} catch (e) {
		return `error: ${(e as Error).message}`;
	}
}

describe('lz-wasm', () => {
	it('runs here (Node and the workers have WebAssembly)', () => {
		expect(fastAvailable()).toBe(true);
	});

	it('gives back what lz.ts gives back: edge lengths, runs, repeats, matches at the window edge', () => {
		for (const n of [0, 1, 4, 7, 8, 9, 12, 15, 16, 17, 23, 24, 25, 31, 32, 33, 40, 254, 255, 256, 270, 525, 4096]) {
			same(noise(n, n + 1));
			same(new Uint8Array(n).fill(97));
			same(enc.encode('abcdefgh'.repeat(n).slice(0, n)));
		}
		same(new Uint8Array(100_000));
		same(enc.encode('ab'.repeat(40_000)));
		same(enc.encode('abcde'.repeat(9_000) + 'abcdefg'.repeat(7_000)));
		same(enc.encode('the parser reads each line. '.repeat(5_000) + 'end'));
		same(windowEdge());
	});

	it('gives back any bytes, and one block after another (the memory grows and is reused)', () => {
		fc.assert(
			fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constantFrom(enc.encode('parser '), enc.encode('{"a":1}'), enc.encode('abcdefghij'))), { maxLength: 80 }), (parts) => {
				same(Uint8Array.from(parts.flatMap((p) => [...p])));
			}),
			{ numRuns: 400 }
		);
		same(enc.encode('x'.repeat(300_000) + 'the parser reads each line. '.repeat(20_000)));
		same(enc.encode('small again'));
	});

	it('refuses what lz.ts refuses, with the same message, for cut and corrupted blocks', () => {
		const blocks = [compress(enc.encode('the parser reads each line. '.repeat(100))), compress(noise(3_000, 2)), compress(enc.encode('abcdabcd'.repeat(500) + 'tail of literals'))];
		const mutants: Uint8Array[] = [];
		for (const b of blocks) {
			for (let cut = 0; cut < b.length; cut += Math.max(1, b.length >> 6)) mutants.push(b.subarray(0, cut));
			for (let i = 0; i < b.length; i += Math.max(1, b.length >> 7)) {
				for (const v of [0, 1, 0x0f, 0xf0, 0xff]) {
					const m = b.slice();
					m[i] = v;
					mutants.push(m);
				}
			}
		}
		for (const m of mutants) expect(outcome(() => fast(m))).toBe(outcome(() => decompress(m)));
	});

	it('treats any bytes as lz.ts does (mostly corrupt blocks: a read or write out of its ranges would trap or differ)', () => {
		// lz.ts checks every access; a WebAssembly access outside its memory traps (another message).
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 5, maxLength: 200 }), (bytes) => {
				const block = bytes.slice();
				block[0] = bytes.length;
				block[1] = block[2] = block[3] = 0;
				expect(outcome(() => fast(block))).toBe(outcome(() => decompress(block)));
			}),
			{ numRuns: 2_000 }
		);
	});

	it('is the assembly of lz-decode.wat (npm run build:wasm)', async () => {
		for (const m of MODULES) {
			const bytes = await assemble(m.wat);
			expect(readFileSync(m.out, 'utf8')).toBe(moduleSource(m.name, m.wat, bytes));
		}
	});
});
