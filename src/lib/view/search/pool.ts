// A few search lanes (worker/search.worker.ts) sharing one query's sessions. The engine submits
// every session a query must build; a lane that is free takes the next one, so the sessions are
// built side by side, in list order as far as the lanes allow. A session whose text a lane kept
// from an earlier query goes back to that lane (its cached text makes it a scan, not a build).
// One job per lane at a time, sent only when the lane is free: a lane holds at most its cache and
// one session's build, and cancelling drops what is still queued. A job already running finishes
// (a build cannot be cut short), but what it found is dropped.
import type { LaneJob, LaneResult, SearchLane } from './lane.ts';

interface Task {
	cacheKey: string;
	/** The job, made when a lane takes it (the hit budget left is known only then). */
	job: () => LaneJob;
	resolve: (r: LaneResult | null) => void;
	generation: number;
}

interface LaneSlot {
	lane: SearchLane;
	busy: boolean;
	/** Tasks whose text this lane keeps. */
	queue: Task[];
	dead: boolean;
}

export class SearchPool {
	#slots: LaneSlot[];
	#shared: Task[] = [];
	/** Tasks a lane is running now (a cancel answers them at once; the lane stays busy until it returns). */
	#running = new Set<Task>();
	/** Which lane keeps which session's text (from what the lanes report). */
	#owner = new Map<string, LaneSlot>();
	#generation = 0;
	/** Runs a job when every lane has failed (a worker that could not start). */
	#fallback: () => SearchLane;
	#fallbackLane: SearchLane | null = null;
	#fallbackRun: Promise<void> = Promise.resolve();

	constructor(lanes: SearchLane[], fallback: () => SearchLane) {
		this.#slots = lanes.map((lane) => ({ lane, busy: false, queue: [], dead: false }));
		this.#fallback = fallback;
	}

	get size(): number {
		return this.#slots.filter((s) => !s.dead).length;
	}

	/** Queues one session; resolves with its result, or null when a cancel dropped it. */
	submit(cacheKey: string, job: () => LaneJob): Promise<LaneResult | null> {
		return new Promise((resolve) => {
			const task: Task = { cacheKey, job, resolve, generation: this.#generation };
			const owner = this.#owner.get(cacheKey);
			if (owner && !owner.dead) owner.queue.push(task);
			else this.#shared.push(task);
			this.#pump();
		});
	}

	/** Drops every queued session (their promises resolve with null); running ones are discarded when they return. */
	cancel(): void {
		this.#generation++;
		const dropped = [...this.#shared, ...this.#slots.flatMap((s) => s.queue), ...this.#running];
		this.#shared = [];
		for (const s of this.#slots) s.queue = [];
		for (const t of dropped) t.resolve(null);
	}

	dispose(): void {
		this.cancel();
		for (const s of this.#slots) s.lane.dispose?.();
		this.#slots = [];
	}

	#pump(): void {
		for (const slot of this.#slots) {
			if (slot.busy || slot.dead) continue;
			const task = this.#next(slot);
			if (!task) continue;
			void this.#start(slot, task);
		}
		if (!this.size) this.#drainToFallback();
	}

	/** The lane's own sessions first, then the shared queue, then sessions another lane no longer keeps. */
	#next(slot: LaneSlot): Task | undefined {
		const own = slot.queue.shift() ?? this.#shared.shift();
		if (own) return own;
		for (const other of this.#slots) {
			if (other === slot) continue;
			const i = other.queue.findIndex((t) => this.#owner.get(t.cacheKey) !== other);
			if (i >= 0) return other.queue.splice(i, 1)[0];
		}
		return undefined;
	}

	async #start(slot: LaneSlot, task: Task): Promise<void> {
		slot.busy = true;
		this.#running.add(task);
		let result: LaneResult | null = null;
		try {
			result = await slot.lane.run(task.job());
		} catch {
			this.#running.delete(task);
			// The lane is gone (its worker failed): its queue goes to the others, this task too.
			slot.dead = true;
			slot.busy = false;
			for (const [k, s] of this.#owner) if (s === slot) this.#owner.delete(k);
			this.#shared.unshift(...(task.generation === this.#generation ? [task] : []), ...slot.queue);
			slot.queue = [];
			this.#pump();
			return;
		}
		this.#running.delete(task);
		slot.busy = false;
		for (const k of result.evicted) if (this.#owner.get(k) === slot) this.#owner.delete(k);
		if (result.cached) this.#owner.set(task.cacheKey, slot);
		task.resolve(task.generation === this.#generation ? result : null);
		this.#pump();
	}

	/** No lane left: the calling thread runs what is queued, one at a time. */
	#drainToFallback(): void {
		const lane = (this.#fallbackLane ??= this.#fallback());
		const tasks = this.#shared;
		this.#shared = [];
		this.#fallbackRun = this.#fallbackRun.then(async () => {
			for (const t of tasks) {
				const r = t.generation === this.#generation ? await lane.run(t.job()).catch(() => null) : null;
				t.resolve(t.generation === this.#generation ? r : null);
			}
		});
	}
}
