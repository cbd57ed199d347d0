// Light / dark theme: follows the system until the person picks one; the pick is remembered.
const KEY = 'loupe:theme';
export type ThemeChoice = 'system' | 'light' | 'dark';

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor() {
    try {
      const saved = localStorage.getItem(KEY);
      if (saved === 'light' || saved === 'dark') this.choice = saved;
    } catch {
      // no storage: follow the system
    }
    this.#apply();
  }

  /** Cycles system → light → dark → system. */
  cycle(): void {
    this.choice = this.choice === 'system' ? 'light' : this.choice === 'light' ? 'dark' : 'system';
    try {
      if (this.choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, this.choice);
    } catch {
      // ignore
    }
    this.#apply();
  }

  #apply(): void {
    const html = document.documentElement;
    if (this.choice === 'system') delete html.dataset.theme;
    else html.dataset.theme = this.choice;
  }
}
