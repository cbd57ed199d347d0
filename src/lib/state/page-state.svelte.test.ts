// The page's state objects are made once per page view (the layout makes them, the page takes
// them), wired to one another as the page uses them.
import { describe, expect, it } from 'vitest';
import type { ListEntry } from '../view/sessions/list.ts';
import { pageState } from './page-state.svelte.ts';

const entry = (key: string, endedAt: number): ListEntry => ({
  key,
  project: 'p',
  harness: 'claude-code',
  title: key,
  startedAt: endedAt - 1000,
  endedAt,
  bytes: 10,
  turns: 1,
  turnsExact: true,
  subagents: 0,
  cwd: null,
  model: null
});

describe('pageState', () => {
  it('makes the page view’s state once: a second call gets the same objects', () => {
    const first = pageState('/base');
    expect(pageState('/other')).toBe(first);
    expect(Object.keys(first).sort()).toEqual(['browser', 'exportUi', 'historyIndex', 'historyView', 'live', 'nav', 'search', 'share', 'ui', 'usage', 'viewer']);
  });

  it('has the viewer prefetch in the session list’s order, not the drop’s', () => {
    const { viewer } = pageState('');
    // Listed oldest first; the session list shows the newest first.
    viewer.list = [entry('old', 1_000), entry('mid', 2_000), entry('new', 3_000)];
    expect(viewer.shownOrder().map((e) => e.key)).toEqual(['new', 'mid', 'old']);
  });
});
