// Per-row UI choices of the chat: which rows the person expanded or collapsed, keyed by the
// row's identity and remembered per session in localStorage, so they survive a reload of the
// same session. The viewer never overrides a choice; a landing only opens what is closed.
import { SvelteMap } from 'svelte/reactivity';
import { readPref, writePref } from '../store/prefs.ts';

const STORAGE_PREFIX = 'loupe:open:';
/** Oldest choices are dropped past this many per session (localStorage is small). */
const MAX_CHOICES = 2000;

export class ChatUi {
  /** key → flipped? A row open by default stores its "collapse" under `<key>~closed` (see
   *  components/chat/ui.ts), so every entry means "the person turned this away from its default". */
  #choices = new SvelteMap<string, boolean>();
  #sessionKey: string | null = null;
  /** Row key of the landing target, highlighted until the next landing. */
  highlightKey = $state<string | null>(null);

  /** Switches to a session's remembered choices. */
  useSession(sessionKey: string | null): void {
    if (sessionKey === this.#sessionKey) return;
    this.#sessionKey = sessionKey;
    this.#choices.clear();
    this.highlightKey = null;
    if (!sessionKey) return;
    for (const [k, v] of Object.entries(readChoices(sessionKey))) this.#choices.set(k, v);
  }

  /** Whether the person flipped this key (the ChatList `isExpanded` prop). */
  isFlipped(key: string): boolean {
    return this.#choices.get(key) ?? false;
  }

  /** Flips a key (the ChatList `onToggle` prop). */
  flip(key: string): void {
    this.#set(key, !this.isFlipped(key));
  }

  /** Opens a row (a landing inside a collapsed group); leaves an open row alone. */
  open(key: string, defaultOpen: boolean): void {
    if (defaultOpen) {
      if (this.isFlipped(`${key}~closed`)) this.#set(`${key}~closed`, false);
    } else if (!this.isFlipped(key)) this.#set(key, true);
  }

  #set(key: string, open: boolean): void {
    this.#choices.delete(key);
    this.#choices.set(key, open);
    if (this.#sessionKey) writeChoices(this.#sessionKey, this.#choices);
  }
}

function isChoices(v: unknown): v is Record<string, boolean> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'boolean');
}

function readChoices(sessionKey: string): Record<string, boolean> {
  return readPref(STORAGE_PREFIX + sessionKey, isChoices) ?? {};
}

function writeChoices(sessionKey: string, choices: Map<string, boolean>): void {
  writePref(STORAGE_PREFIX + sessionKey, Object.fromEntries([...choices].slice(-MAX_CHOICES)));
}
