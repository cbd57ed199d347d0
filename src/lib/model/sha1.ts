// Small synchronous SHA-1 (FIPS 180-4). Turn and segment ids embed the first 8 hex digits of
// SHA-1 over the Python-encoded text; WebCrypto's digest is async and absent from some
// contexts, and the model must stay synchronous in Node and in the worker.
import { utf8Replace } from './pystr.ts';

function rotl(x: number, n: number): number {
	return (x << n) | (x >>> (32 - n));
}

/** SHA-1 of bytes as 40 lowercase hex digits. */
export function sha1Bytes(msg: Uint8Array): string {
	const len = msg.length;
	const total = ((len + 9 + 63) >> 6) << 6;
	const buf = new Uint8Array(total);
	buf.set(msg);
	buf[len] = 0x80;
	const view = new DataView(buf.buffer);
	const bits = len * 8;
	view.setUint32(total - 4, bits >>> 0);
	view.setUint32(total - 8, Math.floor(bits / 0x100000000));
	let h0 = 0x67452301, h1 = 0xefcdab89, h2 = 0x98badcfe, h3 = 0x10325476, h4 = 0xc3d2e1f0;
	const w = new Int32Array(80);
	for (let off = 0; off < total; off += 64) {
		for (let i = 0; i < 16; i++) w[i] = view.getInt32(off + i * 4);
		for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
		let a = h0, b = h1, c = h2, d = h3, e = h4;
		for (let i = 0; i < 80; i++) {
			let f: number, k: number;
			if (i < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
			else if (i < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
			else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc; }
			else { f = b ^ c ^ d; k = 0xca62c1d6; }
			const tmp = (rotl(a, 5) + f + e + k + w[i]) | 0;
			e = d; d = c; c = rotl(b, 30); b = a; a = tmp;
		}
		h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
	}
	return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('');
}

/** SHA-1 of a string encoded as Python's s.encode('utf-8', 'replace'). */
export function sha1Hex(s: string): string {
	return sha1Bytes(utf8Replace(s));
}
