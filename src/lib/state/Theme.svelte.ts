// Light / dark theme: follows the system until the person picks one; the pick is remembered.
import { readPref, writePref } from '../store/prefs.ts';

const KEY = 'loupe:theme';
export type ThemeChoice = 'system' | 'light' | 'dark';

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor() {
    this.choice = readPref(KEY, (v): v is ThemeChoice => v === 'light' || v === 'dark') ?? 'system';
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
