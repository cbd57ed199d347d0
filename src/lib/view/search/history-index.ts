// A listed session's search index for history search: built once from its fields (lane.ts
// fieldsOfLoaded) in the history pass, persisted in its HistoryEntry, structured-cloneable.
// Two parts, so a caller can keep the small one in memory and read the big one only when needed:
// - `filter`: a Bloom filter of the trigrams of the session's text under a fold key (case and
//   diacritics folded, per code point). A query's literal can only match a session whose filter
//   holds all of the literal's trigrams; no false negatives, a few false positives.
// - `text`: the fields themselves (text and landing data), deflated (history-text.ts: a format
//   made to decode fast). Candidates are verified by the existing scan over these fields, so
//   hits, snippets and counts are the scan's own.
// Measured against SQLite FTS5 (trigram tokenizer) before choosing: see history-query.ts.
import type { SearchField } from './fields.ts';
import { decodeFields, encodeFields } from './history-text.ts';
import { foldDiacritics } from './query.ts';

export interface GramFilter {
	/** Bloom bits (little-endian words). */
	bits: Uint32Array;
	/** Hash probes per trigram. */
	k: number;
}

export interface SessionSearchIndex {
	/** Format version: an index of another version is rebuilt, never read. */
	v: number;
	filter: GramFilter;
	/** The fields, encoded and deflated by history-text.ts. */
	text: Uint8Array;
	fields: number;
	chars: number;
}

/** 2: `text` in history-text.ts's format (1 was the fields' JSON). */
export const SEARCH_INDEX_VERSION = 2;
/** Filter bits per distinct entry (about 2 % false positives per entry with k = 5). */
const BITS_PER_GRAM = 8;
const PROBES = 5;

const MARKS = /\p{M}+/gu;
const keyCache = new Map<number, string>();

/** The fold key of one code point: a case fold that maps every case variant V8's `iu` RegExp
 *  treats as equal to one form (checked for every cased code point in history-index.test.ts),
 *  then canonical decomposition without marks. Over-merging costs a false positive only; a
 *  case variant with another key would lose a session, so the test holds it to the engine. */
function keyOf(cp: number): string {
	let k = keyCache.get(cp);
	if (k !== undefined) return k;
	k = fold1(String.fromCodePoint(cp)).normalize('NFD').replace(MARKS, '');
	keyCache.set(cp, k);
	return k;
}

function single(s: string): boolean {
	const cp = s.codePointAt(0)!;
	return s.length === (cp > 0xffff ? 2 : 1);
}

/** Case variants toLowerCase / toUpperCase do not bring together (simple case folding does). */
const IRREGULAR = new Map<string, string>([['\ufb05', '\ufb06']]);

function fold1(ch: string): string {
	const irregular = IRREGULAR.get(ch);
	if (irregular) return irregular;
	const u = ch.toUpperCase();
	if (single(u)) {
		const ul = u.toLowerCase();
		if (single(ul)) return ul;
	}
	const l = ch.toLowerCase();
	return single(l) ? l : ch;
}

/** The text under the fold key (what the filter's trigrams are taken from). */
export function foldKey(text: string): string {
	let out = '';
	let run = 0;
	// ASCII runs are lower-cased in one call (the common case); other code points one by one.
	for (let i = 0; i < text.length; ) {
		const c = text.charCodeAt(i);
		if (c < 0x80) {
			i++;
			continue;
		}
		if (i > run) out += text.slice(run, i).toLowerCase();
		const cp = text.codePointAt(i)!;
		out += keyOf(cp);
		i += cp > 0xffff ? 2 : 1;
		run = i;
	}
	return out + text.slice(run).toLowerCase();
}

/** A trigram's hash from three UTF-16 code units of folded text. */
function gramHash(a: number, b: number, c: number): number {
	let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
	h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
	h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
	return (h ^ (h >>> 15)) >>> 0;
}

/** Distinct trigram hashes of folded text (foldKey), added to `into`; also its word trigrams
 *  (gramsOfWords). `whole`: the text is a whole field, so its first and last words are whole;
 *  a query's literal may start and end inside words, so only the words it has whole count. */
export function gramsOf(folded: string, into: Set<number>, whole = false): Set<number> {
	for (let i = 0; i + 2 < folded.length; i++) into.add(gramHash(folded.charCodeAt(i), folded.charCodeAt(i + 1), folded.charCodeAt(i + 2)));
	return gramsOfWords(folded, into, whole);
}

