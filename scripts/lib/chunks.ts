// Splitting bytes into chunks the way a stream would deliver them, for chunked-parse tests.

/** Consecutive chunks of `size` bytes (the last may be shorter). */
export function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
	const out: Uint8Array[] = [];
	for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
	return out;
}

/** Chunks cut at the given offsets (taken modulo length + 1; duplicates give no empty chunks). */
export function cutAt(bytes: Uint8Array, points: number[]): Uint8Array[] {
	const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
	const out: Uint8Array[] = [];
	let prev = 0;
	for (const p of [...at, bytes.length]) {
		out.push(bytes.subarray(prev, p));
		prev = p;
	}
	return out;
}
