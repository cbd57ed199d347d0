// The hash worker's client (hash-client.ts): a hash asked of the page goes to the worker and comes
// back as the scheme's hash; a worker that cannot load leaves every hash to the page's thread,
// with the same result. The fake worker serves the same API over a real MessageChannel.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { digestBlob } from '../store/content-hash.ts';
import { servingWorker } from './fake-worker.ts';

/** The client and the hashBlob it hands the worker to, fresh (each test starts with no worker). */
async function fresh() {
  vi.resetModules();
  const client = await import('./hash-client.ts');
  const { hashBlob } = await import('../store/content-hash.ts');
  return { ...client, hashBlob };
}

/** Blobs the fake hash worker was asked for. */
const asked: Blob[] = [];
/** A Worker serving what hash.worker.ts serves, noting the blobs it is asked for. */
const AnsweringWorker = servingWorker({ hash: (blob: Blob) => (asked.push(blob), digestBlob(blob)) });

/** A Worker whose script does not load: an 'error' event, and no answer ever. */
class FailingWorker extends EventTarget {
  static terminated = 0;
  constructor() {
    super();
    setTimeout(() => this.dispatchEvent(new Event('error')));
  }
  postMessage(): void {}
  terminate(): void {
    FailingWorker.terminated++;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('hash worker client', () => {
  it('takes the hashes off the page: one worker, each blob asked once, the same hash', async () => {
    vi.stubGlobal('Worker', AnsweringWorker);
    const { hashOffThread, hashBlob, hashStats } = await fresh();
    hashOffThread();
    const a = new Blob(['first file']);
    const b = new Blob(['second file']);
    const [ha, hb] = await Promise.all([hashBlob(a), hashBlob(b)]);
    expect(await hashBlob(a)).toBe(ha); // remembered, not asked again
    expect(AnsweringWorker.made).toBe(1);
    expect(asked).toEqual([a, b]);
    expect([ha, hb]).toEqual([await digestBlob(a), await digestBlob(b)]);
    expect(hashStats()).toEqual({ inWorker: 2, failed: false });
  });

  it('hashes on this thread when the worker cannot load, now and later', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { hashOffThread, hashInWorker, hashBlob, hashStats } = await fresh();
    hashOffThread();
    const blob = new Blob(['a file whose worker failed']);
    expect(await hashBlob(blob)).toBe(await digestBlob(blob));
    expect(FailingWorker.terminated).toBe(1);
    await expect(hashInWorker(new Blob(['x']))).rejects.toThrow('no hash worker');
    expect(hashStats()).toEqual({ inWorker: 0, failed: true });
  });
});