/** A code unit of a word, for word trigrams: ASCII letters, digits, _ and anything past ASCII. */
function wordUnit(c: number): boolean {
	return c >= 0x80 || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || (c >= 0x41 && c <= 0x5a);
}

const WORD_SALT = 0x2545f491;

/** Hashes of three consecutive whole words. Character trigrams cannot tell a phrase from its words
 *  shuffled (a small vocabulary has every trigram in every session); three words in a row can,
 *  at about one filter entry per word. A literal's whole words are runs bounded inside it by
 *  non-word units, so in any text it matches they are consecutive whole words too. */
function gramsOfWords(folded: string, into: Set<number>, whole: boolean): Set<number> {
	let h1 = 0;
	let h2 = 0;
	let seen = 0;
	for (let i = 0; i < folded.length; ) {
		if (!wordUnit(folded.charCodeAt(i))) {
			i++;
			continue;
		}
		const start = i;
		let h = 0x811c9dc5;
		while (i < folded.length && wordUnit(folded.charCodeAt(i))) h = Math.imul(h ^ folded.charCodeAt(i++), 0x01000193);
		// A word touching the literal's edge may be part of a longer one in the text.
		if (!whole && (start === 0 || i === folded.length)) continue;
		if (++seen >= 3) into.add(gramHash(h1 ^ WORD_SALT, h2, h));
		h1 = h2;
		h2 = h;
	}
	return into;
}

/** The i-th bit a trigram sets: double hashing, the second hash from the first (odd, so probes differ). */
function probe(h: number, i: number, m: number): number {
	return ((h + Math.imul(i, (Math.imul(h, 0x5bd1e995) >>> 17) | 1)) >>> 0) % m;
}

export function buildFilter(grams: Set<number>): GramFilter {
	const words = Math.max(1, Math.ceil((grams.size * BITS_PER_GRAM) / 32));
	const bits = new Uint32Array(words);
	const m = words * 32;
	for (const h of grams) {
		for (let i = 0; i < PROBES; i++) {
			const p = probe(h, i, m);
			bits[p >>> 5] |= 1 << (p & 31);
		}
	}
	return { bits, k: PROBES };
}

/** True when the filter may hold every one of these trigram hashes. */
export function filterHas(f: GramFilter, grams: readonly number[]): boolean {
	const m = f.bits.length * 32;
	for (const h of grams) {
		for (let i = 0; i < f.k; i++) {
			const p = probe(h, i, m);
			if (!(f.bits[p >>> 5] & (1 << (p & 31)))) return false;
		}
	}
	return true;
}

/** The trigrams a field's text adds: of the text, and of the text as a diacritic-folded query
 *  sees it (the matcher folds the whole text, where a mark with a case, U+0345, is dropped,
 *  while `iu` matches it to ι; the two keys differ only for such text). */
export function textGrams(text: string, into: Set<number>): Set<number> {
	gramsOf(foldKey(text), into, true);
	const folded = foldDiacritics(text);
	if (folded !== text) gramsOf(foldKey(folded), into, true);
	return into;
}

/** Builds a session's index from its fields. */
export async function buildSearchIndex(fields: readonly SearchField[]): Promise<SessionSearchIndex> {
	const grams = new Set<number>();
	let chars = 0;
	for (const f of fields) {
		textGrams(f.text, grams);
		chars += f.text.length;
	}
	return { v: SEARCH_INDEX_VERSION, filter: buildFilter(grams), text: await encodeFields(fields), fields: fields.length, chars };
}

/** The fields an index was built from, as they were. */
export function indexFields(index: SessionSearchIndex): Promise<SearchField[]> {
	return fieldsOfIndexText(index.text);
}

/** The fields from an index's `text` alone (what crosses to a search lane). */
export function fieldsOfIndexText(text: Uint8Array): Promise<SearchField[]> {
	return decodeFields(text);
}

/** Bytes an index takes when stored (what the history budget counts). */
export function indexBytes(index: SessionSearchIndex): number {
	return index.filter.bits.byteLength + index.text.byteLength + 32;
}

/** Whether a stored value is an index this version reads. */
export function isSearchIndex(v: unknown): v is SessionSearchIndex {
	const x = v as SessionSearchIndex | null;
	return !!x && x.v === SEARCH_INDEX_VERSION && x.text instanceof Uint8Array && x.filter?.bits instanceof Uint32Array;
}
