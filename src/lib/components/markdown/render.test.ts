// The sanitizer's preload: DOMPurify is loaded and run once in an idle period with no load
// running, or when the Viewer hurries a parsed big load's idle work, never during a load. Without
// it, DOMPurify's first call is a task of its own before the first blocks are upgraded.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const sanitized = vi.hoisted(() => [] as string[]);
vi.mock('./sanitize', () => ({ sanitizeHtml: (html: string) => (sanitized.push(html), html) }));
vi.mock('../paint.svelte', () => ({ painted: () => Promise.resolve() }));
vi.mock('$lib/state/markdown-client', () => ({ markdownHtml: async (source: string) => `<p>${source}</p>` }));

let idle: (() => void)[];
let dataset: { state?: string };

beforeEach(() => {
  vi.resetModules();
  idle = [];
  sanitized.length = 0;
  dataset = { state: 'loading' };
  Object.assign(globalThis, { requestIdleCallback: (f: () => void) => idle.push(f), document: { documentElement: { dataset } } });
});
afterEach(() => {
  for (const k of ['requestIdleCallback', 'document']) delete (globalThis as Record<string, unknown>)[k];
});

/** Runs the idle callbacks queued so far, then lets the dynamic import settle. */
async function runIdle(): Promise<void> {
  for (const f of idle.splice(0)) f();
  await vi.waitFor(() => undefined);
  await new Promise((r) => setTimeout(r, 0));
}

describe('preloadSanitizer', () => {
  it('waits while a load runs, then loads DOMPurify and sanitizes once when none does', async () => {
    const { preloadSanitizer } = await import('./render');
    preloadSanitizer();
    await runIdle();
    await runIdle();
    expect(sanitized).toEqual([]);
    dataset.state = 'ready';
    await runIdle();
    expect(sanitized).toEqual(['<p>Loupe</p>']);
    expect(idle).toEqual([]);
  });

  it('runs during a load that the Viewer hurries, and ends the hurry when loaded', async () => {
    const { preloadSanitizer } = await import('./render');
    const { hurryIdleWork, holdIdleWork } = await import('$lib/state/idle-work');
    const release = holdIdleWork();
    preloadSanitizer();
    await runIdle();
    expect(sanitized).toEqual([]);
    release();
    let hurried = false;
    const hurry = hurryIdleWork(10_000).then(() => (hurried = true));
    await runIdle();
    await hurry;
    expect(hurried).toBe(true);
    expect(sanitized).toEqual(['<p>Loupe</p>']);
  });
});

describe('renderMarkdown', () => {
  afterEach(() => void vi.useRealTimers());

  /** Lets the blocks' HTML and the sanitizer's chunk arrive; the drain's tasks stay queued. */
  async function blocksQueued(): Promise<void> {
    await vi.dynamicImportSettled();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  }

  it('gives DOMPurify’s first call a task of its own when no preload came first', async () => {
    vi.useFakeTimers();
    const { renderMarkdown } = await import('./render');
    const shown: string[] = [];
    renderMarkdown('a', (html) => shown.push(html));
    renderMarkdown('b', (html) => shown.push(html));
    await blocksQueued();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersToNextTimer();
    expect([sanitized, shown]).toEqual([['<p>Loupe</p>'], []]);
    vi.advanceTimersToNextTimer();
    expect([sanitized, shown]).toEqual([['<p>Loupe</p>', '<p>a</p>', '<p>b</p>'], ['<p>a</p>', '<p>b</p>']]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('upgrades the first blocks in the first task once the preload has run', async () => {
    const { preloadSanitizer, renderMarkdown } = await import('./render');
    dataset.state = 'empty';
    preloadSanitizer();
    await runIdle();
    expect(sanitized).toEqual(['<p>Loupe</p>']);
    vi.useFakeTimers();
    const shown: string[] = [];
    renderMarkdown('a', (html) => shown.push(html));
    await blocksQueued();
    vi.advanceTimersToNextTimer();
    expect([sanitized, shown]).toEqual([['<p>Loupe</p>', '<p>a</p>'], ['<p>a</p>']]);
  });
});
