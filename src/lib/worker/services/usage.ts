// Usage: one session's accounting, chart series and insights (view/usage/), computed once and
// kept on its entry, and the built sessions side by side (the project view). Reads the built
// sessions through `SessionSource` (sessions.ts).
import { PRICES, projectUsage, sessionUsage, type ProjectUsage, type SessionUsage } from '../../view/usage/index.ts';
import type { SessionSource } from './types.ts';

export class Usage {
  #sessions: Pick<SessionSource, 'built' | 'builtKeys'>;

  constructor(sessions: Pick<SessionSource, 'built' | 'builtKeys'>) {
    this.#sessions = sessions;
  }

  /** Accounting, chart series and insights of one session with its subagents (computed once, kept). */
  async usage(key: string): Promise<SessionUsage | null> {
    const entry = await this.#sessions.built(key);
    if (!entry) return null;
    entry.usage ??= sessionUsage(entry.loaded);
    return entry.usage;
  }

  /**
   * Usage of the built sessions side by side, and their sum (the project view). A big drop's
   * sessions that were never opened are not built for it: their cost would mean parsing them all.
   */
  async projectUsage(): Promise<ProjectUsage> {
    const picked = [];
    for (const key of this.#sessions.builtKeys()) {
      const usage = await this.usage(key);
      const loaded = (await this.#sessions.built(key))?.loaded;
      if (usage && loaded) picked.push({ key, title: loaded.title, startedAt: loaded.startedAt, usage });
    }
    return projectUsage(picked, PRICES.sourceDate);
  }
}
