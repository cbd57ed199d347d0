// A long share link's payload is out of the address while SvelteKit starts, the page reads the held
// address, and it is put back once the link's first rows are drawn; short links are left alone.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LONG_FRAGMENT, holdLongUrl, pageAddress, restoreLongUrl, shortAddress } from './long-url.ts';

const PAYLOAD = 'A'.repeat(LONG_FRAGMENT + 10);

describe('shortAddress', () => {
  it('leaves out a long fragment’s z= value and keeps its other keys, in order', () => {
    expect(shortAddress(`https://x.test/app/#s=key-1&z=${PAYLOAD}&a=atom-2`)).toBe('https://x.test/app/#s=key-1&a=atom-2');
    expect(shortAddress(`https://x.test/?sample#z=${PAYLOAD}`)).toBe('https://x.test/?sample');
  });

  it('has nothing to shorten in a short fragment, or none', () => {
    expect(shortAddress('https://x.test/#s=key-1&z=short')).toBeNull();
    expect(shortAddress('https://x.test/?sample')).toBeNull();
    // Exactly at the limit is not long.
    expect(shortAddress(`https://x.test/#${'z='.padEnd(LONG_FRAGMENT, 'B')}`)).toBeNull();
  });
});

describe('holdLongUrl / restoreLongUrl', () => {
  let href: string;
  let state: unknown;
  const writes: string[] = [];
  beforeEach(() => {
    writes.length = 0;
    state = { kit: 1 };
    Object.assign(globalThis, {
      location: {
        get href() {
          return href;
        },
        get search() {
          return new URL(href).search;
        },
        get hash() {
          return new URL(href).hash;
        }
      },
      history: {
        get state() {
          return state;
        },
        replaceState(s: unknown, _t: string, url: string) {
          state = s;
          href = url;
          writes.push(url);
        }
      }
    });
  });
  afterEach(() => {
    for (const k of ['location', 'history']) delete (globalThis as Record<string, unknown>)[k];
  });

  it('takes the payload out and puts the whole address back once, keeping the history state', () => {
    const link = `https://x.test/#s=key-1&z=${PAYLOAD}`;
    href = link;
    holdLongUrl();
    expect(href).toBe('https://x.test/#s=key-1');
    // SvelteKit writes its own state meanwhile; putting the address back keeps it.
    state = { kit: 2 };
    restoreLongUrl();
    expect(href).toBe(link);
    expect(state).toEqual({ kit: 2 });
    restoreLongUrl();
    expect(writes).toHaveLength(2);
  });

  it('gives the page the held address while the payload is out, and the address itself after', () => {
    const link = `https://x.test/?sample#s=key-1&z=${PAYLOAD}`;
    href = link;
    holdLongUrl();
    expect(pageAddress()).toMatchObject({ search: '?sample', hash: `#s=key-1&z=${PAYLOAD}` });
    restoreLongUrl();
    href = 'https://x.test/#s=key-2';
    expect(pageAddress()).toMatchObject({ search: '', hash: '#s=key-2' });
  });

  it('does not put the address back over one written since it was held', () => {
    href = `https://x.test/#s=key-1&z=${PAYLOAD}`;
    holdLongUrl();
    // A landing on an atom writes its own fragment before the first rows are drawn.
    history.replaceState(null, '', 'https://x.test/#s=key-1&a=atom-3');
    restoreLongUrl();
    expect(href).toBe('https://x.test/#s=key-1&a=atom-3');
    expect(writes).toHaveLength(2);
    expect(pageAddress()).toMatchObject({ hash: '#s=key-1&a=atom-3' });
  });

  it('leaves the address as it is where it cannot be written, and has nothing to put back', () => {
    const link = `https://x.test/#z=${PAYLOAD}`;
    href = link;
    (globalThis as unknown as { history: { replaceState(): void } }).history.replaceState = () => {
      throw new Error('SecurityError');
    };
    expect(() => holdLongUrl()).not.toThrow();
    expect(() => restoreLongUrl()).not.toThrow();
    expect(href).toBe(link);
  });

  it('writes nothing for a short address', () => {
    href = 'https://x.test/#s=key-1';
    holdLongUrl();
    restoreLongUrl();
    expect(writes).toEqual([]);
    expect(href).toBe('https://x.test/#s=key-1');
  });
});
