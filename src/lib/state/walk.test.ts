import { describe, expect, it } from 'vitest';
import { limiter, walkTree, WalkCancelled, type WalkDir, type WalkFile } from './walk.ts';

/** A fake tree whose requests resolve on a later macrotask, counting how many are in flight. */
function tree() {
  const stats = { inFlight: 0, maxInFlight: 0, requests: 0 };
  const later = async <T>(make: () => T): Promise<T> => {
    stats.requests++;
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((r) => setTimeout(r, 0));
    stats.inFlight--;
    return make();
  };
  const file = (name: string, fail = false): WalkFile => ({
    kind: 'file',
    name,
    file: () => later(() => {
      if (fail) throw new Error('gone');
      return new File([name], name);
    })
  });
  const dir = (name: string, kids: (WalkFile | WalkDir)[], fail = false): WalkDir => ({
    kind: 'directory',
    name,
    list: () => later(() => {
      if (fail) throw new Error('denied');
      return kids;
    })
  });
  return { stats, file, dir };
}

describe('walkTree', () => {
  it('names every file by its path from the dropped folder’s parent, sorted', async () => {
    const { file, dir } = tree();
    const root = dir('projects', [
      dir('-home-me-api', [file('b.jsonl'), dir('b', [dir('subagents', [file('agent-1.jsonl')])]), file('a.jsonl')]),
      file('README.md')
    ]);
    const { files, unreadable } = await walkTree([root, file('loose.jsonl')]);
    expect(files.map((f) => f.path)).toEqual([
      'loose.jsonl',
      'projects/-home-me-api/a.jsonl',
      'projects/-home-me-api/b.jsonl',
      'projects/-home-me-api/b/subagents/agent-1.jsonl',
      'projects/README.md'
    ]);
    expect(await files[1].blob.text()).toBe('a.jsonl');
    expect(unreadable).toEqual([]);
  });

  it('says the running count of files found as the walk goes, and the total at the end', async () => {
    const { file, dir } = tree();
    const root = dir('p', Array.from({ length: 25 }, (_, i) => file(`${i}.jsonl`)));
    const seen: number[] = [];
    const { files } = await walkTree([root], { countEvery: 10, onCount: (total) => seen.push(total) });
    expect(seen).toEqual([10, 20, 25]);
    expect(files).toHaveLength(25);
  });

  it('keeps at most `concurrency` requests in flight, yet more than one', async () => {
    const { stats, file, dir } = tree();
    const root = dir('p', [dir('a', Array.from({ length: 40 }, (_, i) => file(`${i}`))), dir('b', Array.from({ length: 40 }, (_, i) => file(`${i}`)))]);
    const { files } = await walkTree([root], { concurrency: 8 });
    expect(files).toHaveLength(80);
    expect(stats.maxInFlight).toBe(8);
  });

  it('skips folders and files it is told to, without asking for them', async () => {
    const { stats, file, dir } = tree();
    const root = dir('p', [dir('node_modules', [file('x.jsonl')]), file('a.jsonl'), file('notes.txt')]);
    const { files } = await walkTree([root], { skipDir: (n) => n === 'node_modules', keepFile: (n) => n.endsWith('.jsonl') });
    expect(files.map((f) => f.path)).toEqual(['p/a.jsonl']);
    expect(stats.requests).toBe(2); // the listing of p and a.jsonl
  });

  it('names what it could not read and keeps the rest', async () => {
    const { file, dir } = tree();
    const root = dir('p', [file('ok.jsonl'), file('gone.jsonl', true), dir('locked', [file('x')], true)]);
    const { files, unreadable } = await walkTree([root]);
    expect(files.map((f) => f.path)).toEqual(['p/ok.jsonl']);
    expect(unreadable.sort()).toEqual(['p/gone.jsonl', 'p/locked/']);
  });

  it('stops when its result is no longer wanted', async () => {
    const { stats, file, dir } = tree();
    const root = dir('p', Array.from({ length: 10 }, (_, d) => dir(`d${d}`, Array.from({ length: 20 }, (_, i) => file(`${i}`)))));
    let stale = false;
    const walk = walkTree([root], { concurrency: 4, countEvery: 5, onCount: () => (stale = true), stale: () => stale });
    await expect(walk).rejects.toBeInstanceOf(WalkCancelled);
    await new Promise((r) => setTimeout(r, 20));
    expect(stats.requests).toBeLessThan(30);
  });
});

describe('limiter', () => {
  it('runs queued jobs in order as slots free, and passes failures through', async () => {
    const limit = limiter(1);
    const order: number[] = [];
    const job = (n: number, fail = false) => limit(async () => {
      order.push(n);
      await new Promise((r) => setTimeout(r, 0));
      if (fail) throw new Error(`job ${n}`);
      return n;
    });
    const results = await Promise.allSettled([job(1), job(2, true), job(3)]);
    expect(order).toEqual([1, 2, 3]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'job 2', 3]);
  });
});
