// The history index's scheduler: every listed session once, over a few lanes (lane.ts), side by
// side. A lane is sent at most DEPTH jobs (one building, the next waiting with its bytes read),
// as the search pool does (view/search/pool.ts). It never competes with what the reader asked
// for: hold(p) pauses the hand-out while p (an open, a search) is in flight; jobs already in a
// lane finish, the rest wait. cancel() drops what is queued; what is running finishes and its
// result is dropped. A lane that fails (its worker died) hands its job back; with no lane left,
// the calling thread runs the rest one by one. `gate` is the engine's foreground (worker/services/
// foreground.ts): while the page waits for an open or a search, no session is handed out.
import type { HistoryJob, HistoryLane, HistoryResult } from './lane.ts';

export interface QueueItem {
  key: string;
  /** Bytes of the session's files (the first lane takes the largest, so no big one is left for last). */
  size: number;
  job: () => HistoryJob;
}

/** What the page is waiting for (worker/services/foreground.ts). */
export interface QueueGate {
  readonly busy: boolean;
  idle(): Promise<void>;
}

interface Slot {
  lane: HistoryLane;
  running: number;
  dead: boolean;
}

const DEPTH = 2;

export class HistoryQueue {
  #slots: Slot[];
  #queue: QueueItem[] = [];
  #generation = 0;
  #holds = 0;
  #running = 0;
  #onResult: (item: QueueItem, r: HistoryResult) => void = () => {};
  #done: (() => void) | null = null;
  #fallback: () => HistoryLane;
  #fallbackBusy = false;
  #gate: QueueGate | null;
  #waitingIdle = false;

  constructor(lanes: HistoryLane[], fallback: () => HistoryLane, gate: QueueGate | null = null) {
    this.#slots = lanes.map((lane) => ({ lane, running: 0, dead: false }));
    this.#fallback = fallback;
    this.#gate = gate;
  }

  /** Sessions still waiting to be handed to a lane. */
  get queued(): number {
    return this.#queue.length;
  }

  get paused(): boolean {
    return this.#holds > 0 || !!this.#gate?.busy;
  }

  /** Paused: nothing is handed out now; a foreground wait resumes the hand-out once it is over. */
  #held(): boolean {
    if (this.#holds) return true;
    if (!this.#gate?.busy) return false;
    if (!this.#waitingIdle) {
      this.#waitingIdle = true;
      void this.#gate.idle().then(() => {
        this.#waitingIdle = false;
        this.#pump();
      });
    }
    return true;
  }

  /** Indexes these sessions (replacing a run in flight); resolves when every one is back or the run is cancelled. */
  run(items: QueueItem[], onResult: (item: QueueItem, r: HistoryResult) => void): Promise<void> {
    this.cancel();
    this.#queue = [...items];
    this.#onResult = onResult;
    return new Promise((resolve) => {
      this.#done = resolve;
      this.#pump();
      this.#finish(); // nothing to run: done at once
    });
  }

  /** Adds sessions to the run in flight (or starts one). */
  add(items: QueueItem[]): void {
    this.#queue.push(...items);
    this.#pump();
  }

  /** Pauses handing out sessions while `p` is in flight (an open or a search preempts the index). */
  async hold<T>(p: Promise<T>): Promise<T> {
    this.#holds++;
    try {
      return await p;
    } finally {
      this.#holds--;
      this.#pump();
    }
  }

  cancel(): void {
    this.#generation++;
    this.#queue = [];
    // Jobs still in a lane belong to the cancelled run: nothing waits for them.
    this.#running = 0;
    this.#finish();
  }

  dispose(): void {
    this.cancel();
    for (const s of this.#slots) s.lane.dispose?.();
    this.#slots = [];
  }

  #finish(): void {
    if (this.#queue.length || this.#running) return;
    const done = this.#done;
    this.#done = null;
    done?.();
  }

  #pump(): void {
    if (this.#held()) return;
    const live = this.#slots.filter((s) => !s.dead);
    if (!live.length) {
      void this.#drainToFallback();
      return;
    }
    for (let filled = true; filled && this.#queue.length; ) {
      filled = false;
      for (const slot of live) {
        if (slot.running >= DEPTH || !this.#queue.length || this.#held()) continue;
        const item = slot === live[0] && live.length > 1 ? this.#largest() : (this.#queue.shift() as QueueItem);
        void this.#start(slot, item);
        filled = true;
      }
    }
  }

  #largest(): QueueItem {
    let big = 0;
    for (let i = 1; i < this.#queue.length; i++) if (this.#queue[i].size > this.#queue[big].size) big = i;
    return this.#queue.splice(big, 1)[0];
  }

  async #start(slot: Slot, item: QueueItem): Promise<void> {
    const generation = this.#generation;
    slot.running++;
    this.#running++;
    let result: HistoryResult | null = null;
    try {
      result = await slot.lane.index(item.job());
    } catch {
      // The lane is gone (its worker failed): this session goes back to the queue for the others.
      slot.dead = true;
      if (generation === this.#generation) this.#queue.unshift(item);
    }
    slot.running--;
    if (generation === this.#generation) {
      this.#running--;
      if (result) this.#onResult(item, result);
    }
    this.#pump();
    this.#finish();
  }

  /** No lane left: the calling thread runs the queue, one session at a time. */
  async #drainToFallback(): Promise<void> {
    if (this.#fallbackBusy) return;
    this.#fallbackBusy = true;
    const lane = this.#fallback();
    try {
      while (this.#queue.length && !this.#held()) {
        const generation = this.#generation;
        const item = this.#queue.shift() as QueueItem;
        this.#running++;
        const result = await lane.index(item.job()).catch((e: unknown): HistoryResult => ({ ok: false, reason: String(e), ms: 0 }));
        if (generation === this.#generation) {
          this.#running--;
          this.#onResult(item, result);
        }
      }
    } finally {
      this.#fallbackBusy = false;
      this.#finish();
    }
  }
}
