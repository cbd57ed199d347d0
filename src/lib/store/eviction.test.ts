import { describe, expect, it } from 'vitest';
import { distinctBytes, planEviction, type EvictionEntry } from './eviction';

const entry = (key: string, lastOpenedAt: number, files: [string, number][]): EvictionEntry => ({
  key, lastOpenedAt, files: files.map(([hash, bytes]) => ({ hash, bytes }))
});

describe('distinctBytes', () => {
  it('counts a blob shared by two sessions once', () => {
    const a = entry('a', 1, [['h1', 10], ['shared', 5]]);
    const b = entry('b', 2, [['h2', 7], ['shared', 5]]);
    expect(distinctBytes([a, b])).toBe(22);
  });

  it('counts a file repeated inside one session once', () => {
    expect(distinctBytes([entry('a', 1, [['h', 4], ['h', 4]])])).toBe(4);
  });
});

describe('planEviction', () => {
  const old = entry('old', 1, [['h-old', 10]]);
  const mid = entry('mid', 2, [['h-mid', 10]]);
  const recent = entry('recent', 3, [['h-recent', 10]]);

  it('evicts nothing when everything fits', () => {
    expect(planEviction([old, mid], entry('new', 9, [['h-new', 10]]), 40)).toEqual([]);
  });

  it('evicts least recently opened first, only as many as needed', () => {
    expect(planEviction([recent, old, mid], entry('new', 9, [['h-new', 10]]), 25)).toEqual(['old', 'mid']);
  });

  it('never evicts the session being written, even when it was opened longest ago', () => {
    const rewrite = entry('old', 9, [['h-old', 10]]);
    expect(planEviction([old, mid, recent], rewrite, 20)).toEqual(['mid']);
  });

  it('keeps going past a session whose only blob another session still holds', () => {
    // Evicting "a" frees nothing because "new" shares its blob, so "b" must go as well.
    const a = entry('a', 1, [['shared', 10]]);
    const b = entry('b', 2, [['h-b', 10]]);
    expect(planEviction([a, b], entry('new', 9, [['shared', 10], ['h-new', 5]]), 15)).toEqual(['a', 'b']);
  });

  it('returns every other session when even that cannot make room', () => {
    expect(planEviction([old, mid], entry('huge', 9, [['h-huge', 100]]), 50)).toEqual(['old', 'mid']);
  });

  it('with no incoming session, trims to the budget and spares `keep`', () => {
    expect(planEviction([old, mid, recent], null, 10, 'old')).toEqual(['mid', 'recent']);
  });
});
