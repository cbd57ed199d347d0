// A set of 32-bit hashes in one typed array (open addressing, linear probing): the distinct
// trigram hashes of a session while its history search filter is built (history-index.ts). The
// pass adds one hash per character of a session's text (about 16 M per 60 MB of transcripts), so
// a JS Set<number> (an object per entry, hashing each number again) cost more than the rest of the
// pass together; here an add is a probe into a table that stays within the cache for a session.
// The hashes are already mixed, so their low bits index the table as they are. 0 marks an empty
// slot; the hash 0 itself is kept apart (`#zero`).

/** Anything a trigram hash can be added to (a Set<number> for a query's few, a GramSet for a session's many). */
export interface GramSink {
	add(h: number): unknown;
}

const MIN_SLOTS = 1024;

export class GramSet implements GramSink {
	#table: Uint32Array;
	#mask: number;
	#used = 0;
	#zero = false;
	/** The last hash added: a run of the same trigram (a row of spaces, of dashes) is one probe. */
	#last = -1;

	/** `expected`: about how many distinct hashes will come (the table grows past it anyway). */
	constructor(expected = 0) {
		let slots = MIN_SLOTS;
		while (slots < expected * 2) slots *= 2;
		this.#table = new Uint32Array(slots);
		this.#mask = slots - 1;
	}

	get size(): number {
		return this.#used + (this.#zero ? 1 : 0);
	}

	add(h: number): this {
		h >>>= 0;
		if (h === this.#last) return this;
		this.#last = h;
		if (h === 0) {
			this.#zero = true;
			return this;
		}
		const t = this.#table;
		const mask = this.#mask;
		for (let i = h & mask; ; i = (i + 1) & mask) {
			const v = t[i];
			if (v === h) return this;
			if (v === 0) {
				t[i] = h;
				// At most half full: probe runs stay short.
				if (++this.#used * 2 > mask) this.#grow();
				return this;
			}
		}
	}

	has(h: number): boolean {
		h >>>= 0;
		if (h === 0) return this.#zero;
		const t = this.#table;
		const mask = this.#mask;
		for (let i = h & mask; ; i = (i + 1) & mask) {
			const v = t[i];
			if (v === h) return true;
			if (v === 0) return false;
		}
	}

	/** The hashes, each once, in no particular order. */
	values(): Uint32Array {
		const out = new Uint32Array(this.size);
		let n = 0;
		const t = this.#table;
		for (let i = 0; i < t.length; i++) if (t[i] !== 0) out[n++] = t[i];
		if (this.#zero) out[n] = 0;
		return out;
	}

	#grow(): void {
		const old = this.#table;
		const t = new Uint32Array(old.length * 2);
		const mask = t.length - 1;
		for (let j = 0; j < old.length; j++) {
			const h = old[j];
			if (h === 0) continue;
			let i = h & mask;
			while (t[i] !== 0) i = (i + 1) & mask;
			t[i] = h;
		}
		this.#table = t;
		this.#mask = mask;
	}
}
