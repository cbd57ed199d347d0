// A few search lanes (worker/search.worker.ts) sharing one query's sessions, built side by side.
// A session whose text a lane kept goes back to that lane (a scan, not a build); the others go in
// list order (first hits come early), the first lane taking the largest left (so a big session
// does not end alone). A lane gets at most DEPTH jobs: it runs one at a time (lane.ts) with the
// next one's bytes read ahead (READ_AHEAD_MAX_BYTES), so it never waits on a round trip and holds
// at most its cache, one build and one session's bytes. Kept sessions and those decoded from
// their history index (`light`) go in batches of up to BATCH a message: a round trip each cost
// more than their scans. A job knows whether its lane keeps the session (`job(kept)`): then it
// goes without its bytes, and a lane that lost it answers `missing`. A cancel drops what is
// queued here and tells the lanes to skip what waits there; a running job finishes, its hits
// dropped.
import type { LaneJob, LaneResult, SearchLane } from './lane.ts';

interface Task {
	cacheKey: string;
	/** Bytes of the session's files (the first lane takes the largest first). */
	size: number;
	/** The job, made when a lane takes it (the hit budget left is known only then); `kept`: that
	 *  lane reported keeping the session's text. */
	job: (kept: boolean) => Omit<LaneJob, 'generation'>;
	resolve: (r: LaneResult | null) => void;
	generation: number;
	/** Decoded from its history index, not built: short, batched with its neighbours. */
	light: boolean;
}

interface LaneSlot {
	lane: SearchLane;
	running: number;
	/** Tasks whose text this lane keeps. */
	queue: Task[];
	dead: boolean;
}

/** Jobs sent to one lane at a time: one running, one waiting there. */
const DEPTH = 2;
/** Kept sessions sent to a lane in one message. */
const BATCH = 32;
/** Sessions decoded from their index sent to a lane in one message (a first query's first hits
 *  wait for the first batch: about 16 × 2 ms). */
const LIGHT_BATCH = 16;

export class SearchPool {
	#slots: LaneSlot[];
	#shared: Task[] = [];
	/** Tasks sent to a lane and not back yet (a cancel answers them at once). */
	#running = new Set<Task>();
	/** Which lane keeps which session's text (from what the lanes report). */
	#owner = new Map<string, LaneSlot>();
	#generation = 0;
	#pumping = false;
	/** Runs a job when every lane has failed (a worker that could not start). */
	#fallback: () => SearchLane;
	#fallbackLane: SearchLane | null = null;
	#fallbackRun: Promise<void> = Promise.resolve();

	constructor(lanes: SearchLane[], fallback: () => SearchLane) {
		this.#slots = lanes.map((lane) => ({ lane, running: 0, queue: [], dead: false }));
		this.#fallback = fallback;
	}

	get size(): number {
		return this.#slots.filter((s) => !s.dead).length;
	}

