// What the page is waiting for now: opens and searches run as foreground work, and a background
// job (prefetch-like work over every listed session, such as a history index) checks `busy`
// between steps and awaits idle() before its next one, so it never delays an answer the page
// asked for. Only the root marks foreground work; services are handed this to read.
export class Foreground {
  #active = 0;
  #waiting: (() => void)[] = [];

  /** Runs `work` as foreground work (it starts synchronously, so ordering is unchanged). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    this.#active++;
    try {
      return await work();
    } finally {
      if (--this.#active === 0) {
        const waiting = this.#waiting;
        this.#waiting = [];
        for (const resolve of waiting) resolve();
      }
    }
  }

  /** True while the page waits for something. */
  get busy(): boolean {
    return this.#active > 0;
  }

  /** Resolves once no foreground work runs (at once when none does). */
  idle(): Promise<void> {
    return this.#active === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }
}
