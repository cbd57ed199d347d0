// A least-recently-used map bounded by bytes, for built sessions: a built session is many times
// the size of its files, so only the open one and a few recent ones stay built; the rest are
// rebuilt from their File handles when asked for. The most recent `keep` entries stay even when
// they alone exceed the budget (the open session is never evicted from under the page).

export class ByteLru<V> {
	#map = new Map<string, { value: V; bytes: number }>();
	#bytes = 0;
	readonly budget: number;
	readonly keep: number;
	/** Called with each evicted key (for logging / tests). */
	onEvict?: (key: string) => void;

	constructor(budget: number, keep = 1) {
		this.budget = budget;
		this.keep = keep;
	}

	get bytes(): number {
		return this.#bytes;
	}

	get size(): number {
		return this.#map.size;
	}

	has(key: string): boolean {
		return this.#map.has(key);
	}

	/** The value, marked most recently used. */
	get(key: string): V | undefined {
		const hit = this.#map.get(key);
		if (!hit) return undefined;
		this.#map.delete(key);
		this.#map.set(key, hit);
		return hit.value;
	}

	set(key: string, value: V, bytes: number): void {
		this.delete(key);
		this.#map.set(key, { value, bytes });
		this.#bytes += bytes;
		this.#evict();
	}

	delete(key: string): boolean {
		const hit = this.#map.get(key);
		if (!hit) return false;
		this.#map.delete(key);
		this.#bytes -= hit.bytes;
		return true;
	}

	clear(): void {
		this.#map.clear();
		this.#bytes = 0;
	}

	/** Keys, least recently used first. */
	keys(): string[] {
		return [...this.#map.keys()];
	}

	#evict(): void {
		// Map iteration order is insertion order, and get() re-inserts: the first key is the oldest.
		for (const key of this.#map.keys()) {
			if (this.#bytes <= this.budget || this.#map.size <= this.keep) return;
			this.delete(key);
			this.onEvict?.(key);
		}
	}
}
