// The page's state objects (the Viewer and what hangs on it), made once per page view. The layout
// makes them a task before it mounts the page: made in the page's own mount, they were one long
// task with its first markup and onMount. None of them makes effects, so they need no component.
import { ChatUi } from './ChatUi.svelte.ts';
import { ExportUi } from './Export.svelte.ts';
import { HistoryIndex } from './History.svelte.ts';
import { HistoryView } from './HistoryView.svelte.ts';
import { Live } from './Live.svelte.ts';
import { Navigator } from './Navigator.svelte.ts';
import { Search } from './Search.svelte.ts';
import { SessionBrowser } from './SessionBrowser.svelte.ts';
import { Share } from './Share.svelte.ts';
import { Usage } from './Usage.svelte.ts';
import { Viewer } from './Viewer.svelte.ts';

function makePageState(base: string) {
  const viewer = new Viewer(base);
  const ui = new ChatUi();
  const nav = new Navigator(viewer, ui);
  const share = new Share(viewer);
  const usage = new Usage(viewer);
  const search = new Search(viewer, nav, ui);
  const exportUi = new ExportUi(viewer, share, () => nav.landedAtom);
  const live = new Live(viewer);
  const historyIndex = new HistoryIndex();
  // Once the history index has read a session, the list shows its exact turns and cost.
  const browser = new SessionBrowser(() => historyIndex.entries(viewer.list));
  viewer.shownOrder = () => browser.visible;
  // The history view: Everything searches its stored sessions too, and opens them its way.
  const historyView = new HistoryView(viewer);
  search.storedRows = () => historyView.rows;
  search.openStored = (key) => historyView.openSession(key);
  search.withStored = () => historyView.joinStored();
  return { viewer, ui, nav, share, usage, search, exportUi, live, historyIndex, browser, historyView };
}

export type PageState = ReturnType<typeof makePageState>;

let made: PageState | null = null;

/** The page view's state, made on the first call. */
export function pageState(base: string): PageState {
  return (made ??= makePageState(base));
}
