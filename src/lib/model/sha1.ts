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

/** The five state words of SHA-1 over the first `len` bytes of `buf` (room for padding needed). */
const H = new Int32Array(5);
function digestWords(buf: Uint8Array, len: number): Int32Array {
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
		// The four 20-round stages as separate loops (no per-round branching).
		for (let i = 0; i < 20; i++) {
			const tmp = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + W[i]) | 0;
			e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = tmp;
		}
		for (let i = 20; i < 40; i++) {
			const tmp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + W[i]) | 0;
			e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = tmp;
		}
		for (let i = 40; i < 60; i++) {
			const tmp = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + (0x8f1bbcdc | 0) + W[i]) | 0;
			e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = tmp;
		}
		for (let i = 60; i < 80; i++) {
			const tmp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + (0xca62c1d6 | 0) + W[i]) | 0;
			e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = tmp;
		}
		h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
	}
	H[0] = h0; H[1] = h1; H[2] = h2; H[3] = h3; H[4] = h4;
	return H;
}

/** SHA-1 of the first `len` bytes of `buf`, which must have room for the padding. */
function digest(buf: Uint8Array, len: number): string {
	const h = digestWords(buf, len);
	return hex32(h[0]) + hex32(h[1]) + hex32(h[2]) + hex32(h[3]) + hex32(h[4]);
}

/** SHA-1 of bytes as 40 lowercase hex digits. */
export function sha1Bytes(msg: Uint8Array): string {
	const buf = ensureScratch(paddedSize(msg.length));
	buf.set(msg);
	return digest(buf, msg.length);
}

/** Strings up to this length are UTF-8 encoded by hand: for the short texts most ids hash, a
 *  call into TextEncoder.encodeInto (and isWellFormed) costs more than the encoding itself. */
const SHORT = 256;

/**
 * UTF-8 bytes of s (short, see SHORT) into the scratch buffer, as Python's s.encode('utf-8',
 * 'replace') would write them, or -1 at a lone surrogate (the caller takes the slow path).
 */
function encodeShort(s: string): number {
	const buf = ensureScratch(paddedSize(s.length * 3));
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		let c = s.charCodeAt(i);
		if (c < 0x80) buf[n++] = c;
		else if (c < 0x800) {
			buf[n++] = 0xc0 | (c >> 6);
			buf[n++] = 0x80 | (c & 63);
		} else if (c < 0xd800 || c > 0xdfff) {
			buf[n++] = 0xe0 | (c >> 12);
			buf[n++] = 0x80 | ((c >> 6) & 63);
			buf[n++] = 0x80 | (c & 63);
		} else {
			const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
			if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) return -1;
			c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
			i++;
			buf[n++] = 0xf0 | (c >> 18);
			buf[n++] = 0x80 | ((c >> 12) & 63);
			buf[n++] = 0x80 | ((c >> 6) & 63);
			buf[n++] = 0x80 | (c & 63);
		}
	}
	return n;
}

/** UTF-8 of s in the scratch buffer (byte count), or -1 when s is not well-formed. */
function encode(s: string): number {
	if (s.length <= SHORT) return encodeShort(s);
	// TextEncoder writes a lone surrogate as U+FFFD where Python writes '?': only well-formed
	// text takes this path (utf8Replace handles the rest).
	if (!(s as { isWellFormed?: () => boolean }).isWellFormed?.()) return -1;
	return encoder.encodeInto(s, ensureScratch(paddedSize(s.length * 3))).written;
}

/** SHA-1 of a string encoded as Python's s.encode('utf-8', 'replace'). */
export function sha1Hex(s: string): string {
	const n = encode(s);
	return n < 0 ? sha1Bytes(utf8Replace(s)) : digest(scratch, n);
}

/** The first 8 hex digits of sha1Hex(s) (what turn and segment ids embed), without the rest. */
export function sha1Hex8(s: string): string {
	const n = encode(s);
	return n < 0 ? sha1Hex(s).slice(0, 8) : hex32(digestWords(scratch, n)[0]);
}
