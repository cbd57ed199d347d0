// What one search lane does with one session: find its searchable text in the lane's own cache
// or build it (the session's files → the model → chat rows → fields, the path the engine takes
// for a session it builds), then run the query over all of it and send back only the hits and
// the count. A lane is a search worker (worker/search.worker.ts) or, where workers cannot start
// (Node, tests), the engine's own thread; both run this function, so they find the same hits.
// A session with a history search index is decoded from it instead of built (history-index.ts)
// and kept resident in the lane that decoded it, within its own budget (`residentChars`): the
// pool sends that session's next queries back here without its bytes (pool.ts), in batches, so
// a broad history query costs a scan of kept text, not a decode per session per query.
import { loadListed, type ListedRef } from '../../ingest/listed.ts';
import type { InputFile, LoadedSession } from '../../ingest/types.ts';
import { buildChatRows } from '../chat/index.ts';
import { SessionTextCache, textChars } from './cache.ts';
import { fieldsOfRows, type SearchField } from './fields.ts';
import { fieldsOfIndexText } from './history-index.ts';
import { compileQuery, type Matcher, type SearchOptions } from './query.ts';
import { scanFields, type SearchHit, type SearchScope } from './scan.ts';

export interface LaneJob {
	/** The lane's cache key: the session's key, qualified by the load it belongs to. */
	cacheKey: string;
	/** The session key the hits carry. */
	key: string;
	files: InputFile[];
	/** The listed session of a big drop these files hold (picked from them as the engine picks it). */
	listed: ListedRef;
	query: string;
	options?: SearchOptions;
	scope?: SearchScope;
	/** Most hits with snippets wanted from this session (the count goes on past it). */
	maxHits: number;
	/** Also name the atom of every matching field (SearchRequest.ids). */
	ids?: boolean;
	/** The pool's query generation: a lane skips a waiting job older than its last skipBefore(). */
	generation: number;
	/** The pool sends this session to the lane that reported keeping its text: nothing to read ahead. */
	kept?: boolean;
	/** The session's indexed fields (SessionSearchIndex.text): decoded instead of building the session. */
	indexText?: Uint8Array;
	/** Decoded from its index: indexText is left out when the lane reported keeping the text. */
	indexed?: boolean;
}

export interface LaneResult {
	/** False: the session could not be read or built (it is skipped, as the engine skips it). */
	ok: boolean;
	hits: SearchHit[];
	counted: number;
	/** With job.ids: the atom of every matching field. */
	ids?: string[];
	/** The lane keeps this session's text now (the pool routes its next query here). */
	cached: boolean;
	/** Cache keys the lane dropped to stay within its budget. */
	evicted: string[];
	/** Time the lane spent on this session (build and scan), ms. */
	ms: number;
	/** The job came without its index text for a session the lane no longer keeps: send it again with it. */
	missing?: boolean;
}

/** Each search lane runs jobs one after another through this. */
export interface SearchLane {
	run(job: LaneJob): Promise<LaneResult>;
	/** Several jobs of one query, in the query's session order, in one round trip (kept sessions,
	 *  sessions decoded from their index: each is a short scan or decode, where a message per
	 *  session would cost more than the work). */
	runBatch?(jobs: LaneJob[]): Promise<LaneResult[]>;
	/** Jobs of an older generation still waiting in the lane are skipped (a newer query replaced them). */
	skipBefore?(generation: number): void;
	/** Forgets the kept text (a new drop replaced the sessions). */
	clear?(): void;
	dispose?(): void;
}

/** A session's searchable text, as every search builds it: its chat rows' fields. */
export function fieldsOfLoaded(loaded: LoadedSession): SearchField[] {
	return fieldsOfRows(buildChatRows(loaded.result.session, loaded.children, { metadata: loaded.result.metadata }));
}

/** The state of one lane: its bounded text cache, the last query it compiled, the jobs waiting. */
export class LaneState {
	readonly cache: SessionTextCache;
	/** Sessions decoded from their history search index, kept while there is room (never evicted:
	 *  a history query goes through every session in the same order, and an LRU under such a scan
	 *  would keep nothing the next query needs). */
	readonly resident: SessionTextCache;
	#evicted: string[] = [];
	#compiled: { sig: string; matcher: Matcher | null } = { sig: '', matcher: null };
	/** Jobs run one after another (one build in memory at a time); this is the last one's end. */
	#tail: Promise<unknown> = Promise.resolve();
	#skipBefore = 0;

	/** The resident text is let go after this long without a job (ms; 0: kept until cleared): it is
	 *  hundreds of MB for a big history, worth its memory while someone searches, not for the rest
	 *  of the visit. The pool still routes those sessions here; the lane answers `missing` and gets
	 *  their bytes again. */
	#residentIdleMs: number;
	#idleTimer: ReturnType<typeof setTimeout> | null = null;
	#lastJobAt = 0;

	constructor(maxChars: number, residentChars = maxChars, residentIdleMs = 0) {
		this.cache = new SessionTextCache(maxChars, (k) => this.#evicted.push(k));
		this.resident = new SessionTextCache(residentChars);
		this.#residentIdleMs = residentIdleMs;
	}

	/** A job came: the resident text's idle clock starts again when it is done. One timer at a
	 *  time, re-armed for what is left when it fires: a history's first query ran ~1,500 jobs per
	 *  lane, and clearing and setting a timer for each was 211 ms of a lane's time (a 2.4 s query,
	 *  Chromium's CPU profile of the lane). */
	#touch(): void {
		if (!this.#residentIdleMs) return;
		this.#lastJobAt = performance.now();
		if (this.#idleTimer === null) this.#armIdle(this.#residentIdleMs);
	}

	#armIdle(ms: number): void {
		this.#idleTimer = setTimeout(() => {
			const idle = performance.now() - this.#lastJobAt;
			if (idle < this.#residentIdleMs) return this.#armIdle(this.#residentIdleMs - idle);
			this.#idleTimer = null;
			this.resident.clear();
		}, ms);
	}

