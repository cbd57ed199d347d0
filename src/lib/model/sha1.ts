// Small synchronous SHA-1 (FIPS 180-4). Turn and segment ids embed the first 8 hex digits of
// SHA-1 over the Python-encoded text; WebCrypto's digest is async and absent from some
// contexts, and the model must stay synchronous in Node and in the worker.
// A load hashes one text per turn and per segment (tens of thousands), so the hot path reuses
// its buffers instead of allocating per call.
import { utf8Replace } from './pystr.ts';

const W = new Int32Array(80);
const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const encoder = new TextEncoder();
/** Scratch space for encoding + padding; grows to the longest text seen. */
let scratch = new Uint8Array(1024);

function hex32(h: number): string {
	return HEX[(h >>> 24) & 255] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];
}

/** Room for `len` message bytes plus padding (0x80, zeros, 64-bit length) in the scratch buffer. */
function paddedSize(len: number): number {
	return ((len + 9 + 63) >> 6) << 6;
}

function ensureScratch(size: number): Uint8Array {
	if (scratch.length < size) scratch = new Uint8Array(Math.max(size, scratch.length * 2));
	return scratch;
}

/** SHA-1 of the first `len` bytes of `buf`, which must have room for the padding. */
function digest(buf: Uint8Array, len: number): string {
	const total = paddedSize(len);
	buf[len] = 0x80;
	buf.fill(0, len + 1, total);
	const bitsHi = Math.floor(len / 0x20000000);
	const bitsLo = (len * 8) >>> 0;
	buf[total - 8] = bitsHi >>> 24; buf[total - 7] = bitsHi >>> 16; buf[total - 6] = bitsHi >>> 8; buf[total - 5] = bitsHi;
	buf[total - 4] = bitsLo >>> 24; buf[total - 3] = bitsLo >>> 16; buf[total - 2] = bitsLo >>> 8; buf[total - 1] = bitsLo;
	let h0 = 0x67452301, h1 = 0xefcdab89 | 0, h2 = 0x98badcfe | 0, h3 = 0x10325476, h4 = 0xc3d2e1f0 | 0;
	for (let off = 0; off < total; off += 64) {
		for (let i = 0; i < 16; i++) {
			const p = off + i * 4;
			W[i] = (buf[p] << 24) | (buf[p + 1] << 16) | (buf[p + 2] << 8) | buf[p + 3];
		}
		for (let i = 16; i < 80; i++) {
			const x = W[i - 3] ^ W[i - 8] ^ W[i - 14] ^ W[i - 16];
			W[i] = (x << 1) | (x >>> 31);
		}
		let a = h0, b = h1, c = h2, d = h3, e = h4;
		for (let i = 0; i < 80; i++) {
			let f: number, k: number;
			if (i < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
			else if (i < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
			else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc | 0; }
			else { f = b ^ c ^ d; k = 0xca62c1d6 | 0; }
			const tmp = (((a << 5) | (a >>> 27)) + f + e + k + W[i]) | 0;
			e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = tmp;
		}
		h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
	}
	return hex32(h0) + hex32(h1) + hex32(h2) + hex32(h3) + hex32(h4);
}

/** SHA-1 of bytes as 40 lowercase hex digits. */
export function sha1Bytes(msg: Uint8Array): string {
	const buf = ensureScratch(paddedSize(msg.length));
	buf.set(msg);
	return digest(buf, msg.length);
}

/** SHA-1 of a string encoded as Python's s.encode('utf-8', 'replace'). */
export function sha1Hex(s: string): string {
	// TextEncoder writes a lone surrogate as U+FFFD where Python writes '?': only well-formed
	// text takes the fast path (utf8Replace handles the rest).
	if (!(s as { isWellFormed?: () => boolean }).isWellFormed?.()) return sha1Bytes(utf8Replace(s));
	const buf = ensureScratch(paddedSize(s.length * 3));
	const { written } = encoder.encodeInto(s, buf);
	return digest(buf, written);
}
