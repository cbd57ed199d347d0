// Usage state: the usage panel (open or not, which tab), the open session's usage and the
// project's (every loaded session), fetched from the worker, which computes them once per
// session. The project's usage also feeds the session list and the timeline tooltips, so it is
// fetched after every load even while the panel is closed (while following a folder, at most
// every few seconds: it sums every session again). window.__loupe.usage() reads here.
import type { ProjectUsage, SessionUsage } from '../worker/protocol.ts';
import { costLabel, formatTokens, totalOf } from '../view/usage/index.ts';
import { engineClient } from './engine-client.ts';
import { Throttle } from './throttle.ts';
import type { Viewer } from './Viewer.svelte.ts';

/** 'history': the whole history's dashboard (state/HistoryUsage.svelte.ts). */
export type UsageTab = 'session' | 'project' | 'history';

/** While following a folder, the project's usage is fetched at most this often (see refresh). */
const LIVE_PROJECT_USAGE_MS = 3000;

/** The automation contract's shape (README, "Automation"). */
export interface UsageFigures {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
  unpricedMessages: number;
  models: Record<string, { messages: number; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number }>;
  priceSourceDate: string;
}

export class Usage {
  open = $state(false);
  tab = $state<UsageTab>('session');
  /** Usage of the open session (null until fetched, or while another session's is on its way). */
  session = $state.raw<SessionUsage | null>(null);
  project = $state.raw<ProjectUsage | null>(null);
  error = $state<string | null>(null);

  #viewer: Viewer;
  #sessionKey: string | null = null;
  #projectFor: unknown = null;
  /** Never at once (the page is about to ask the worker for the new rows), at most every LIVE_PROJECT_USAGE_MS. */
  #projectThrottle = new Throttle(LIVE_PROJECT_USAGE_MS, LIVE_PROJECT_USAGE_MS / 10);

  constructor(viewer: Viewer) {
    this.#viewer = viewer;
  }

  toggle(): void {
    this.open = !this.open;
    if (this.open) void this.refresh();
  }

  /** Fetches what is missing for the open session and the current load. `live` (following a
   *  folder: the sessions change with every append): the project's usage, which sums every
   *  session again in the worker, is fetched later, at most every LIVE_PROJECT_USAGE_MS, so it
   *  never queues ahead of the live rows (the last change always lands). */
  async refresh(opts: { live?: boolean } = {}): Promise<void> {
    const v = this.#viewer;
    try {
      if (v.sessions !== this.#projectFor) {
        if (opts.live && this.project) this.#projectThrottle.request(() => (this.#viewer.sessions !== this.#projectFor ? this.refresh() : undefined));
        else await this.#fetchProject();
      }
      if (this.open && v.currentKey && v.currentKey !== this.#sessionKey) await this.sessionUsage();
      this.error = null;
    } catch (e) {
      this.error = `Usage could not be computed: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  /** The open session's usage, fetched once per session. */
  async sessionUsage(): Promise<SessionUsage | null> {
    const key = this.#viewer.currentKey;
    if (!key) return null;
    if (key === this.#sessionKey && this.session) return this.session;
    this.session = null;
    const { api } = await engineClient();
    const u = await api.usage(key);
    if (this.#viewer.currentKey === key) {
      this.session = u;
      this.#sessionKey = key;
    }
    return u;
  }

  /** One line for a session list entry: "$1.20 · 3.4M tokens". */
  sessionLine(key: string): string | null {
    const s = this.project?.sessions.find((x) => x.key === key);
    return s && s.total.messages ? `${costLabel(s.total)} · ${formatTokens(totalOf(s.total))} tokens` : null;
  }

  /** Under the session list's cost lines: where the prices come from. */
  get priceNote(): string | null {
    return this.project?.sessions.some((x) => x.total.messages) ? `Costs at prices as of ${this.project.priceSourceDate}.` : null;
  }

  /** One line for a timeline bar's tooltip. */
  segmentLine(sessionKey: string, segmentId: string): string | null {
    const seg = this.project?.sessions.find((x) => x.key === sessionKey)?.segments[segmentId];
    if (!seg) return null;
    return seg.messages ? `${costLabel(seg)} · ${formatTokens(seg.tokens)} tokens · prices as of ${this.project!.priceSourceDate}` : null;
  }

  /** window.__loupe.usage(): the open session's totals, subagents included. */
  async figures(): Promise<UsageFigures | null> {
    const u = await this.sessionUsage();
    if (!u) return null;
    const models: UsageFigures['models'] = {};
    for (const [name, m] of Object.entries(u.models)) {
      models[name] = { messages: m.messages, input: m.input, output: m.output, cacheRead: m.cacheRead, cacheWrite: m.cacheWrite, costUsd: m.costUsd };
    }
    const t = u.total;
    return { input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite, costUsd: t.costUsd, unpricedMessages: t.unpricedMessages, models, priceSourceDate: u.priceSourceDate };
  }

  /** For the benchmark: the worker's time computing the open session's usage. */
  async timing(): Promise<{ computeMs: number; contextPoints: number } | null> {
    const u = await this.sessionUsage();
    return u && { computeMs: u.computeMs, contextPoints: u.context.main.points.length };
  }

  async #fetchProject(): Promise<void> {
    const sessions = this.#viewer.sessions;
    const { api } = await engineClient();
    const p = await api.projectUsage();
    if (this.#viewer.sessions === sessions) {
      this.project = p;
      this.#projectFor = sessions;
    }
  }
}
