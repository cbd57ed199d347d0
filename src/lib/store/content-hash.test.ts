import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_CHUNK_BYTES, hashBlob } from './content-hash';

/** Reference for the scheme, written against node:crypto: SHA-256 over the chunks' SHA-256s. */
function reference(bytes: Uint8Array): string {
  const outer = createHash('sha256');
  const chunks = Math.max(1, Math.ceil(bytes.length / HASH_CHUNK_BYTES));
  for (let i = 0; i < chunks; i++) {
    outer.update(createHash('sha256').update(bytes.subarray(i * HASH_CHUNK_BYTES, (i + 1) * HASH_CHUNK_BYTES)).digest());
  }
  return outer.digest('hex');
}

/** Deterministic pseudo-random bytes (no Math.random: the fixture must be the same every run). */
function bytesOf(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

describe('hashBlob', () => {
  it('matches the reference for empty, small, exactly-one-chunk and multi-chunk inputs', async () => {
    for (const length of [0, 5, HASH_CHUNK_BYTES, 2 * HASH_CHUNK_BYTES + 17]) {
      const bytes = bytesOf(length, length + 1);
      expect(await hashBlob(new Blob([bytes]))).toBe(reference(bytes));
    }
  });

  it('is 64 lowercase hex characters and differs from the plain SHA-256 of the file', async () => {
    const bytes = new TextEncoder().encode('{"type":"user"}\n');
    const hash = await hashBlob(new Blob([bytes]));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('gives equal bytes equal hashes however the blob was assembled, and a one-byte change a new hash', async () => {
    const bytes = bytesOf(HASH_CHUNK_BYTES + 100, 7);
    const whole = await hashBlob(new Blob([bytes]));
    const pieces = await hashBlob(new Blob([bytes.subarray(0, 10), bytes.subarray(10, HASH_CHUNK_BYTES + 3), bytes.subarray(HASH_CHUNK_BYTES + 3)]));
    expect(pieces).toBe(whole);
    const changed = bytes.slice();
    changed[HASH_CHUNK_BYTES + 50] ^= 1;
    expect(await hashBlob(new Blob([changed]))).not.toBe(whole);
  });
});

describe('hashBlob memo', () => {
  it('a blob is hashed once (the cache write awaits the hash a load started); a failed read is not remembered', async () => {
    const blob = new Blob([bytesOf(1000, 3)]);
    const first = hashBlob(blob);
    expect(hashBlob(blob)).toBe(first);
    expect(await first).toBe(reference(bytesOf(1000, 3)));
    let fail = true;
    const flaky = new Blob([bytesOf(10, 4)]);
    const realSlice = flaky.slice.bind(flaky);
    flaky.slice = ((...args: Parameters<Blob['slice']>) => {
      if (fail) throw new Error('not readable');
      return realSlice(...args);
    }) as Blob['slice'];
    await expect(hashBlob(flaky)).rejects.toThrow('not readable');
    fail = false;
    expect(await hashBlob(flaky)).toBe(reference(bytesOf(10, 4)));
  });
});