	/** Jobs in the query's session order: each one's hit budget less the hits the ones before it
	 *  found (those come first in the answer, so the cut is the one the run makes anyway). */
	async runBatch(jobs: LaneJob[]): Promise<LaneResult[]> {
		const out: LaneResult[] = [];
		let used = 0;
		for (const job of jobs) {
			const r = await this.run({ ...job, maxHits: Math.max(0, job.maxHits - used) });
			used += r.hits.length;
			out.push(r);
		}
		return out;
	}

	#kept(cacheKey: string) {
		return this.cache.get(cacheKey) ?? this.resident.get(cacheKey);
	}

	run(job: LaneJob): Promise<LaneResult> {
		// The job's files are read now, while the job before it builds (the pool sends a lane its next
		// job early for this), unless they came read already (a worker lane's files are read on the
		// engine's thread: search-pool.ts). The lane's thread then never waits on a read.
		const read = job.generation < this.#skipBefore || this.#kept(job.cacheKey) || job.indexed || job.indexText ? null : readAhead(job.files);
		const done = this.#tail.then(() => (job.generation < this.#skipBefore ? this.#skipped() : this.#run(job, read)));
		this.#tail = done.catch(() => undefined);
		void done.finally(() => this.#touch()).catch(() => undefined);
		return done;
	}

	skipBefore(generation: number): void {
		this.#skipBefore = Math.max(this.#skipBefore, generation);
	}

	clear(): void {
		this.cache.clear();
		this.resident.clear();
		this.#evicted = [];
	}

	#skipped(): LaneResult {
		return { ok: false, hits: [], counted: 0, cached: false, evicted: this.#takeEvicted(), ms: 0 };
	}

	async #run(job: LaneJob, read: Promise<InputFile[] | null> | null): Promise<LaneResult> {
		const started = performance.now();
		const matcher = this.#matcher(job);
		const indexed = job.indexed || job.indexText !== undefined;
		let text = this.#kept(job.cacheKey);
		if (!text) {
			if (indexed && !job.indexText) return { ok: false, missing: true, hits: [], counted: 0, cached: false, evicted: this.#takeEvicted(), ms: 0 };
			const fields = job.indexText ? decodedOrNull(job.indexText) : await loadListed(job.listed, (await read) ?? job.files).then((l) => (l ? fieldsOfLoaded(l) : null), () => null);
			if (!fields) return { ok: false, hits: [], counted: 0, cached: false, evicted: this.#takeEvicted(), ms: performance.now() - started };
			// A session decoded from its index is kept while the resident budget has room, never
			// evicted; a session built from its files goes to the LRU as before (costly to build).
			text = indexed ? (this.resident.chars + textChars(fields) > this.resident.maxChars ? { fields, folded: [], chars: 0 } : this.resident.set(job.cacheKey, fields)) : this.cache.set(job.cacheKey, fields);
		}
		// A query that does not compile never reaches a lane (the run reports it first).
		const ids = job.ids ? [] : undefined;
		const { hits, counted } = matcher ? scanFields(text.fields, 0, text.fields.length, matcher, job.scope, job.key, job.maxHits, text.folded, ids) : { hits: [], counted: 0 };
		return { ok: true, hits, counted, ids, cached: this.#kept(job.cacheKey) !== undefined, evicted: this.#takeEvicted(), ms: performance.now() - started };
	}

	#matcher(job: LaneJob): Matcher | null {
		const sig = JSON.stringify([job.query, job.options ?? null]);
		if (this.#compiled.sig !== sig) {
			const c = compileQuery(job.query, job.options);
			this.#compiled = { sig, matcher: c.ok ? c.matcher : null };
		}
		return this.#compiled.matcher;
	}

	#takeEvicted(): string[] {
		const out = this.#evicted;
		this.#evicted = [];
		return out;
	}
}

/** A session's fields from its index text, or null for bytes that are not one (skipped, as a build that fails). */
function decodedOrNull(text: Uint8Array): SearchField[] | null {
	try {
		return fieldsOfIndexText(text);
	} catch {
		return null;
	}
}

/** Sessions larger than this are streamed when their turn comes instead (a read-ahead holds its bytes whole). */
export const READ_AHEAD_MAX_BYTES = 32 * 1024 * 1024;

/** The files with their bytes, read whole and side by side; null when too big or a read failed
 *  (the build then reads the blobs itself, and reports a file that cannot be read as before). */
export function readAhead(files: InputFile[]): Promise<InputFile[] | null> | null {
	if (files.every((f) => f.bytes)) return Promise.resolve(files);
	if (files.reduce((n, f) => n + f.blob.size, 0) > READ_AHEAD_MAX_BYTES) return null;
	return Promise.all(files.map(async (f) => ({ ...f, bytes: new Uint8Array(await f.blob.arrayBuffer()) }))).catch(() => null);
}

/** A lane on the calling thread (no workers: Node, tests, a browser that cannot nest them). */
export class LocalLane implements SearchLane {
	readonly state: LaneState;
	constructor(maxChars: number, residentChars = maxChars, residentIdleMs = 0) {
		this.state = new LaneState(maxChars, residentChars, residentIdleMs);
	}
	run(job: LaneJob): Promise<LaneResult> {
		return this.state.run(job);
	}
	runBatch(jobs: LaneJob[]): Promise<LaneResult[]> {
		return this.state.runBatch(jobs);
	}
	skipBefore(generation: number): void {
		this.state.skipBefore(generation);
	}
	clear(): void {
		this.state.clear();
	}
}
