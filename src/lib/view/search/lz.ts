// A small, fast byte compressor for the history search text (history-text.ts): LZ77 with LZ4's
// byte-aligned sequence layout. Not deflate: the history pass compresses every session's text and
// a first history query decompresses it all, and zlib level 6 (CompressionStream, ~17 MB/s) was
// the largest part of both. This is several times faster and decodes at memory speed, for a
// larger output (~12 % of the tree against deflate's ~9 %; the index's budget is 25 %).
// Block: u32 LE length of the original, then sequences. Each sequence: a token (high nibble:
// literal count, low nibble: match length − 4; 15 in either means more length bytes follow, each
// added, until one is below 255), the literals, and — except in the last sequence, which is
// literals only — the match's distance back (u16 LE, 1..65535). A match may overlap its output.

const MIN_MATCH = 4;
const HASH_BITS = 16;
/** The last bytes are always literals, so the match finder may read 4 bytes past any position it tries. */
const TAIL = 8;
const MAX_DISTANCE = 0xffff;

/** Reused between calls (a lane compresses one session at a time, on one thread). */
let table: Int32Array | null = null;

function read32(b: Uint8Array, i: number): number {
	return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

function writeLength(out: Uint8Array, op: number, rest: number): number {
	while (rest >= 255) {
		out[op++] = 255;
		rest -= 255;
	}
	out[op++] = rest;
	return op;
}

/** The most bytes compress(n bytes) can write. */
export function maxCompressedSize(n: number): number {
	return 4 + n + Math.ceil(n / 255) + 16;
}

export function compress(src: Uint8Array): Uint8Array {
	const n = src.length;
	const out = new Uint8Array(maxCompressedSize(n));
	out[0] = n & 0xff;
	out[1] = (n >>> 8) & 0xff;
	out[2] = (n >>> 16) & 0xff;
	out[3] = n >>> 24;
	let op = 4;
	// Positions are stored + 1, so 0 means "none" and a fresh table needs no fill.
	const hashes = (table ??= new Int32Array(1 << HASH_BITS));
	hashes.fill(0);
	let anchor = 0;
	let ip = 0;
	const limit = n - TAIL;
	while (ip < limit) {
		const seq = read32(src, ip);
		const h = Math.imul(seq, 0x9e3779b1) >>> (32 - HASH_BITS);
		const ref = hashes[h] - 1;
		hashes[h] = ip + 1;
		if (ref < 0 || ip - ref > MAX_DISTANCE || read32(src, ref) !== seq) {
			// Text with nothing to match is skipped faster the longer the run of literals gets.
			ip += 1 + ((ip - anchor) >>> 7);
			continue;
		}
		let len = MIN_MATCH;
		while (ip + len < limit && src[ref + len] === src[ip + len]) len++;
		// The sequence: literals [anchor, ip), then the match.
		const lit = ip - anchor;
		const ml = len - MIN_MATCH;
		const tokenAt = op++;
		out[tokenAt] = ((lit < 15 ? lit : 15) << 4) | (ml < 15 ? ml : 15);
		if (lit >= 15) op = writeLength(out, op, lit - 15);
		if (lit < 16) for (let i = 0; i < lit; i++) out[op + i] = src[anchor + i];
		else out.set(src.subarray(anchor, ip), op);
		op += lit;
		const dist = ip - ref;
		out[op++] = dist & 0xff;
		out[op++] = dist >>> 8;
		if (ml >= 15) op = writeLength(out, op, ml - 15);
		ip += len;
		anchor = ip;
		// The position just before the match's end is a likely start of the next one.
		if (ip < limit) hashes[Math.imul(read32(src, ip - 2), 0x9e3779b1) >>> (32 - HASH_BITS)] = ip - 1;
	}
	// The last sequence: the rest as literals.
	const lit = n - anchor;
	out[op++] = (lit < 15 ? lit : 15) << 4;
	if (lit >= 15) op = writeLength(out, op, lit - 15);
	out.set(src.subarray(anchor, n), op);
	op += lit;
	return out.slice(0, op);
}

/** The original length of a block compress() wrote. */
export function decompressedSize(src: Uint8Array): number {
	if (src.length < 5) throw new Error('not a compressed block');
	return (src[0] | (src[1] << 8) | (src[2] << 16) | (src[3] << 24)) >>> 0;
}

/** Bytes past the original's end the decompressor may write (its copies run 4 or 16 bytes wide). */
export const DECOMPRESS_SLACK = 32;

/** The original bytes. Throws on bytes that are not a block compress() wrote. `into`: written
 *  there instead (the answer is a view of its first decompressedSize(src) bytes), when it holds
 *  that many plus DECOMPRESS_SLACK: a lane decoding a history reuses one buffer instead of
 *  leaving a dead one per session for the GC. */
export function decompress(src: Uint8Array, into?: Uint8Array): Uint8Array {
	const n = decompressedSize(src);
	const out = into && into.length >= n + DECOMPRESS_SLACK ? into : new Uint8Array(n + DECOMPRESS_SLACK);
	const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
	const srcView = new DataView(src.buffer, src.byteOffset, src.byteLength);
	const end = src.length;
	// The fast path's bounds: 16 literal bytes and a distance readable, its writes inside the slack.
	const srcFast = end - 24;
	const outFast = n - DECOMPRESS_SLACK;
	let ip = 4;
	let op = 0;
	for (;;) {
		if (ip >= end) throw new Error('compressed block cut short');
		const token = src[ip++];
		let lit = token >>> 4;
		let ml = token & 15;
		if (lit < 15 && ml < 15 && ip < srcFast && op < outFast) {
			// Most sequences (a generated history's average: 0.4 literal and 8 match bytes): the
			// literals copied 4 or 16 bytes wide and the match 4 at a time, past their ends into
			// bytes the next sequence writes again (LZ4's "wild copy"), instead of a byte loop each.
			outView.setUint32(op, srcView.getUint32(ip, true), true);
			if (lit > 4) {
				outView.setUint32(op + 4, srcView.getUint32(ip + 4, true), true);
				outView.setUint32(op + 8, srcView.getUint32(ip + 8, true), true);
				outView.setUint32(op + 12, srcView.getUint32(ip + 12, true), true);
			}
			ip += lit;
			op += lit;
			const dist = src[ip] | (src[ip + 1] << 8);
			ip += 2;
			const ref = op - dist;
			if (dist === 0 || ref < 0) throw new Error('compressed block is corrupt');
			const stop = op + ml + MIN_MATCH;
			// Four bytes at a time read only bytes already final when the match is 4 or more back.
			if (dist >= 4) for (let r = ref; op < stop; op += 4, r += 4) outView.setUint32(op, outView.getUint32(r, true), true);
			else for (let r = ref; op < stop; ) out[op++] = out[r++];
			op = stop;
			continue;
		}
		if (lit === 15) {
			let b: number;
			do {
				if (ip >= end) throw new Error('compressed block cut short');
				b = src[ip++];
				lit += b;
			} while (b === 255);
		}
		if (ip + lit > end || op + lit > n) throw new Error('compressed block is corrupt');
		if (lit > 64) {
			out.set(src.subarray(ip, ip + lit), op);
			ip += lit;
			op += lit;
		} else {
			const stop = ip + lit;
			while (ip < stop) out[op++] = src[ip++];
		}
		if (ip === end) break;
		if (ip + 2 > end) throw new Error('compressed block cut short');
		const dist = src[ip] | (src[ip + 1] << 8);
		ip += 2;
		if (ml === 15) {
			let b: number;
			do {
				if (ip >= end) throw new Error('compressed block cut short');
				b = src[ip++];
				ml += b;
			} while (b === 255);
		}
		ml += MIN_MATCH;
		const ref = op - dist;
		if (dist === 0 || ref < 0 || op + ml > n) throw new Error('compressed block is corrupt');
		if (dist >= ml && ml > 64) {
			out.copyWithin(op, ref, ref + ml);
			op += ml;
		} else {
			let r = ref;
			const stop = op + ml;
			while (op < stop) out[op++] = out[r++];
		}
	}
	if (op !== n) throw new Error('compressed block is corrupt');
	return out.subarray(0, n);
}
