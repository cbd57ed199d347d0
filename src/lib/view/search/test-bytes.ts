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

/** 70,000 bytes whose tail repeats its head from 65,535 back: matches at the window's far edge,
 *  after literals longer than 255. */
export function windowEdge(): Uint8Array {
	const far = new Uint8Array(70_000);
	far.set(noise(65_535, 7));
	far.set(far.subarray(0, 4_465), 65_535);
	return far;
}
