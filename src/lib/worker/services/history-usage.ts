// History usage as the worker answers it: historyUsage(query) runs usageReport over the whole
// history's billed calls, historyCalls(from, to) pages those calls (deduplicated, in time order:
// one row per call, what the export writes). The calls come from a source handed in by the
// composition root (the history index's stored calls; until it is there, the built sessions'),
// with a version that changes whenever they do: the prepared, columnar form the reports run over
// is made once per version, so a report over ~300k calls stays within 100 ms.
import type { LoadedSession } from '../../ingest/types.ts';
import { dirOf } from '../../ingest/paths.ts';
import { billedCalls } from '../../view/history/calls.ts';
import { prepareCalls, usageReport, type PreparedCalls } from '../../view/history/reports.ts';
import type { BilledCall, UsageQuery, UsageReport } from '../../view/history/types.ts';
import type { Listing, SessionSource } from './types.ts';

export type { UsageQuery };

export interface CallSource {
  /** Changes whenever the calls do (a session indexed, a new drop). */
  version(): string | number;
  calls(): Promise<BilledCall[]> | BilledCall[];
}

export class HistoryUsageService {
  #source: CallSource;
  #prepared: { version: string | number; calls: Promise<PreparedCalls> } | null = null;

  constructor(source: CallSource) {
    this.#source = source;
  }

  #current(): Promise<PreparedCalls> {
    const version = this.#source.version();
    if (this.#prepared?.version !== version) {
      const calls = Promise.resolve(this.#source.calls()).then((c) => prepareCalls(c));
      this.#prepared = { version, calls };
      // A failed preparation is not kept: the next report tries again.
      calls.catch(() => {
        if (this.#prepared?.calls === calls) this.#prepared = null;
      });
    }
    return this.#prepared.calls;
  }

  async usage(query: UsageQuery): Promise<UsageReport> {
    return usageReport(await this.#current(), query);
  }

  async calls(from: number, to: number): Promise<{ total: number; calls: BilledCall[] }> {
    const p = await this.#current();
    return { total: p.calls.length, calls: p.calls.slice(Math.max(0, from), Math.max(0, to)) };
  }
}

const ofLoaded = new WeakMap<LoadedSession, BilledCall[]>();

/** A built session's billed calls (computed once per built session object). */
export function callsOfLoaded(loaded: LoadedSession): BilledCall[] {
  let calls = ofLoaded.get(loaded);
  if (!calls) {
    const leaf = loaded.files.find((f) => f.kind === 'transcript') ?? loaded.files[0];
    calls = billedCalls(loaded, { sessionKey: loaded.key, project: leaf ? dirOf(leaf.path) : '', harness: loaded.meta.harness ?? 'claude-code' });
    ofLoaded.set(loaded, calls);
  }
  return calls;
}

/** A source over the built sessions (until the history index's stored calls replace it): its
 *  version is the load's generation and the built keys. */
export function builtSessionsSource(sessions: Pick<SessionSource, 'builtKeys' | 'built'>, listing: Pick<Listing, 'generation'>): CallSource {
  return {
    version: () => `${listing.generation}\n${sessions.builtKeys().join('\n')}`,
    async calls() {
      const out: BilledCall[] = [];
      for (const key of sessions.builtKeys()) {
        const entry = await sessions.built(key);
        if (entry) out.push(...callsOfLoaded(entry.loaded));
      }
      return out;
    }
  };
}
