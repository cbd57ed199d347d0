import { describe, expect, it } from 'vitest';
import { initialSource } from './boot.ts';

describe('initialSource', () => {
  it('opens ?src= with the landing from the fragment', () => {
    const r = initialSource({ search: '?src=https%3A%2F%2Fx.test%2Fa.jsonl', hash: '#s=k1&a=u9' });
    expect(r).toEqual({ source: { kind: 'url', url: 'https://x.test/a.jsonl' }, sessionKey: 'k1', atom: 'u9' });
  });
  it('opens a share payload before a cached key', () => {
    expect(initialSource({ search: '', hash: '#s=k&z=AAAA' }).source).toEqual({ kind: 'share', payload: 'AAAA' });
  });
  it('opens the sample, a cached session, or nothing', () => {
    expect(initialSource({ search: '?sample', hash: '' }).source).toEqual({ kind: 'sample' });
    expect(initialSource({ search: '', hash: '#s=key-1' }).source).toEqual({ kind: 'cached', key: 'key-1' });
    expect(initialSource({ search: '', hash: '' }).source).toBeNull();
  });
});
