import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPref, writePref } from './prefs.ts';

const isNumber = (v: unknown): v is number => typeof v === 'number';

describe('prefs', () => {
  let data: Map<string, string>;
  beforeEach(() => {
    data = new Map();
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k)
    };
  });
  afterEach(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it('round-trips a value and removes it with undefined', () => {
    writePref('k', 42);
    expect(readPref('k', isNumber)).toBe(42);
    writePref('k', undefined);
    expect(readPref('k', isNumber)).toBeUndefined();
  });

  it('treats junk and values of the wrong shape as absent', () => {
    data.set('bad', '{not json');
    data.set('str', '"x"');
    expect(readPref('bad', isNumber)).toBeUndefined();
    expect(readPref('str', isNumber)).toBeUndefined();
  });

  it('never throws when storage is unavailable', () => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
    expect(() => writePref('k', 1)).not.toThrow();
    expect(readPref('k', isNumber)).toBeUndefined();
  });
});
