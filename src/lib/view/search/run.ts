// One search over several sessions, progressively: the fields of each session are scanned in
// time slices; after each slice the hits found so far go to `onBatch`, and the caller's `pause`
// lets the event loop run (in the worker, that is where a newer query's message arrives) before
// `cancelled` is asked whether to go on. Sessions are asked for their fields one at a time, so a
// session that has to be built first costs nothing until the scan reaches it.
// A source may instead be searched elsewhere (`scan`: a search worker of the pool, pool.ts). All
// of those start at once and finish in any order; the run still takes every session's result in
// the sources' order (the later ones wait in their slots), so the hits, the count and which hits
// fall within maxHits are exactly those of a search that went through the sessions one by one.
import type { SearchField } from './fields.ts';
import { compileQuery, type SearchOptions } from './query.ts';
import { scanFields, type FoldedTexts, type SearchHit, type SearchScope } from './scan.ts';

export interface SearchRequest {
	query: string;
	options?: SearchOptions;
	scope?: SearchScope;
	/** Most hits returned with snippets (the count goes on past it). */
	maxHits?: number;
	/** The caller keeps the streamed batches: the outcome carries the count only (half the copying). */
	streamOnly?: boolean;
	/** The outcome also names the atom of every matching field, past maxHits too (the automation
	 *  hook's answer): ids cost a string each, where a hit with its snippet costs far more to make
	 *  and to copy between threads. */
	ids?: boolean;
	/** History scope: sessions with a history search index answer from it (history-query.ts). */
	history?: boolean;
}

/** How a history-scoped search was answered (the line under its results). */
export interface HistoryRunInfo {
	/** Sessions answered from their index (filtered), and how many of those were candidates. */
	indexed: number;
	candidates: number;
	/** Sessions with no index yet (searched by the scan). */
	scanned: number;
	/** Why every session was searched (no trigram to filter on), else null. */
	scanAll: string | null;
}

/** The atoms of every matching field of one session, in reading order. */
export interface SessionIds {
	sessionKey: string;
	atomUuids: string[];
}

export interface SearchSource {
	key: string;
	/** The session's fields (may build the session) and its cache of folded texts. */
	fields: () => { fields: readonly SearchField[]; folded: FoldedTexts } | null | Promise<{ fields: readonly SearchField[]; folded: FoldedTexts } | null>;
	/** Searched elsewhere instead: the session's hits (at most `budget()` of them, asked when its
	 *  search starts) and its count; null skips it (unreadable, or dropped by a cancel). */
	scan?: (budget: () => number) => Promise<ScannedSource | null>;
}

/** One session's result from a search run elsewhere (a pool lane). */
export interface ScannedSource {
	hits: SearchHit[];
	counted: number;
	/** With request.ids: the atom of every matching field. */
	ids?: string[];
	/** Time spent on it there, ms. */
	ms: number;
}

export interface SearchBatch {
	/** Hits new since the previous batch. */
	hits: SearchHit[];
	/** Matching fields so far (all of them, also past maxHits). */
	total: number;
	sessionsDone: number;
	sessionsTotal: number;
	done: boolean;
}

export type SearchOutcome =
	| { ok: true; total: number; hits: SearchHit[]; /** With request.ids, per session that matched. */ ids?: SessionIds[]; truncated: boolean; sessions: number; ms: number; firstMs: number | null; /** Sessions searched elsewhere (by the search workers), and the time spent on them there (summed: over the wall time, how many ran at once). */ pooled: number; pooledMs: number; /** History scope: how it was answered. */ history?: HistoryRunInfo }
	| { ok: false; cancelled: boolean; error: string };

export interface RunHooks {
	cancelled: () => boolean;
	pause: () => Promise<void>;
	onBatch?: (b: SearchBatch) => void;
	now?: () => number;
}

export const DEFAULT_MAX_HITS = 1000;
/** Work per slice before the scan yields (ms): short enough for a keystroke to cut in. */
const SLICE_MS = 8;
const SLICE_FIELDS = 64;
/** After the first hits, batches go out at most this often (each one re-renders the page's list). */
const BATCH_MS = 60;
/** The first batch goes out as soon as it fills the results panel's first page. */
const FIRST_BATCH_HITS = 40;

