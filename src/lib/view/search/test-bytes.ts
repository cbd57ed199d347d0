// Inputs for the compressor's tests (lz.test.ts, lz-wasm.test.ts).

/** Deterministic pseudo-random bytes (a small LCG): incompressible input. */
export function noise(n: number, seed = 1): Uint8Array {
	const out = new Uint8Array(n);
	let x = seed;
	for (let i = 0; i < n; i++) {
		x = (Math.imul(x, 1103515245) + 12345) >>> 0;
		out[i] = x >>> 24;
	}
	return out;
}
