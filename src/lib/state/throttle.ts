// A redraw that follows a live session at most every `everyMs`: requests while one waits join it,
// one made while it runs schedules another after it, so the last change always lands and the
// worker is never asked twice at once. The timeline and the project's usage both follow this way.
export class Throttle {
  #at = -Infinity;
  #due: ReturnType<typeof setTimeout> | null = null;
  #running = false;
  #again = false;
  #run: (() => unknown) | null = null;

  /** `minWaitMs`: never sooner than this after a request (the page may be about to ask the worker itself). */
  constructor(
    readonly everyMs: number,
    readonly minWaitMs = 0
  ) {}

  /** Runs `run` (the newest one asked for) when the interval allows. */
  request(run: () => unknown): void {
    this.#run = run;
    if (this.#running) this.#again = true;
    else if (this.#due === null) this.#due = setTimeout(() => void this.#fire(), Math.max(this.minWaitMs, this.#at + this.everyMs - performance.now()));
  }

  /** Drops a waiting run (a new load: what it would show is gone). */
  cancel(): void {
    if (this.#due !== null) clearTimeout(this.#due);
    this.#due = null;
    this.#again = false;
  }

  async #fire(): Promise<void> {
    this.#due = null;
    this.#running = true;
    this.#at = performance.now();
    try {
      await this.#run?.();
    } catch {
      // The run reports its own failure; the next request tries again.
    } finally {
      this.#running = false;
      if (this.#again && this.#run) {
        this.#again = false;
        this.request(this.#run);
      }
    }
  }
}