export async function runSearch(req: SearchRequest, sources: readonly SearchSource[], hooks: RunHooks): Promise<SearchOutcome> {
	const now = hooks.now ?? (() => performance.now());
	const started = now();
	const compiled = compileQuery(req.query, req.options);
	if (!compiled.ok) return { ok: false, cancelled: false, error: compiled.error };
	const m = compiled.matcher;
	const maxHits = req.maxHits ?? DEFAULT_MAX_HITS;
	const all: SearchHit[] = [];
	const ids: SessionIds[] | undefined = req.ids ? [] : undefined;
	let total = 0;
	let firstMs: number | null = null;
	let pending: SearchHit[] = [];
	let sliceStart = now();
	let lastBatch = -Infinity;
	const flush = (sessionsDone: number, done: boolean) => {
		const t = now();
		if (pending.length && firstMs === null) firstMs = t - started;
		hooks.onBatch?.({ hits: pending, total, sessionsDone, sessionsTotal: sources.length, done });
		pending = [];
		lastBatch = t;
	};
	// Sessions searched elsewhere all start now; each one's hit budget is what is left when it starts.
	let pooled = 0;
	let pooledMs = 0;
	const remote = sources.map((src) => src.scan?.(() => Math.max(0, maxHits - all.length)) ?? null);
	for (let s = 0; s < sources.length; s++) {
		const away = remote[s];
		if (away) {
			// Hits found so far go out before waiting on a session still being searched.
			if (pending.length && (firstMs === null || now() - lastBatch >= BATCH_MS)) flush(s, false);
			const r = await away;
			if (hooks.cancelled()) return cancelled();
			if (!r) continue;
			pooled++;
			pooledMs += r.ms;
			total += r.counted;
			if (ids && r.ids?.length) ids.push({ sessionKey: sources[s].key, atomUuids: r.ids });
			// A session's hits are its first matching fields, so cutting them at what is left gives the sequential cut.
			// (One by one, not spread: a big session's hits could pass the arguments limit.)
			const take = Math.min(r.hits.length, maxHits - all.length);
			for (let i = 0; i < take; i++) {
				all.push(r.hits[i]);
				pending.push(r.hits[i]);
			}
			const t = now();
			if ((firstMs === null && pending.length >= FIRST_BATCH_HITS) || t - lastBatch >= BATCH_MS) flush(s + 1, false);
			if (t - sliceStart >= SLICE_MS) {
				await hooks.pause();
				if (hooks.cancelled()) return cancelled();
				sliceStart = now();
			}
			continue;
		}
		const data = await sources[s].fields();
		if (hooks.cancelled()) return cancelled();
		if (!data) continue;
		const { fields, folded } = data;
		const sessionIds: string[] | undefined = ids ? [] : undefined;
		for (let i = 0; i < fields.length; i += SLICE_FIELDS) {
			const { hits, counted } = scanFields(fields, i, i + SLICE_FIELDS, m, req.scope, sources[s].key, maxHits - all.length, folded, sessionIds);
			total += counted;
			all.push(...hits);
			pending.push(...hits);
			if (firstMs === null && pending.length >= FIRST_BATCH_HITS) flush(s, false);
			const t = now();
			if (t - sliceStart >= SLICE_MS) {
				// The first hits go out at once; later ones gather, so the page re-renders less.
				if ((firstMs === null && pending.length) || t - lastBatch >= BATCH_MS) flush(s, false);
				await hooks.pause();
				if (hooks.cancelled()) return cancelled();
				sliceStart = now();
			}
		}
		if (ids && sessionIds?.length) ids.push({ sessionKey: sources[s].key, atomUuids: sessionIds });
	}
	flush(sources.length, true);
	return { ok: true, total, hits: req.streamOnly ? [] : all, ids, truncated: total > all.length, sessions: sources.length, ms: now() - started, firstMs: firstMs ?? now() - started, pooled, pooledMs };
}

function cancelled(): SearchOutcome {
	return { ok: false, cancelled: true, error: 'A newer search replaced this one.' };
}
