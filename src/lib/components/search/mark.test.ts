// Clearing a search mark touches the page only when a mark was painted: the page clears on
// mount, and that clear ran a selector query and CSS.highlights' first use inside the boot. A
// landed row whose Markdown still shows its source is waited for: its HTML replaces that text.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearMark, markMatch } from './mark.ts';

const removed: string[] = [];
const highlights = new Map<string, unknown>();
let queries = 0;
let frames: (() => void)[] = [];
/** Whether the landed row still holds a Markdown block drawn as plain text. */
let plain = false;

beforeEach(() => {
  removed.length = 0;
  highlights.clear();
  queries = 0;
  frames = [];
  plain = false;
  const text = { nodeValue: 'the parser ran', parentElement: { setAttribute: vi.fn(), scrollIntoView: vi.fn(), removeAttribute: (n: string) => removed.push(n) } };
  const row = { querySelector: (sel: string) => (sel === '[data-md=plain]' && plain ? {} : null) };
  Object.assign(globalThis, {
    CSS: { highlights, escape: (s: string) => s },
    Highlight: class {
      constructor(readonly range: unknown) {}
    },
    NodeFilter: { SHOW_TEXT: 4 },
    requestAnimationFrame: (f: () => void) => frames.push(f),
    document: {
      querySelectorAll: (sel: string) => {
        queries++;
        if (sel.includes('data-search-landed')) return [text.parentElement];
        return sel.includes('data-atom-uuid') ? [row] : [];
      },
      createTreeWalker: () => {
        let done = false;
        return { nextNode: () => (done ? null : ((done = true), text)) };
      },
      createRange: () => ({ setStart: vi.fn(), setEnd: vi.fn() })
    }
  });
});
afterEach(() => {
  clearMark();
  for (const k of ['CSS', 'Highlight', 'NodeFilter', 'requestAnimationFrame', 'document']) delete (globalThis as Record<string, unknown>)[k];
});

describe('clearMark', () => {
  it('touches nothing while no mark is painted', () => {
    highlights.set('loupe-search', 'left by someone else');
    clearMark();
    expect(queries).toBe(0);
    expect(highlights.size).toBe(1);
  });

  it('removes a painted mark and its landed attribute, once', () => {
    markMatch('atom-1', 'parser', () => false);
    frames.splice(0).forEach((f) => f());
    expect(highlights.has('loupe-search')).toBe(true);
    const before = queries;
    clearMark();
    expect(highlights.has('loupe-search')).toBe(false);
    expect(removed).toEqual(['data-search-landed']);
    expect(queries).toBeGreaterThan(before);
    const after = queries;
    clearMark();
    expect(queries).toBe(after);
  });
});

describe('markMatch', () => {
  it("waits for a landed row's Markdown HTML before it paints the mark", () => {
    plain = true;
    markMatch('atom-1', 'parser', () => false);
    frames.splice(0).forEach((f) => f());
    expect(highlights.has('loupe-search')).toBe(false);
    expect(frames).toHaveLength(1); // tried again on the next frame
    plain = false;
    frames.splice(0).forEach((f) => f());
    expect(highlights.has('loupe-search')).toBe(true);
  });
});
