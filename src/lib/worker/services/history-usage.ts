// History usage over the index: every indexed session's billed calls
// (services/history.ts allCalls) through view/history/reports.ts usageReport. The prepared,
// columnar form the reports run over (deduplicated, time-ordered, priced once) is made once per
// revision of the index, so a report over ~300k calls stays within 100 ms once the index is
// ready (npm run bench); a new session indexed makes the next report prepare again.
import { prepareCalls, usageReport, type PreparedCalls } from '../../view/history/reports.ts';
import type { BilledCall, UsageQuery, UsageReport } from '../../view/history/types.ts';

/** What history usage reads of the history service. */
export interface CallSource {
  /** Changes whenever the calls do (a session indexed, a new listing). */
  readonly revision: number;
  allCalls(): Promise<BilledCall[]>;
}

export class HistoryUsageService {
  #source: CallSource;
  #prepared: { revision: number; calls: Promise<PreparedCalls> } | null = null;

  constructor(source: CallSource) {
    this.#source = source;
  }

  #current(): Promise<PreparedCalls> {
    const revision = this.#source.revision;
    if (this.#prepared?.revision !== revision) {
      const calls = this.#source.allCalls().then((c) => prepareCalls(c));
      this.#prepared = { revision, calls };
      // A failed read is not kept: the next report tries again.
      calls.catch(() => {
        if (this.#prepared?.calls === calls) this.#prepared = null;
      });
    }
    return this.#prepared.calls;
  }

  usage(query: UsageQuery): Promise<UsageReport> {
    return this.#current().then((p) => usageReport(p, query));
  }
}

const services = new WeakMap<CallSource, HistoryUsageService>();

/** The worker's historyUsage(query): the report over the history service's indexed calls. */
export async function historyUsage(history: CallSource, query: UsageQuery): Promise<UsageReport | null> {
  let svc = services.get(history);
  if (!svc) services.set(history, (svc = new HistoryUsageService(history)));
  return svc.usage(query);
}
