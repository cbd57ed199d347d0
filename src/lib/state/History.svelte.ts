// The history index as the page sees it (the worker's history service does the work): started
// once a load is ready and the page is idle, polled while it runs for its progress and the
// digests it has so far, which make the session list's turns exact and give every session and
// project its cost. Cancel stops it; Clear forgets what the browser stored. window.__loupe.history()
// reads the worker's status directly.
import { engineClient } from './engine-client.ts';
import { whenIdle } from './idle-work.ts';
import { withDigests, type DigestCache, type ListDigest } from '../view/history/list.ts';
import { projectsOf, type ListEntry, type ProjectEntry } from '../view/sessions/list.ts';
import type { FileNotIndexed, HistoryFailure, HistoryStatus } from '../view/history/types.ts';
import type { UsageProblem } from '../view/history/usage-pass.ts';
import { formatUsd } from '../view/usage/format.ts';

export type { FileNotIndexed, HistoryFailure, HistoryStatus, UsageProblem };

/** How often the page asks for progress; digests are taken in at most every APPLY_MS (each redraws the list). */
const POLL_MS = 400;
const APPLY_MS = 1500;

export class HistoryIndex {
  status = $state.raw<HistoryStatus | null>(null);
  /** Digests read so far, by session key. */
  digests = $state.raw(new Map<string, ListDigest>());
  failures = $state.raw<{ sessions: HistoryFailure[]; files: FileNotIndexed[]; usage?: readonly UsageProblem[] } | null>(null);
  /** What the browser keeps over every tree indexed here (the start page's line). */
  stored = $state.raw<{ sessions: number; bytes: number; partial: boolean } | null>(null);
  running = $state(false);
  cancelled = $state(false);
  #next = 0;
  #run = 0;
  #list: ListEntry[] | null = null;
  #patched: ListEntry[] = [];
  #patchedFrom: Map<string, ListDigest> | null = null;
  #cache: DigestCache = new WeakMap();
  #projects: { from: ListEntry[]; out: ProjectEntry[] } | null = null;
  #appliedAt = 0;

  /** Starts indexing the loaded tree (a new load resets what is shown), once the page is idle. */
  start(): void {
    const run = ++this.#run;
    this.digests = new Map();
    this.failures = null;
    this.status = null;
    this.cancelled = false;
    this.#next = 0;
    const go = () => void this.#go(run);
    whenIdle(go, { fallback: 200 });
  }

  async #go(run: number): Promise<void> {
    if (run !== this.#run) return;
    const { api } = await engineClient();
    this.running = true;
    let done = false;
    const finished = api.historyStart().finally(() => (done = true));
    try {
      while (run === this.#run) {
        await this.#poll(run, false);
        if (done || this.status?.ready || this.cancelled) break;
        await Promise.race([finished, new Promise((r) => setTimeout(r, POLL_MS))]);
      }
      await finished;
      if (run === this.#run) {
        await this.#poll(run, true);
        this.failures = await api.historyFailures();
      }
    } finally {
      if (run === this.#run) this.running = false;
    }
  }

  async #poll(run: number, all: boolean): Promise<void> {
    const { api } = await engineClient();
    // The digests come in batches (each redraws the list), the progress line every poll.
    const take = all || performance.now() - this.#appliedAt >= APPLY_MS;
    const [status, page] = await Promise.all([api.historyStatus(), take ? api.historyDigests(this.#next) : null]);
    if (run !== this.#run) return;
    this.status = status;
    if (!page) return;
    this.#appliedAt = performance.now();
    if (page.rows.length) {
      const next = new Map(this.digests);
      for (const r of page.rows) next.set(r.key, r);
      this.digests = next;
    }
    this.#next = page.next;
  }

  /** A followed folder changed: its sessions' digests are read again from where the poll was. */
  refresh(): void {
    const run = this.#run;
    if (!this.running) void this.#poll(run, true);
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
    this.#run++;
    this.running = false;
    await (await engineClient()).api.historyCancel();
  }

  async refreshStored(): Promise<void> {
    this.stored = await (await engineClient()).api.historyStored();
  }

  async clear(): Promise<void> {
    await (await engineClient()).api.historyClear();
    await this.refreshStored();
  }

  /** The list with what the index read (the same array until it has read something). */
  entries(list: ListEntry[]): ListEntry[] {
    if (list !== this.#list || this.digests !== this.#patchedFrom) {
      this.#list = list;
      this.#patchedFrom = this.digests;
      this.#patched = withDigests(list, this.digests, this.#cache);
    }
    return this.#patched;
  }

  projects(list: ListEntry[]): ProjectEntry[] {
    const from = this.entries(list);
    if (this.#projects?.from !== from) this.#projects = { from, out: projectsOf(from) };
    return this.#projects.out;
  }

  /** A session's cost line from its digest (null until indexed). */
  costLine(key: string): string | null {
    const d = this.digests.get(key);
    return d ? formatUsd(d.costUsd) : null;
  }

  /** window.__loupe.history(): the worker's figures now. */
  async automation(): Promise<HistoryStatus> {
    const { notice: _notice, ...status } = await (await engineClient()).api.historyStatus();
    return status;
  }
}
