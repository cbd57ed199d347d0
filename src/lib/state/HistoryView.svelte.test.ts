import { beforeEach, describe, expect, it, vi } from 'vitest';

const rows = [
  { key: 'aaa-1', title: 'A', project: 'projects/-x-app', harness: 'claude-code', startedAt: 1, endedAt: 2, turns: 3, costUsd: 1, unpricedMessages: 0, root: 'projects' },
  { key: 'bbb-1', title: 'B', project: 'laptop/-x-web', harness: 'claude-code', startedAt: 3, endedAt: 4, turns: 1, costUsd: 2, unpricedMessages: 0, root: 'laptop' }
];
const api = vi.hoisted(() => ({
  historyOpenStored: vi.fn(async () => ({ stale: 0 })),
  historyRows: vi.fn(async () => ({ rows: [] as unknown[], stale: 0 })),
  historyClearRoot: vi.fn(async () => 1),
  historyClear: vi.fn(async () => undefined)
}));
const folder = vi.hoisted(() => ({ kept: null as { name: string } | null }));
vi.mock('./engine-client.ts', () => ({ engineClient: async () => ({ api, inWorker: false }) }));
vi.mock('./history-folder.ts', async (real) => ({ ...(await real<object>()), keptFolder: async () => folder.kept, rememberFolder: () => undefined }));

import { HistoryView } from './HistoryView.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

function viewer(over: Partial<Record<'sessions' | 'list' | 'recent', { key: string }[]>> = {}) {
  return { sessions: [], list: [], recent: [], currentKey: null, source: null, select: vi.fn(async () => undefined), load: vi.fn(async () => undefined), ...over } as unknown as Viewer & { select: ReturnType<typeof vi.fn>; load: ReturnType<typeof vi.fn> };
}

beforeEach(() => {
  api.historyRows.mockResolvedValue({ rows, stale: 2 });
  folder.kept = null;
  (globalThis as { location?: unknown }).location = { pathname: '/', search: '', hash: '' };
  (globalThis as { history?: unknown }).history = { pushState: vi.fn(), replaceState: vi.fn() };
});

describe('HistoryView', () => {
  it('opens with the stored rows, sorted and filtered, and its link', async () => {
    api.historyOpenStored.mockClear();
    const v = new HistoryView(viewer());
    await v.show();
    // Nothing loaded: the rows come as they are (the stored summary), the stored history is not
    // read back for them; it joins the engine's index before a search (joinStored).
    expect(api.historyOpenStored).not.toHaveBeenCalled();
    expect(v.open).toBe(true);
    expect(v.stale).toBe(2);
    expect(v.visible.map((r) => r.key)).toEqual(['bbb-1', 'aaa-1']);
    v.setFilters({ root: 'projects' });
    expect(v.visible.map((r) => r.key)).toEqual(['aaa-1']);
    expect(history.replaceState).toHaveBeenLastCalledWith(null, '', '/#history&hr=projects');
    expect(v.titleOf('bbb-1')).toBe('B');
    await v.joinStored();
    expect(api.historyOpenStored).toHaveBeenCalledTimes(1);
    // With a load, the stored history joins first, so the rows hold both.
    const withLoad = new HistoryView({ ...viewer(), source: { kind: 'files' } } as unknown as Viewer);
    await withLoad.show();
    expect(api.historyOpenStored).toHaveBeenCalledTimes(2);
    expect(withLoad.rows).toHaveLength(2);
  });

  it('opens a session: loaded → selected, cached → from the cache, else a sentence naming its folder', async () => {
    const loaded = viewer({ list: [{ key: 'aaa-1' }], recent: [{ key: 'bbb-1' }] });
    const v = new HistoryView(loaded);
    await v.show();
    await v.openSession('aaa-1');
    expect(loaded.select).toHaveBeenCalledWith('aaa-1');
    expect(v.open).toBe(false);
    await v.show();
    await v.openSession('bbb-1');
    expect(loaded.load).toHaveBeenCalledWith({ kind: 'cached', key: 'bbb-1' });

    const none = new HistoryView(viewer());
    await none.show();
    await none.openSession('bbb-1');
    expect(none.notice).toMatch(/drop the folder “laptop”/);
    expect(none.waiting).toMatchObject({ key: 'bbb-1', folder: null });
    folder.kept = { name: 'projects' };
    await none.openSession('aaa-1');
    expect(none.waiting).toMatchObject({ key: 'aaa-1', folder: 'projects' });
  });

  it('a drop that holds the waiting session (its files grown: the same id) lands on it', async () => {
    const after = viewer();
    const v = new HistoryView(after);
    await v.show();
    await v.openSession('aaa-1');
    (after as unknown as { list: { key: string }[] }).list = [{ key: 'zzz-9' }, { key: 'aaa-7' }];
    await v.landWaiting();
    expect(after.select).toHaveBeenCalledWith('aaa-7');
    expect(v.waiting).toBeNull();
  });

  it('clears one root and keeps the rest', async () => {
    const v = new HistoryView(viewer());
    await v.show();
    api.historyRows.mockResolvedValue({ rows: [rows[0]], stale: 0 });
    await v.clear('laptop');
    expect(api.historyClearRoot).toHaveBeenCalledWith('laptop');
    expect(v.rows.map((r) => r.key)).toEqual(['aaa-1']);
    expect(v.summary?.sessions).toBe(1);
  });

  it('reads the history and makes the reports ahead while the start page idles; the click then only draws', async () => {
    const v = new HistoryView(viewer());
    const board = { reports: null as unknown, refresh: vi.fn(async () => void (board.reports = {})) };
    v.dashboard = async () => board;
    await v.preload();
    expect(board.refresh).toHaveBeenCalledTimes(1);
    expect(v.rows.length).toBe(2);
    await v.openView();
    expect(board.refresh).toHaveBeenCalledTimes(1);
    expect(v.open).toBe(true);
  });
});
