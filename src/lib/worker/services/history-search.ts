// History search on the engine's side: the search index of every listed session of a big drop
// (view/search/history-index.ts), kept here in memory (filter and compressed fields: a few % of the
// tree's bytes), and the sources a history-scoped query runs over (view/search/history-query.ts).
// The history index service (history.ts) builds each session's index in its lanes, in the same
// pass as its digest (view/history/entry.ts), and hands it over through put(), also for entries
// read back from its store; a replaced listing drops them all.
// An indexed session answers from its index (ruled out by its filter, or decoded in a lane instead
// of built); the rest are searched as the scan searches them, so the answer is the scan's. An index
// read back from the store comes without its text (store/history-index.ts keeps it apart): a query
// reads the texts of the sessions its filter keeps first (withTexts), so a rare string reads a few.
import type { ScannedSession } from '../../ingest/scan.ts';
import { filterHas, indexBytes, isSearchIndex, type SessionSearchIndex, type StoredSearchIndex } from '../../view/search/history-index.ts';
import { historySources, planQuery } from '../../view/search/history-query.ts';
import type { HistoryRunInfo, SearchRequest, SearchSource } from '../../view/search/run.ts';
import type { Listing } from './types.ts';

/** How much of the listing has a search index (`window.__loupe.historySearchStatus()`). */
export interface HistorySearchStatus {
	listed: number;
	indexed: number;
	/** Bytes of the indexes (filters and compressed fields) and of the listed sessions' files. */
	indexBytes: number;
	treeBytes: number;
	/** Characters of searchable text indexed. */
	chars: number;
}

/** Stored texts read at once by withTexts (one transaction each). */
const TEXT_CHUNK = 64;

export class HistorySearch {
	#catalog: Listing;
	#indexes = new Map<string, StoredSearchIndex>();
	#texts: (keys: string[]) => Promise<Map<string, Uint8Array>>;

	/** `texts`: the stored texts of these sessions' indexes (the history's store). */
	constructor(catalog: Listing, texts: (keys: string[]) => Promise<Map<string, Uint8Array>> = async () => new Map()) {
		this.#catalog = catalog;
		this.#texts = texts;
		// A replaced listing takes its sessions' indexes with it (a re-drop builds them again).
		catalog.onChange((change) => {
			if (change === 'listing') this.#indexes.clear();
		});
	}

	/** A session's index from elsewhere (the history service's stored entry); a stale one is
	 *  ignored, null forgets the session (its root was cleared). */
	put(key: string, index: unknown): void {
		if (index === null) this.#indexes.delete(key);
		else if (isSearchIndex(index)) this.#indexes.set(key, index);
	}

	/** Every session with an index: with no tree dropped, the stored history read back. */
	keys(): string[] {
		return [...this.#indexes.keys()];
	}

	get size(): number {
		return this.#indexes.size;
	}

	/** A session's index with its text (undefined: none, or its text not read yet: withTexts). */
	get(key: string): SessionSearchIndex | undefined {
		const index = this.#indexes.get(key);
		return index?.text ? (index as SessionSearchIndex) : undefined;
	}

	/** Reads the stored texts of the indexes among `keys` that a query over `query` cannot rule out
	 *  (all of them without a query), a chunk at a time, while `current()` holds. An index whose
	 *  text is gone is forgotten: its session is searched as one without an index. */
	async withTexts(keys: readonly string[], query: { query: string; options?: SearchRequest['options'] } | null, current: () => boolean = () => true): Promise<void> {
		const grams = query ? planQuery(query.query, query.options).grams : [];
		const missing = keys.filter((k) => {
			const index = this.#indexes.get(k);
			return index && !index.text && (!grams.length || filterHas(index.filter, grams));
		});
		for (let i = 0; i < missing.length && current(); i += TEXT_CHUNK) {
			const chunk = missing.slice(i, i + TEXT_CHUNK);
			const texts = await this.#texts(chunk);
			for (const k of chunk) {
				const index = this.#indexes.get(k);
				if (!index || index.text) continue;
				const text = texts.get(k);
				if (text) index.text = text;
				else this.#indexes.delete(k);
			}
		}
	}

	status(): HistorySearchStatus {
		const listedSessions: { key: string; bytes: number }[] = this.#catalog.sessions();
		// No tree dropped: the stored history's sessions are what is listed.
		if (!listedSessions.length) for (const key of this.#indexes.keys()) listedSessions.push({ key, bytes: 0 });
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
		return { listed, indexed, indexBytes: bytes, treeBytes, chars };
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
				// A text not read (withTexts: its filter rules the session out) is never searched.
				const withText = index?.text ? (index as SessionSearchIndex) : null;
				return { key, filter: index?.filter ?? null, source: (withText && fromIndex(key, withText)) || scanSource(key) };
			})
		);
	}
}
