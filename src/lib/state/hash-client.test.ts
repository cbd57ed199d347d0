// The hash worker's client (hash-client.ts) and the worker's answer (worker/hash.worker.ts): a
// hash asked of the page goes to the worker and comes back as the scheme's hash; a worker that
// cannot load leaves every hash to the page's thread, with the same result.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { digestBlob } from '../store/content-hash.ts';
import { answer, type HashRequest } from '../worker/hash.worker.ts';

/** The client and the hashBlob it hands the worker to, fresh (each test starts with no worker). */
async function fresh() {
  vi.resetModules();
  const client = await import('./hash-client.ts');
  const { hashBlob } = await import('../store/content-hash.ts');
  return { ...client, hashBlob };
}

/** A Worker that answers as hash.worker.ts does (its `answer`), one task later. */
class AnsweringWorker extends EventTarget {
  static made = 0;
  static asked: Blob[] = [];
  constructor() {
    super();
    AnsweringWorker.made++;
  }
  postMessage(req: HashRequest): void {
    AnsweringWorker.asked.push(req.blob);
    void answer(req).then((a) => setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data: a }))));
  }
  terminate(): void {}
}

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

describe('hash worker', () => {
  it('answers with the scheme hash, or says why it could not', async () => {
    const blob = new Blob(['{"type":"user"}\n']);
    expect(await answer({ id: 7, blob })).toEqual({ id: 7, hash: await digestBlob(blob) });
    const unreadable = { slice: () => ({ arrayBuffer: () => Promise.reject(new Error('gone')) }), size: 1 } as unknown as Blob;
    expect(await answer({ id: 8, blob: unreadable })).toEqual({ id: 8, error: 'gone' });
  });

  it('takes the hashes off the page: one worker, each blob asked once, the same hash', async () => {
    vi.stubGlobal('Worker', AnsweringWorker);
    const { hashOffThread, hashBlob } = await fresh();
    hashOffThread();
    const a = new Blob(['first file']);
    const b = new Blob(['second file']);
    const [ha, hb] = await Promise.all([hashBlob(a), hashBlob(b)]);
    expect(await hashBlob(a)).toBe(ha); // remembered, not asked again
    expect(AnsweringWorker.made).toBe(1);
    expect(AnsweringWorker.asked).toEqual([a, b]);
    expect([ha, hb]).toEqual([await digestBlob(a), await digestBlob(b)]);
  });

  it('hashes on this thread when the worker cannot load, now and later', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { hashOffThread, hashInWorker, hashBlob } = await fresh();
    hashOffThread();
    const blob = new Blob(['a file whose worker failed']);
    expect(await hashBlob(blob)).toBe(await digestBlob(blob));
    expect(FailingWorker.terminated).toBe(1);
    await expect(hashInWorker(new Blob(['x']))).rejects.toThrow('no hash worker');
  });
});
