// lz.ts's decompressor in WebAssembly (lz-decode.wat), for the history search's lanes: a first
// broad history query decompresses every session's search text, and in JavaScript that was a
// third of each lane's time (a CPU profile of the lanes, bench:browser --case projects). Where
// WebAssembly cannot run (a Content-Security-Policy without 'wasm-unsafe-eval' applies to the
// page's own thread, not to its workers), decompressFast gives null and the caller uses lz.ts.
import { DECOMPRESS_SLACK, decompressedSize } from './lz.ts';
import { LZ_DECODE_WASM } from './lz-decode.wasm.ts';

interface Decoder {
	memory: WebAssembly.Memory;
	decode(src: number, srcLen: number, dst: number, n: number): number;
}

const PAGE = 65536;
/** undefined: not tried yet; null: WebAssembly is not available here. */
let decoder: Decoder | null | undefined;

function start(): Decoder | null {
	try {
		const bytes = Uint8Array.from(atob(LZ_DECODE_WASM), (c) => c.charCodeAt(0));
		// Synchronous: the module is well under the 4 KB a page's thread may compile this way.
		return new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Decoder;
	} catch {
		return null;
	}
}

/** Whether the WebAssembly decompressor runs here. */
export function fastAvailable(): boolean {
	decoder ??= start();
	return decoder !== null;
}

/** The original bytes of a block compress() wrote, as a view of the decoder's memory (valid until
 *  the next call: decode it before asking again), or null where WebAssembly cannot run. Throws
 *  on bytes that are not such a block, with lz.ts's messages. */
export function decompressFast(src: Uint8Array): Uint8Array | null {
	if (!fastAvailable()) return null;
	const d = decoder!;
	const n = decompressedSize(src);
	// The block at 0, the original after it (8-aligned), then the slack the wide copies write into.
	const dst = (src.length + 7) & ~7;
	const need = dst + n + DECOMPRESS_SLACK;
	const have = d.memory.buffer.byteLength;
	if (need > have) d.memory.grow(Math.ceil((need - have) / PAGE));
	new Uint8Array(d.memory.buffer, 0, src.length).set(src);
	const r = d.decode(0, src.length, dst, n);
	if (r === -1) throw new Error('compressed block cut short');
	if (r !== n) throw new Error('compressed block is corrupt');
	return new Uint8Array(d.memory.buffer, dst, n);
}
