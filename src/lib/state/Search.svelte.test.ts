import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({
  search: vi.fn(async (..._args: unknown[]) => ({ ok: true, total: 0, hits: [], truncated: false, sessions: 0, ms: 0, firstMs: null, pooled: 0, pooledMs: 0 })),
  cancelSearch: vi.fn(async (..._args: unknown[]) => undefined),
  prepareSearch: vi.fn(async (..._args: unknown[]) => ({ fields: 0, chars: 0, ms: 0, warmed: 0 }))
}));
vi.mock('./engine-client.ts', () => ({ engineClient: async () => ({ api, inWorker: false }), proxied: <T>(f: T) => f }));

import { Search, TYPING_PAUSE_MS, type SearchScopeName } from './Search.svelte.ts';
import type { ChatUi } from './ChatUi.svelte.ts';
import type { Navigator } from './Navigator.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

const session = { key: 's1', files: [{ kind: 'transcript', path: 'p/s1.jsonl' }] };
const viewer = { sessions: [session], list: [], current: session, currentKey: 's1' } as unknown as Viewer;

/** The word typed a letter at a time, `gapMs` apart (what each keystroke starts settles meanwhile). */
async function typed(scope: SearchScopeName, word: string, gapMs: number): Promise<Search> {
  const search = new Search(viewer, {} as Navigator, {} as ChatUi);
  search.scope = scope;
  for (const [i] of [...word].entries()) {
    search.setQuery(word.slice(0, i + 1));
    await vi.advanceTimersByTimeAsync(gapMs);
  }
  return search;
}

/** The queries the engine was asked to run, once every timer has fired. */
async function queries(): Promise<string[]> {
  await vi.runAllTimersAsync();
  return api.search.mock.calls.map((c) => (c[1] as { query: string }).query);
}

describe('Search: when a typed query runs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    api.search.mockClear();
    api.cancelSearch.mockClear();
    api.prepareSearch.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('over everything, typed faster than the pause: only the word, once typing stops', async () => {
    await typed('everything', 'parser', 125);
    expect(await queries()).toEqual(['parser']);
  });

  it('over everything, typed slower than the pause: every prefix runs', async () => {
    await typed('everything', 'abc', TYPING_PAUSE_MS + 50);
    expect(await queries()).toEqual(['a', 'ab', 'abc']);
  });

  it('inside the open session: every keystroke, at once', async () => {
    await typed('session', 'parser', 1);
    expect(await queries()).toEqual(['p', 'pa', 'par', 'pars', 'parse', 'parser']);
  });

  it('an old scope name chosen is its new one (history, loaded, cached → everything)', () => {
    const search = new Search(viewer, {} as Navigator, {} as ChatUi);
    for (const old of ['loaded', 'cached', 'history'] as const) {
      search.scope = 'session';
      search.setScope(old);
      expect(search.scope).toBe('everything');
    }
  });

  it('choosing the history scope with nothing typed warms the history and cancels nothing (a cancel would drop the warm-up)', async () => {
    const search = new Search(viewer, {} as Navigator, {} as ChatUi);
    search.setScope('history');
    await vi.runAllTimersAsync();
    expect(api.prepareSearch).toHaveBeenCalledWith([], true);
    expect(api.cancelSearch).not.toHaveBeenCalled();
  });

  it('clearing the field while its query runs stops that query', async () => {
    let finish = () => {};
    api.search.mockImplementationOnce(() => new Promise((resolve) => (finish = () => resolve({ ok: true, total: 0, hits: [], truncated: false, sessions: 0, ms: 0, firstMs: null, pooled: 0, pooledMs: 0 }))));
    const search = await typed('everything', 'x', TYPING_PAUSE_MS + 1);
    expect(api.search).toHaveBeenCalledTimes(1);
    search.setQuery('');
    await vi.runAllTimersAsync();
    expect(api.cancelSearch).toHaveBeenCalledTimes(1);
    finish();
  });
});
