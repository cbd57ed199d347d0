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

/** Hashes as they come, repeats kept, in a growing Uint32Array: a session's word trigrams. They
 *  are nearly all distinct from each other's neighbours in the text and many (480 k in the
 *  generated tree's largest session, against 3 k character trigrams), so a table of them all is
 *  larger than the caches and each add a miss; the filter takes them as they are (setting a bit
 *  twice is setting it once), sized by distinctEstimate(). */
export class GramList implements GramSink {
	#list = new Uint32Array(1024);
	length = 0;

	add(h: number): this {
		if (this.length === this.#list.length) {
			const next = new Uint32Array(this.#list.length * 2);
			next.set(this.#list);
			this.#list = next;
		}
		this.#list[this.length++] = h;
		return this;
	}

	/** The hashes added (a view: valid until the next add). */
	values(): Uint32Array {
		return this.#list.subarray(0, this.length);
	}

	/** How many distinct hashes: exact up to EXACT_UP_TO added, else counted in the sixteenth of
	 *  them whose top four bits are 0 (a table 1/16 the size; within a few % for the sizes that
	 *  get here, and an estimate a little low only costs a few more false positives). Counting a
	 *  typical session's ~19 k word trigrams exactly was 5 % of the history pass. */
	distinctEstimate(): number {
		const all = this.values();
		const set = new GramSet(Math.min(all.length, EXACT_UP_TO) / 4);
		if (all.length <= EXACT_UP_TO) {
			for (let i = 0; i < all.length; i++) set.add(all[i]);
			return set.size;
		}
		for (let i = 0; i < all.length; i++) if (all[i] >>> 28 === 0) set.add(all[i]);
		return set.size * 16;
	}
}

const EXACT_UP_TO = 1 << 12;
