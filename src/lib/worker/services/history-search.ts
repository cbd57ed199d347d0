// History search on the engine's side: the search index of every listed session of a big drop
// (view/search/history-index.ts), kept here in memory (filter and deflated fields: a few % of the
// tree's bytes), and the sources a history-scoped query runs over (view/search/history-query.ts).
// Until the history index service (issue 21) hands its entries' `search` over through put(),
// this builds the indexes itself, in the search pool's lanes (indexInPool), a few at a time, in
// the background; a search cancels what the lanes hold and this picks it up again afterwards.
// An indexed session answers from its index (ruled out by its filter, or decoded in a lane instead
// of built); the rest are searched as the scan searches them, so the answer is the scan's.
import type { ScannedSession } from '../../ingest/scan.ts';
import { indexBytes, isSearchIndex, type SessionSearchIndex } from '../../view/search/history-index.ts';
import { historySources, planQuery } from '../../view/search/history-query.ts';
import type { LaneJob, LaneResult } from '../../view/search/lane.ts';
import type { HistoryRunInfo, SearchRequest, SearchSource } from '../../view/search/run.ts';
import type { Listing } from './types.ts';

/** How far the history's search index has come (`window.__loupe.historySearchStatus()`). */
export interface HistorySearchStatus {
	listed: number;
	indexed: number;
	failed: number;
	/** Bytes of the indexes (filters and deflated fields) and of the listed sessions' files. */
	indexBytes: number;
	treeBytes: number;
	/** Characters of searchable text indexed. */
	chars: number;
	ms: number;
	ready: boolean;
}

/** Runs one lane job (in the pool, or on this thread): null when a search cancelled it. */
export type RunJob = (job: Omit<LaneJob, 'generation'>, size: number) => Promise<LaneResult | null>;

/** Jobs in flight while indexing (the pool has two lanes; one waiting each keeps them busy). */
const IN_FLIGHT = 4;

export class HistorySearch {
	#catalog: Listing;
	#indexes = new Map<string, SessionSearchIndex>();
	#failed = new Set<string>();
	#generation = 0;
	#running: Promise<HistorySearchStatus> | null = null;
	#started = 0;
	#ms = 0;

	constructor(catalog: Listing) {
		this.#catalog = catalog;
		// A replaced listing takes its sessions' indexes with it (a re-drop builds them again).
		catalog.onChange((change) => {
			if (change !== 'listing') return;
			this.#generation++;
			this.#indexes.clear();
			this.#failed.clear();
			this.#running = null;
			this.#ms = 0;
		});
	}

	/** A session's index from elsewhere (the history service's stored entry); a stale one is ignored. */
	put(key: string, index: unknown): void {
		if (isSearchIndex(index)) this.#indexes.set(key, index);
	}

	get(key: string): SessionSearchIndex | undefined {
		return this.#indexes.get(key);
	}

	status(): HistorySearchStatus {
		const listedSessions = this.#catalog.sessions();
		let bytes = 0;
		let chars = 0;
		let treeBytes = 0;
		let indexed = 0;
		for (const s of listedSessions) {
			treeBytes += s.bytes;
			const idx = this.#indexes.get(s.key);
			if (!idx) continue;
			indexed++;
			bytes += indexBytes(idx);
			chars += idx.chars;
		}
		const listed = listedSessions.length;
		const failed = this.#failed.size;
		return { listed, indexed, failed, indexBytes: bytes, treeBytes, chars, ms: this.#running ? this.#ms || performance.now() - this.#started : this.#ms, ready: listed > 0 && indexed + failed >= listed };
	}

	/** Indexes every listed session not indexed yet; resolves when all are (or failed). */
	indexAll(run: RunJob): Promise<HistorySearchStatus> {
		this.#running ??= this.#indexAll(run);
		return this.#running;
	}

	async #indexAll(run: RunJob): Promise<HistorySearchStatus> {
		const generation = this.#generation;
		const catalog = this.#catalog;
		this.#started = performance.now();
		let todo = catalog.sessions().filter((s) => !this.#indexes.has(s.key));
		while (todo.length && generation === this.#generation) {
			const again: ScannedSession[] = [];
			let at = 0;
			const worker = async () => {
				while (at < todo.length && generation === this.#generation) {
					const s = todo[at++];
					const r = await run({ cacheKey: `${catalog.generation}:${s.key}`, key: s.key, files: catalog.listedFiles(s), listed: s, query: '', maxHits: 0, buildIndex: true }, s.bytes);
					if (generation !== this.#generation) return;
					if (!r) again.push(s); // a search took the lanes: indexed after it
					else if (r.ok && r.index) this.#indexes.set(s.key, r.index);
					else this.#failed.add(s.key);
				}
			};
			await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
			// Back off while searches keep cancelling (a search is typed): they go first.
			if (again.length) await new Promise((r) => setTimeout(r, 50));
			todo = again;
		}
		if (generation === this.#generation) this.#ms = performance.now() - this.#started;
		return this.status();
	}

	/** The sources of a history-scoped query over `keys` (in the scan's order): an indexed session
	 *  its filter rules out searches nothing; an indexed candidate is decoded from its index
	 *  (`fromIndex`) unless the caller has its text already; the rest are the scan's sources. */
	sources(
		request: SearchRequest,
		keys: readonly string[],
		scanSource: (key: string) => SearchSource,
		fromIndex: (key: string, index: SessionSearchIndex) => SearchSource | null
	): { sources: SearchSource[]; info: HistoryRunInfo } {
		const plan = planQuery(request.query, request.options);
		return historySources(
			plan,
			keys.map((key) => {
				const index = this.#indexes.get(key);
				return { key, filter: index?.filter ?? null, source: (index && fromIndex(key, index)) || scanSource(key) };
			})
		);
	}
}
