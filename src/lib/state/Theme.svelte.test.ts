// The theme: a remembered pick is applied to <html> and the system theme leaves it unset; a cycle
// remembers each pick; primeTheme reads the pick ahead of the mount (hooks.client.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Theme, primeTheme } from './Theme.svelte.ts';

let stored: Map<string, string>;
let reads: number;
let attr: string | null;
let writes: string[];

beforeEach(() => {
  stored = new Map();
  reads = 0;
  attr = null;
  writes = [];
  // <html data-theme>, recording every write (a delete through the dataset is a write too).
  const dataset = new Proxy({} as Record<string, string>, {
    get: (_t, k) => (k === 'theme' ? (attr ?? undefined) : undefined),
    set: (_t, k, v: string) => {
      writes.push(`set ${String(k)} ${v}`);
      attr = v;
      return true;
    },
    deleteProperty: (_t, k) => {
      writes.push(`delete ${String(k)}`);
      attr = null;
      return true;
    }
  });
  Object.assign(globalThis, {
    localStorage: {
      getItem: (k: string) => (reads++, stored.get(k) ?? null),
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k)
    },
    document: {
      documentElement: { dataset }
    }
  });
});
afterEach(() => {
  for (const k of ['localStorage', 'document']) delete (globalThis as Record<string, unknown>)[k];
});

describe('Theme', () => {
  it('follows the system, with no data-theme on <html>, when nothing is remembered', () => {
    const theme = new Theme();
    expect(theme.choice).toBe('system');
    expect(attr).toBeNull();
    expect(writes.filter((w) => w.startsWith('set'))).toEqual([]);
  });

  it('applies a remembered pick, and cycles system → light → dark → system, remembering each', () => {
    stored.set('loupe:theme', '"dark"');
    const theme = new Theme();
    expect(theme.choice).toBe('dark');
    expect(attr).toBe('dark');
    theme.cycle();
    expect([theme.choice, attr, stored.has('loupe:theme')]).toEqual(['system', null, false]);
    theme.cycle();
    expect([theme.choice, attr, stored.get('loupe:theme')]).toEqual(['light', 'light', '"light"']);
  });

  it('ignores junk in storage', () => {
    stored.set('loupe:theme', '{"not":"a theme"}');
    expect(new Theme().choice).toBe('system');
  });

  it('primeTheme reads the remembered pick ahead of the mount', () => {
    primeTheme();
    expect(reads).toBe(1);
  });
});