	/** Queues one session; resolves with its result, or null when a cancel dropped it. */
	submit(cacheKey: string, size: number, job: (kept: boolean) => Omit<LaneJob, 'generation'>, light = false): Promise<LaneResult | null> {
		return new Promise((resolve) => {
			const task: Task = { cacheKey, size, job, resolve, generation: this.#generation, light };
			const owner = this.#owner.get(cacheKey);
			if (owner && !owner.dead) owner.queue.push(task);
			else this.#shared.push(task);
			// A query submits all its sessions at once: they are handed out together, after it.
			if (!this.#pumping) {
				this.#pumping = true;
				queueMicrotask(() => {
					this.#pumping = false;
					this.#pump();
				});
			}
		});
	}

	/** Whether a lane reported keeping this session's text. */
	keeps(cacheKey: string): boolean {
		return this.#owner.get(cacheKey)?.dead === false;
	}

	/** Drops every queued session (their promises resolve with null); running ones are discarded when they return. */
	cancel(): void {
		this.#generation++;
		const dropped = [...this.#shared, ...this.#slots.flatMap((s) => s.queue), ...this.#running];
		this.#shared = [];
		for (const s of this.#slots) {
			s.queue = [];
			if (!s.dead) s.lane.skipBefore?.(this.#generation);
		}
		for (const t of dropped) t.resolve(null);
	}

	/** Cancels, and every lane forgets the text it kept (a new drop: those sessions are gone). */
	clear(): void {
		this.cancel();
		this.#owner.clear();
		for (const s of this.#slots) if (!s.dead) s.lane.clear?.();
	}

	dispose(): void {
		this.cancel();
		for (const s of this.#slots) s.lane.dispose?.();
		this.#slots = [];
	}

	#pump(): void {
		for (let filled = true; filled; ) {
			filled = false;
			for (const slot of this.#slots) {
				if (slot.running >= DEPTH || slot.dead) continue;
				const batch = this.#keptBatch(slot) ?? this.#lightBatch(slot);
				if (batch) {
					void this.#startBatch(slot, batch);
					filled = true;
					continue;
				}
				const task = this.#next(slot);
				if (!task) continue;
				void this.#start(slot, task);
				filled = true;
			}
		}
		if (!this.size) this.#drainToFallback();
	}

	/** Two or more of the lane's own sessions it still keeps, from the front of its queue (a lane
	 *  that cannot take a batch gets them one by one). */
	#keptBatch(slot: LaneSlot): Task[] | null {
		if (!slot.lane.runBatch) return null;
		let n = 0;
		while (n < slot.queue.length && n < BATCH && this.#owner.get(slot.queue[n].cacheKey) === slot) n++;
		return n >= 2 ? slot.queue.splice(0, n) : null;
	}

	/** Two or more sessions to decode from their index, from the front of the shared queue, once
	 *  the lane's own queue is empty (its kept sessions come first, as #next takes them). */
	#lightBatch(slot: LaneSlot): Task[] | null {
		if (!slot.lane.runBatch || slot.queue.length) return null;
		let n = 0;
		while (n < this.#shared.length && n < LIGHT_BATCH && this.#shared[n].light) n++;
		return n >= 2 ? this.#shared.splice(0, n) : null;
	}

		async #startBatch(slot: LaneSlot, tasks: Task[]): Promise<void> {
		slot.running++;
		for (const t of tasks) this.#running.add(t);
		let results: LaneResult[] | null = null;
		try {
			results = await slot.lane.runBatch!(
				tasks.map((t) => {
					const kept = this.#owner.get(t.cacheKey) === slot;
					return { ...t.job(kept), generation: t.generation, kept };
				})
			);
		} catch {
			results = null;
		}
		slot.running--;
		for (const t of tasks) this.#running.delete(t);
		if (!results) {
			// The lane failed: each task goes again on its own (the failure path of #start).
			for (const t of tasks) void this.#start(slot, t);
			return;
		}
		for (let i = 0; i < tasks.length; i++) this.#settle(slot, tasks[i], results[i]);
		this.#pump();
	}

	/** The lane's own sessions first, then the shared queue, then sessions another lane no longer keeps. */
	#next(slot: LaneSlot): Task | undefined {
		const own = slot.queue.shift() ?? this.#fromShared(slot);
		if (own) return own;
		for (const other of this.#slots) {
			if (other === slot) continue;
			const i = other.queue.findIndex((t) => this.#owner.get(t.cacheKey) !== other);
			if (i >= 0) return other.queue.splice(i, 1)[0];
		}
		return undefined;
	}

	#fromShared(slot: LaneSlot): Task | undefined {
		const lanes = this.#slots.filter((s) => !s.dead);
		if (lanes.length < 2 || slot !== lanes[0]) return this.#shared.shift();
		let big = -1;
		for (let i = 0; i < this.#shared.length; i++) if (big < 0 || this.#shared[i].size > this.#shared[big].size) big = i;
		return big < 0 ? undefined : this.#shared.splice(big, 1)[0];
	}

	async #start(slot: LaneSlot, task: Task): Promise<void> {
		slot.running++;
		this.#running.add(task);
		let result: LaneResult | null = null;
		try {
			const kept = this.#owner.get(task.cacheKey) === slot;
			result = await slot.lane.run({ ...task.job(kept), generation: task.generation, kept });
		} catch {
			this.#running.delete(task);
			slot.running--;
			// The lane is gone (its worker failed): its queue goes to the others, this task too.
			if (!slot.dead) {
				slot.dead = true;
				for (const [k, s] of this.#owner) if (s === slot) this.#owner.delete(k);
				this.#shared.unshift(...slot.queue);
				slot.queue = [];
			}
			if (task.generation === this.#generation) this.#shared.unshift(task);
			this.#pump();
			return;
		}
		this.#running.delete(task);
		slot.running--;
		this.#settle(slot, task, result);
		this.#pump();
	}

	/** A task's result: what the lane keeps now, and the answer (null when a cancel came first). */
	#settle(slot: LaneSlot, task: Task, result: LaneResult): void {
		for (const k of result.evicted) if (this.#owner.get(k) === slot) this.#owner.delete(k);
		if (result.cached) this.#owner.set(task.cacheKey, slot);
		else if (this.#owner.get(task.cacheKey) === slot) this.#owner.delete(task.cacheKey);
		if (result.missing) {
			// Sent without its bytes to a lane that had let it go: again, with them.
			void this.#start(slot, task);
			return;
		}
		task.resolve(task.generation === this.#generation ? result : null);
	}

	/** No lane left: the calling thread runs what is queued, one at a time. */
	#drainToFallback(): void {
		const lane = (this.#fallbackLane ??= this.#fallback());
		const tasks = this.#shared;
		this.#shared = [];
		this.#fallbackRun = this.#fallbackRun.then(async () => {
			for (const t of tasks) {
				const r = t.generation === this.#generation ? await lane.run({ ...t.job(false), generation: t.generation }).catch(() => null) : null;
				t.resolve(t.generation === this.#generation ? r : null);
			}
		});
	}
}
