import { describe, expect, it } from 'vitest';
import { projectsOf, type ListEntry } from '../sessions/list.ts';
import { withDigests } from './list.ts';

const entry = (key: string, project: string, turns: number, endedAt: number): ListEntry => ({ key, project, harness: 'claude-code', title: key, startedAt: endedAt - 100, endedAt, bytes: 10, turns, turnsExact: false, subagents: 0, cwd: null, model: null });

describe('the session list with history digests', () => {
  it('takes exact turns, times and cost from the digest; leaves sessions not indexed as they were', () => {
    const list = [entry('a', 'p1', 3, 1000), entry('b', 'p1', 5, 2000), entry('c', 'p2', 1, 500)];
    const out = withDigests(list, new Map([['a', { key: 'a', turns: 4, costUsd: 1.25, startedAt: 900, endedAt: 3000 }]]));
    expect(out[0]).toMatchObject({ turns: 4, turnsExact: true, costUsd: 1.25, endedAt: 3000 });
    expect(out[1]).toBe(list[1]);
    expect(withDigests(list, new Map())).toBe(list);
  });

  it('gives a project its cost once every one of its sessions is indexed, and its last activity from them', () => {
    const list = [entry('a', 'p1', 3, 1000), entry('b', 'p1', 5, 2000), entry('c', 'p2', 1, 500)];
    const half = projectsOf(withDigests(list, new Map([['a', { key: 'a', turns: 4, costUsd: 1, startedAt: 0, endedAt: 5000 }]])));
    expect(half.find((p) => p.key === 'p1')).toMatchObject({ lastActivity: 5000 });
    expect(half.find((p) => p.key === 'p1')?.costUsd).toBeUndefined();
    const all = projectsOf(withDigests(list, new Map([
      ['a', { key: 'a', turns: 4, costUsd: 1, startedAt: 0, endedAt: 5000 }],
      ['b', { key: 'b', turns: 5, costUsd: 2.5, startedAt: 0, endedAt: 100 }],
      ['c', { key: 'c', turns: 1, costUsd: 0, startedAt: 0, endedAt: 400 }]
    ])));
    expect(all.find((p) => p.key === 'p1')?.costUsd).toBe(3.5);
    expect(all.find((p) => p.key === 'p2')).toMatchObject({ costUsd: 0, lastActivity: 400 });
    // Most recently active first, from the digests' times.
    expect(all.map((p) => p.key)).toEqual(['p1', 'p2']);
  });
});
