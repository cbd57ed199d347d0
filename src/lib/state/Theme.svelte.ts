// Light / dark theme: follows the system until the person picks one; the pick is remembered.
import { readPref, writePref } from '../store/prefs.ts';

const KEY = 'loupe:theme';
export type ThemeChoice = 'system' | 'light' | 'dark';

const isChoice = (v: unknown): v is ThemeChoice => v === 'light' || v === 'dark';
const readChoice = (): ThemeChoice => readPref(KEY, isChoice) ?? 'system';

/** Reads the remembered choice ahead of the page's mount, in a task of its own (hooks.client.ts):
 *  a page's first localStorage read loads the origin's whole storage area through a synchronous
 *  call to the browser, 8–11 ms of the mount task at 4× CPU. The mount's read then
 *  finds it loaded. */
export function primeTheme(): void {
  readChoice();
}

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor() {
    this.choice = readChoice();
    this.#apply();
  }

  /** Cycles system → light → dark → system. */
  cycle(): void {
    this.choice = this.choice === 'system' ? 'light' : this.choice === 'light' ? 'dark' : 'system';
    writePref(KEY, this.choice === 'system' ? undefined : this.choice);
    this.#apply();
  }

  #apply(): void {
    const html = document.documentElement;
    if (this.choice === 'system') delete html.dataset.theme;
    else html.dataset.theme = this.choice;
  }
}
