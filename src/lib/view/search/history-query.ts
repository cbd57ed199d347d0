// History search's query side: which listed sessions a query can match, from their indexes'
// trigram filters (history-index.ts), and the run over those candidates with the existing scan.
// The plan takes the literals every match must contain (a regex gives its required runs, none
// under a top-level `|`), folds them with the index's key and asks each filter for their
// trigrams. A session the filter rules out is skipped; every other one is searched from its own
// source, so the answer is exactly runSearch's over all sessions. A query with no trigram (a
// regex without a literal, or under three characters) searches every session, and says so.
// Not SQLite FTS5: its trigram table took several times the text's size, far past the index's
// budget (0.25× the tree), and its folding is not V8's, so every answer would still need the
// matcher. A Bloom filter costs a byte per distinct trigram.
import { filterHas, foldKey, gramsOf, type GramFilter } from './history-index.ts';
import { foldDiacritics, type SearchOptions } from './query.ts';
import { runSearch, type HistoryRunInfo, type RunHooks, type SearchOutcome, type SearchRequest, type SearchSource } from './run.ts';


export interface HistoryPlan {
	/** Literal runs every match contains (under the query's own diacritic folding). */
	literals: string[];
	/** Trigram hashes a candidate's filter must hold; empty: every session is searched. */
	grams: number[];
	/** Why every session is searched (no trigram to filter on), else null. */
	scanAll: string | null;
}

/** What to filter a query on. */
export function planQuery(query: string, options: SearchOptions = {}): HistoryPlan {
	const body = options.ignoreDiacritics ? foldDiacritics(query) : query;
	const literals = options.regex ? regexLiterals(body) : [body];
	const grams = new Set<number>();
	for (const l of literals) gramsOf(foldKey(l), grams);
	const scanAll = grams.size
		? null
		: options.regex
			? 'This regular expression has no literal text of three or more characters to look up: every session is searched.'
			: 'Queries under three characters are not looked up: every session is searched.';
	return { literals, grams: [...grams], scanAll };
}

/** Literal runs a regular expression (`u` syntax, already validated) requires in every match. */
export function regexLiterals(src: string): string[] {
	const out: string[] = [];
	let run = '';
	const end = () => {
		if (run) out.push(run);
		run = '';
	};
	for (let i = 0; i < src.length; ) {
		const ch = src[i];
		let lit: string | null = null;
		let next: number;
		if (ch === '|') return []; // an alternative at the top: no one literal is required
		if (ch === '(') next = skipGroup(src, i);
		else if (ch === '[') next = skipClass(src, i);
		else if (ch === '\\') {
			const e = src[i + 1];
			if (e !== undefined && '^$\\.*+?()[]{}|/-'.includes(e)) {
				lit = e;
				next = i + 2;
			} else next = skipEscape(src, i);
		} else if (ch === '.' || ch === '^' || ch === '$') next = i + 1;
		else {
			const cp = src.codePointAt(i)!;
			lit = String.fromCodePoint(cp);
			next = i + lit.length;
		}
		const q = quantifier(src, next);
		if (lit === null || q.min === 0) end();
		else {
			run += lit;
			if (q.next !== next) end(); // repeated: what follows is not next to this run
		}
		i = q.next;
	}
	end();
	return out;
}

/** A quantifier at i: its least count (1 when there is none) and where it ends. */
function quantifier(src: string, i: number): { min: number; next: number } {
	const c = src[i];
	let min = 1;
	let next = i;
	if (c === '?' || c === '*') {
		min = 0;
		next = i + 1;
	} else if (c === '+') next = i + 1;
	else if (c === '{') {
		const m = /^\{(\d+)(,\d*)?\}/.exec(src.slice(i));
		if (!m) return { min, next };
		min = Number(m[1]);
		next = i + m[0].length;
	} else return { min, next };
	if (src[next] === '?') next++; // lazy
	return { min, next };
}

function skipEscape(src: string, i: number): number {
	const e = src[i + 1];
	if ((e === 'u' || e === 'p' || e === 'P') && src[i + 2] === '{') return src.indexOf('}', i) + 1 || src.length;
	if (e === 'u') return i + 6;
	if (e === 'x') return i + 4;
	if (e === 'c') return i + 3;
	if (e === 'k' && src[i + 2] === '<') return src.indexOf('>', i) + 1 || src.length;
	if (e !== undefined && e >= '0' && e <= '9') {
		let j = i + 1;
		while (j < src.length && src[j] >= '0' && src[j] <= '9') j++;
		return j;
	}
	return i + 2;
}

function skipClass(src: string, i: number): number {
	for (let j = i + 1; j < src.length; j++) {
		if (src[j] === '\\') j++;
		else if (src[j] === ']') return j + 1;
	}
	return src.length;
}

function skipGroup(src: string, i: number): number {
	let depth = 0;
	for (let j = i; j < src.length; j++) {
		const c = src[j];
		if (c === '\\') j++;
		else if (c === '[') j = skipClass(src, j) - 1;
		else if (c === '(') depth++;
		else if (c === ')' && --depth === 0) return j + 1;
	}
	return src.length;
}

/** One listed session as history search sees it: its index's filter when it has one, and how to
 *  search it (from its index's text, a lane that keeps it, or the scan). */
export interface HistorySession {
	key: string;
	filter: GramFilter | null;
	source: SearchSource;
}

/** The sources runSearch goes through: every session, a filtered-out one as a source that has nothing. */
export function historySources(plan: HistoryPlan, sessions: readonly HistorySession[]): { sources: SearchSource[]; info: HistoryRunInfo } {
	const info: HistoryRunInfo = { indexed: 0, candidates: 0, scanned: 0, scanAll: plan.scanAll };
	const sources = sessions.map((s) => {
		if (!s.filter) {
			info.scanned++;
			return s.source;
		}
		info.indexed++;
		if (plan.grams.length && !filterHas(s.filter, plan.grams)) return { key: s.key, fields: () => null };
		info.candidates++;
		return s.source;
	});
	return { sources, info };
}

/** A history search: the same outcome runSearch gives over every session, plus how it was answered. */
export async function runHistorySearch(req: SearchRequest, sessions: readonly HistorySession[], hooks: RunHooks): Promise<{ outcome: SearchOutcome; info: HistoryRunInfo }> {
	const { sources, info } = historySources(planQuery(req.query, req.options), sessions);
	return { outcome: await runSearch(req, sources, hooks), info };
}
