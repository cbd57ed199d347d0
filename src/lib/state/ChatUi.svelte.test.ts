import { beforeEach, describe, expect, it } from 'vitest';
import { ChatUi } from './ChatUi.svelte.ts';

describe('ChatUi', () => {
  beforeEach(() => {
    const data = new Map<string, string>();
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k)
    };
  });

  it('remembers flipped rows per session across instances (a reload)', () => {
    const a = new ChatUi();
    a.useSession('s1');
    a.flip('g1');
    expect(a.isFlipped('g1')).toBe(true);
    const b = new ChatUi();
    b.useSession('s1');
    expect(b.isFlipped('g1')).toBe(true);
    b.useSession('s2');
    expect(b.isFlipped('g1')).toBe(false);
  });

  it('a landing opens a closed row but never closes or re-flips an open one', () => {
    const ui = new ChatUi();
    ui.useSession('s');
    ui.open('closed-by-default', false);
    expect(ui.isFlipped('closed-by-default')).toBe(true);
    ui.open('closed-by-default', false);
    expect(ui.isFlipped('closed-by-default')).toBe(true);
    // A default-open row the person collapsed is opened again by a landing on it.
    ui.flip('q~closed');
    ui.open('q', true);
    expect(ui.isFlipped('q~closed')).toBe(false);
  });
});
