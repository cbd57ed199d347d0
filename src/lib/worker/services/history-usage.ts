// History usage over the index (issue 22's reports): every indexed session's billed calls through
// view/history/reports.ts usageReport. Null until that module lands in this tree.
import type { UsageQuery, UsageReport } from '../../view/history/types.ts';
import type { HistoryService } from './history.ts';

export async function historyUsage(history: Pick<HistoryService, 'allCalls'>, query: UsageQuery): Promise<UsageReport | null> {
  void history;
  void query;
  return null;
}
