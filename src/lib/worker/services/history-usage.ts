// History usage over the index: every indexed session's billed calls
// (services/history.ts allCalls) through view/history/reports.ts usageReport. The prepared,
// columnar form the reports run over (deduplicated, time-ordered, priced once) is made once per
// revision of the index, so a report over ~300k calls stays within 100 ms once the index is
// ready (npm run bench); a new session indexed makes the next report prepare again. With no tree
// loaded, the stored history's summary holds the prepared columns already (history-summary.ts):
// reports run over them without a call read.
import { prepareCalls, usageReport, type UsageColumns } from '../../view/history/reports.ts';
import type { BilledCall, UsageQuery, UsageReport } from '../../view/history/types.ts';

/** What history usage reads of the history service. */
export interface CallSource {
  /** Changes whenever the calls do (a session indexed, a new listing). */
  readonly revision: number;
  allCalls(): Promise<BilledCall[]>;
  /** The calls prepared already (the stored history's summary), or null: prepare allCalls(). */
  storedColumns?(): Promise<UsageColumns | null>;
}

export class HistoryUsageService {
  #source: CallSource;
  #prepared: { revision: number; calls: Promise<UsageColumns> } | null = null;

  constructor(source: CallSource) {
    this.#source = source;
  }

  #current(): Promise<UsageColumns> {
    const revision = this.#source.revision;
    if (this.#prepared?.revision !== revision) {
      const source = this.#source;
      const calls = (source.storedColumns?.() ?? Promise.resolve(null)).then(async (stored) => stored ?? prepareCalls(await source.allCalls()));
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
