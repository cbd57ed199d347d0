import { describe, expect, it } from 'vitest';
import type { HistoryJob, HistoryLane, HistoryResult } from './lane.ts';
import { HistoryQueue, type QueueItem } from './queue.ts';

/** A lane whose jobs finish when the test says so. */
class GatedLane implements HistoryLane {
  started: string[] = [];
  #gates: (() => void)[] = [];
  fail = false;
  index(job: HistoryJob): Promise<HistoryResult> {
    this.started.push(job.listed.key);
    if (this.fail) return Promise.reject(new Error('worker died'));
    return new Promise((resolve) => this.#gates.push(() => resolve({ ok: false, reason: `done ${job.listed.key}`, ms: 0 })));
  }
  finishAll(): void {
    const g = this.#gates;
    this.#gates = [];
    for (const f of g) f();
  }
  get waiting(): number {
    return this.#gates.length;
  }
}

const item = (key: string, size = 1): QueueItem => ({ key, size, job: () => ({ listed: { key, id: key, project: '', harness: 'claude-code', files: [] }, files: [] }) });
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('history queue', () => {
  it('hands each lane two jobs at most, every session once, and resolves when all are back', async () => {
    const a = new GatedLane();
    const b = new GatedLane();
    const q = new HistoryQueue([a, b], () => new GatedLane());
    const got: string[] = [];
    const done = q.run(['s1', 's2', 's3', 's4', 's5', 's6'].map((k) => item(k)), (it) => got.push(it.key));
    await flush();
    expect(a.started.length + b.started.length).toBe(4);
    for (let i = 0; i < 4 && q.queued + a.waiting + b.waiting; i++) {
      a.finishAll();
      b.finishAll();
      await flush();
    }
    await done;
    expect(got.sort()).toEqual(['s1', 's2', 's3', 's4', 's5', 's6']);
    expect([...a.started, ...b.started].sort()).toEqual(got);
  });

  it('an open preempts it: while held, no new session starts; what ran finishes; it resumes after', async () => {
    const a = new GatedLane();
    const q = new HistoryQueue([a], () => new GatedLane());
    const got: string[] = [];
    const done = q.run(['s1', 's2', 's3', 's4'].map((k) => item(k)), (it) => got.push(it.key));
    await flush();
    expect(a.started).toEqual(['s1', 's2']);
    let release!: () => void;
    const open = q.hold(new Promise<string>((r) => (release = () => r('opened'))));
    a.finishAll();
    await flush();
    expect(got).toEqual(['s1', 's2']);
    expect(a.started).toEqual(['s1', 's2']);
    expect(q.paused).toBe(true);
    release();
    expect(await open).toBe('opened');
    await flush();
    expect(q.paused).toBe(false);
    expect(a.started).toEqual(['s1', 's2', 's3', 's4']);
    a.finishAll();
    await done;
    expect(got).toEqual(['s1', 's2', 's3', 's4']);
  });

  it('a busy foreground pauses it the same way, and its end resumes it', async () => {
    const a = new GatedLane();
    let busy = false;
    let wake!: () => void;
    const gate = { get busy() { return busy; }, idle: () => new Promise<void>((r) => (wake = r)) };
    const q = new HistoryQueue([a], () => new GatedLane(), gate);
    const done = q.run(['s1', 's2', 's3'].map((k) => item(k)), () => {});
    await flush();
    expect(a.started).toEqual(['s1', 's2']);
    busy = true;
    a.finishAll();
    await flush();
    expect(a.started).toEqual(['s1', 's2']);
    expect(q.paused).toBe(true);
    busy = false;
    wake();
    await flush();
    expect(a.started).toEqual(['s1', 's2', 's3']);
    a.finishAll();
    await done;
  });

  it('cancel drops the queue and the results still running; a dead lane hands its job to the fallback', async () => {
    const a = new GatedLane();
    const q = new HistoryQueue([a], () => new GatedLane());
    const got: string[] = [];
    const done = q.run(['s1', 's2', 's3'].map((k) => item(k)), (it) => got.push(it.key));
    await flush();
    q.cancel();
    await done;
    a.finishAll();
    await flush();
    expect(got).toEqual([]);

    const dead = new GatedLane();
    dead.fail = true;
    const fallback = { index: (job: HistoryJob): Promise<HistoryResult> => Promise.resolve({ ok: false, reason: 'here', ms: 0 }), seen: [] as string[] };
    const q2 = new HistoryQueue([dead], () => fallback);
    const reasons: string[] = [];
    await q2.run(['x', 'y'].map((k) => item(k)), (it, r) => reasons.push(`${it.key}:${r.ok ? '' : r.reason}`));
    expect(reasons.sort()).toEqual(['x:here', 'y:here']);
  });

  it('the first of several lanes takes the largest session first', async () => {
    const a = new GatedLane();
    const b = new GatedLane();
    const q = new HistoryQueue([a, b], () => new GatedLane());
    void q.run([item('small', 1), item('big', 100), item('mid', 10)], () => {});
    await flush();
    expect(a.started[0]).toBe('big');
    expect(b.started[0]).toBe('small');
    q.cancel();
  });
});
