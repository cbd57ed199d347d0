// History usage state: the dashboard's choices (time zone, date range, project / harness / model
// filters, what the day bars are stacked by, the day drilled into) and the reports it shows,
// asked of the worker's history service (historyUsage over the indexed calls; historyCalls pages
// the calls for the export). Written against HistoryUsageApi, so it does not care which service
// answers. window.__loupe.historyUsage(query) and exportHistory(format) read here.
import type { BilledCall, UsageQuery, UsageReport } from '../view/history/types.ts';
import { isTimeZone, localTimeZone } from '../view/history/zone.ts';
import { Throttle } from './throttle.ts';

/** What the dashboard needs of the worker. */
export interface HistoryUsageApi {
  historyUsage(query: UsageQuery): Promise<UsageReport | null>;
  /** Billed calls [from, to) of the whole history, and how many there are. */
  historyCalls(from: number, to: number): Promise<{ total: number; calls: BilledCall[] }>;
}

export type Stack = 'model' | 'project';

/** While the index fills, the dashboard follows it at most this often (each report re-prepares the calls). */
const FOLLOW_MS = 1500;

/** The calls are fetched for an export in pages of this many. */
const PAGE = 50_000;

export interface Reports {
  days: UsageReport;
  blocks: UsageReport;
  sessions: UsageReport;
  projects: UsageReport;
  models: UsageReport;
  harnesses: UsageReport;
}

export class HistoryUsage {
  /** IANA name; the browser's by default. */
  timezone = $state(localTimeZone());
  since = $state('');
  until = $state('');
  project = $state('');
  harness = $state('');
  model = $state('');
  stack = $state<Stack>('model');
  /** The day whose sessions the table shows (drill-down), or null. */
  day = $state<string | null>(null);
  reports = $state.raw<Reports | null>(null);
  daySessions = $state.raw<UsageReport | null>(null);
  /** Filter choices: every project / harness / model of the unfiltered history. */
  options = $state.raw<{ projects: string[]; harnesses: string[]; models: string[] }>({ projects: [], harnesses: [], models: [] });
  loading = $state(false);
  error = $state<string | null>(null);
  exporting = $state(false);

  #api: () => Promise<HistoryUsageApi>;
  #seq = 0;
  #follow = new Throttle(FOLLOW_MS);
  /** The title of a listed session (by its key), for the session rows. */
  readonly titleOf: (sessionKey: string) => string | null;

  constructor(api: () => Promise<HistoryUsageApi>, titleOf: (sessionKey: string) => string | null = () => null) {
    this.#api = api;
    this.titleOf = titleOf;
  }

  readonly localZone = localTimeZone();

  /** The filters of the current choices, as a query (without `by`). */
  filters(): Omit<UsageQuery, 'by'> {
    const q: Omit<UsageQuery, 'by'> = { timezone: this.timezone };
    if (this.since) q.since = this.since;
    if (this.until) q.until = this.until;
    if (this.project) q.project = this.project;
    if (this.harness) q.harness = this.harness;
    if (this.model) q.model = this.model;
    return q;
  }

  setTimezone(name: string): void {
    if (!isTimeZone(name)) {
      this.error = `Unknown time zone: ${name}`;
      return;
    }
    this.timezone = name;
    void this.refresh();
  }

  /** The index changed (a session indexed): refresh, at most every FOLLOW_MS. */
  indexChanged(): void {
    this.#follow.request(() => this.refresh());
  }

  /** Every report the dashboard shows, for the current choices (a later call wins). */
  async refresh(): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const api = await this.#api();
      const f = this.filters();
      const ask = (q: UsageQuery) => api.historyUsage(q);
      const [days, blocks, sessions, projects, models, harnesses, allProjects, allModels, allHarnesses] = await Promise.all([
        ask({ ...f, by: 'day', split: this.stack }),
        ask({ ...f, by: 'block' }),
        ask({ ...f, by: 'session' }),
        ask({ ...f, by: 'project' }),
        ask({ ...f, by: 'model' }),
        ask({ ...f, by: 'harness' }),
        ask({ by: 'project' }),
        ask({ by: 'model' }),
        ask({ by: 'harness' })
      ]);
      if (seq !== this.#seq) return;
      if (!days || !blocks || !sessions || !projects || !models || !harnesses) {
        this.reports = null;
        this.error = 'History usage is not available yet (the history index has not run).';
        return;
      }
      this.reports = { days, blocks, sessions, projects, models, harnesses };
      const keys = (r: UsageReport | null) => (r ? r.rows.map((x) => x.key).sort() : []);
      this.options = { projects: keys(allProjects), harnesses: keys(allHarnesses), models: keys(allModels) };
      this.error = null;
      if (this.day) await this.#fetchDay(this.day, seq);
    } catch (e) {
      if (seq === this.#seq) this.error = `History usage could not be computed: ${e instanceof Error ? e.message : String(e)}`;
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** Drill into a day: its sessions (null: back to all). */
  async openDay(day: string | null): Promise<void> {
    this.day = day;
    this.daySessions = null;
    if (day) await this.#fetchDay(day, this.#seq);
  }

  async #fetchDay(day: string, seq: number): Promise<void> {
    const api = await this.#api();
    const r = await api.historyUsage({ ...this.filters(), by: 'session', since: day, until: day });
    if (seq === this.#seq && this.day === day) this.daySessions = r;
  }

  /** window.__loupe.historyUsage(query): the service's report as it is (the browser's zone by default). */
  async automation(query: UsageQuery): Promise<UsageReport | null> {
    const api = await this.#api();
    return api.historyUsage({ timezone: this.localZone, ...query });
  }

  /** Every billed call of the history, paged from the worker. */
  async calls(): Promise<BilledCall[]> {
    const api = await this.#api();
    const first = await api.historyCalls(0, PAGE);
    const out = first.calls.slice();
    for (let from = PAGE; from < first.total; from += PAGE) out.push(...(await api.historyCalls(from, from + PAGE)).calls);
    return out;
  }

  /** Builds the CSV or Parquet of the calls and starts its download (the writer loads on demand). */
  async exportFile(format: 'csv' | 'parquet'): Promise<{ name: string; bytes: number }> {
    this.exporting = true;
    try {
      const [{ exportCalls }, calls] = await Promise.all([import('../view/history/export.ts'), this.calls()]);
      const file = exportCalls(calls, format);
      const blob = new Blob([file.data], { type: file.type });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = file.name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      this.error = null;
      return { name: file.name, bytes: blob.size };
    } catch (e) {
      this.error = `The export failed: ${e instanceof Error ? e.message : String(e)}`;
      throw e;
    } finally {
      this.exporting = false;
    }
  }
}
