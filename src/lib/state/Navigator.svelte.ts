// Landing: moves the chat to an atom (from a timeline click, a deep link, back / forward) and
// keeps the URL fragment `#s=<session>&a=<atom>` in step, one history entry per landing. A target
// that no row holds is said so; the viewer never lands somewhere "near" instead.
import { formatFragment, parseFragment } from '../view/links/fragment.ts';
import type { ChatUi } from './ChatUi.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

export class Navigator {
  /** One sentence when the last landing target could not be found. */
  notFound = $state<string | null>(null);
  /** Atom uuid of the last landing. */
  landedAtom = $state<string | null>(null);
  /** The open search's query, written next to the landing (`#q=`) so Back returns to a hit. */
  query: string | null = null;
  /** Its scope when not the open session's (`#qs=`). */
  queryScope: string | null = null;
  #scrollTo: ((index: number, atomUuid: string) => void) | null = null;

  private viewer: Viewer;
  private ui: ChatUi;

  constructor(viewer: Viewer, ui: ChatUi) {
    this.viewer = viewer;
    this.ui = ui;
  }

  /** The chat list registers how to bring a row into view. */
  attach(scrollTo: (index: number, atomUuid: string) => void): void {
    this.#scrollTo = scrollTo;
  }

  /** Landings begun: one that a newer landing overtook while it waited stops there. */
  #landings = 0;

  /** Lands on an atom of a loaded session; records a history entry unless `replace`. A landing
   *  waits on the worker (a session to select, the atom's row): when another begins meanwhile
   *  (Enter, Enter, F3 in quick succession), only the newest scrolls and writes the URL, so the
   *  history entries keep the order the person stepped in (false: overtaken, nothing done). */
  async land(sessionKey: string, atomUuid: string, how: 'push' | 'replace' | 'none' = 'push'): Promise<boolean> {
    const landing = ++this.#landings;
    const overtaken = () => landing !== this.#landings;
    const v = this.viewer;
    // A listed session of a big drop counts as loaded: select() builds it.
    if (!v.sessions.some((s) => s.key === sessionKey) && !v.list.some((s) => s.key === sessionKey)) {
      this.notFound = 'The linked session is not loaded.';
      return false;
    }
    if (v.currentKey !== sessionKey) await v.select(sessionKey);
    if (overtaken()) return false;
    this.ui.useSession(sessionKey);
    const index = await v.rowOfAtom(atomUuid, sessionKey);
    if (overtaken()) return false;
    if (index < 0) {
      this.notFound = `Atom ${atomUuid} is not shown in this session’s chat.`;
      return false;
    }
    this.notFound = null;
    const row = v.chatIndex[index];
    // A target inside a collapsed group opens the group; the person's other choices stay.
    if (row.atomUuid !== atomUuid) this.ui.open(row.key, row.defaultOpen);
    this.ui.highlightKey = row.key;
    this.landedAtom = atomUuid;
    this.#scrollTo?.(index, atomUuid);
    if (how !== 'none') this.#writeUrl(sessionKey, atomUuid, how);
    return true;
  }

  /** Lands where the current URL fragment points (page open, back / forward). */
  async followFragment(): Promise<void> {
    const f = parseFragment(location.hash);
    if (f.s && f.a) await this.land(f.s, f.a, 'none');
  }

  #writeUrl(s: string, a: string, how: 'push' | 'replace'): void {
    const url = new URL(location.href);
    url.hash = formatFragment({ s, a, q: this.query ?? undefined, qs: (this.query && this.queryScope) || undefined });
    if (url.href === location.href) return;
    if (how === 'push') history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }
}
