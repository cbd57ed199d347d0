// A listed session's search index for history search: built once from its fields (lane.ts
// fieldsOfLoaded) in the history pass, persisted in its HistoryEntry, structured-cloneable.
// Two parts, so a caller can keep the small one in memory and read the big one only when needed:
// - `filter`: a Bloom filter of the trigrams of the session's text under a fold key (case and
//   diacritics folded, per code point). A query's literal can only match a session whose filter
//   holds all of the literal's trigrams; no false negatives, a few false positives.
// - `text`: the fields themselves (text and landing data), compressed (history-text.ts: a format
//   made to decode fast, lz.ts: a compressor made to run fast). Candidates are verified by the
//   existing scan over these fields, so hits, snippets and counts are the scan's own.
// Measured against SQLite FTS5 (trigram tokenizer) before choosing: see history-query.ts.
import type { SearchField } from './fields.ts';
import { decodeFields, encodeFields } from './history-text.ts';
import { foldDiacritics } from './query.ts';
import { GramList, GramSet, type GramSink } from './gram-set.ts';

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
	/** The fields, encoded and compressed by history-text.ts. */
	text: Uint8Array;
	fields: number;
	chars: number;
}

/** An index as the stored history reads it back: its text is kept apart (store/history-index.ts)
 *  and read when a query's filter keeps the session (null until then; its size in textBytes). */
export type StoredSearchIndex = Omit<SessionSearchIndex, 'text'> & { text: Uint8Array | null; textBytes?: number };

/** 2: `text` in history-text.ts's format (1 was the fields' JSON). 3: filter probes reduced by
 *  multiply and shift (2 took them modulo m). 4: the text compressed by lz.ts (3 deflated it). */
export const SEARCH_INDEX_VERSION = 5;
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
	const ch = String.fromCodePoint(cp);
	k = fold1(ch).normalize('NFD').replace(MARKS, '');
	keyCache.set(cp, k);
	// Its key after the diacritic fold (what foldDiacritics leaves of it, under the fold key).
	const bare = ch.normalize('NFD').replace(MARKS, '');
	if ((bare === ch ? k : foldKey(bare)) !== k) foldsAway.add(cp);
	return k;
}

/** Code points whose key the diacritic fold changes (U+0345: ι by its case, gone as a mark).
 *  Filled by keyOf, so every code point foldKey has seen is in it or not. Both the fold key and
 *  the fold go code point by code point (NFD reorders only code points with a combining class,
 *  which are all marks and dropped: checked over all of Unicode in history-index.test.ts), so
 *  text with none of these has the same key folded or not. */
const foldsAway = new Set<number>();

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
 *  (gramsOfWords; into `words` when given). `whole`: the text is a whole field, so its first and last words are whole;
 *  a query's literal may start and end inside words, so only the words it has whole count. */
export function gramsOf<S extends GramSink>(folded: string, into: S, whole = false, words: GramSink = into): S {
	let a = folded.charCodeAt(0);
	let b = folded.charCodeAt(1);
	for (let i = 2; i < folded.length; i++) {
		const c = folded.charCodeAt(i);
		into.add(gramHash(a, b, c));
		a = b;
		b = c;
	}
	gramsOfWords(folded, words, whole);
	return into;
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
function gramsOfWords<S extends GramSink>(folded: string, into: S, whole: boolean): S {
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

/** The i-th bit a trigram sets: double hashing, the second hash from the first (odd, so probes
 *  differ; all 32 bits, as the reduction keeps the high ones), brought into [0, m) by a multiply
 *  and shift (x·m / 2³², exact enough in a double: x < 2³², m < 2³¹); a `%` of a uint32 is a
 *  floating-point remainder in V8, four times slower. */
function probe(h: number, i: number, m: number): number {
	return Math.floor(((h + Math.imul(i, Math.imul(h, 0x5bd1e995) | 1)) >>> 0) * m * TWO_TO_MINUS_32);
}

const TWO_TO_MINUS_32 = 2 ** -32;

export function buildFilter(grams: Set<number> | GramSet, words?: GramList): GramFilter {
	const n = grams.size + (words ? words.distinctEstimate() : 0);
	const size = Math.max(1, Math.ceil((n * BITS_PER_GRAM) / 32));
	const bits = new Uint32Array(size);
	setBits(bits, grams instanceof GramSet ? grams.values() : [...grams]);
	if (words) setBits(bits, words.values());
	return { bits, k: PROBES };
}

function setBits(bits: Uint32Array, hashes: ArrayLike<number>): void {
	const m = bits.length * 32;
	for (let j = 0; j < hashes.length; j++) {
		const h = hashes[j];
		for (let i = 0; i < PROBES; i++) {
			const p = probe(h, i, m);
			bits[p >>> 5] |= 1 << (p & 31);
		}
	}
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
 *  while `iu` matches it to ι; the two keys differ only for such text). The second key is
 *  compared first: where it is the same (nearly always, accents included: the fold key drops
 *  marks too) it has the same trigrams, and going over them again cost a quarter of the pass;
 *  text with no code point whose key the fold changes is not folded at all (foldsAway). */
export function textGrams<S extends GramSink>(text: string, into: S, words: GramSink = into): S {
	if (!keyGrams(text, into, words)) return into;
	const folded = foldDiacritics(text);
	if (folded === text) return into;
	const other = foldKey(folded);
	if (other !== foldKey(text)) gramsOf(other, into, true, words);
	return into;
}

/** gramsOf(foldKey(text), into, true, words) in one pass over the text, the key made unit by unit
 *  and never built as a string (the pass folds every character of a history once: building the
 *  key, then walking it for trigrams and again for words, was a third of the filter's time).
 *  Returns whether the diacritic fold may change the key: whether a code point it saw is in
 *  foldsAway (keyOf has seen it by then). */
function keyGrams(text: string, into: GramSink, words: GramSink): boolean {
	let a = 0;
	let b = 0;
	let n = 0;
	let mayFold = false;
	// The word being read (its FNV hash), and the two whole words before it.
	let inWord = false;
	let h = 0;
	let h1 = 0;
	let h2 = 0;
	let seen = 0;
	for (let i = 0; i < text.length; ) {
		let c = text.charCodeAt(i);
		let key: string | null = null;
		if (c < 0x80) {
			i++;
			if (c >= 0x41 && c <= 0x5a) c += 0x20;
		} else {
			const cp = text.codePointAt(i)!;
			i += cp > 0xffff ? 2 : 1;
			key = keyOf(cp);
			if (!mayFold && foldsAway.has(cp)) mayFold = true;
		}
		// The key's code units for this code point: one for ASCII, any number (none for a mark) else.
		const units = key === null ? 1 : key.length;
		for (let j = 0; j < units; j++) {
			const u = key === null ? c : key.charCodeAt(j);
			if (n >= 2) into.add(gramHash(a, b, u));
			a = b;
			b = u;
			n++;
			if (wordUnit(u)) {
				if (!inWord) {
					inWord = true;
					h = 0x811c9dc5;
				}
				h = Math.imul(h ^ u, 0x01000193);
			} else if (inWord) {
				inWord = false;
				if (++seen >= 3) words.add(gramHash(h1 ^ WORD_SALT, h2, h));
				h1 = h2;
				h2 = h;
			}
		}
	}
	// A field is whole: its last word counts too.
	if (inWord && ++seen >= 3) words.add(gramHash(h1 ^ WORD_SALT, h2, h));
	return mayFold;
}

/** Builds a session's index from its fields. */
export function buildSearchIndex(fields: readonly SearchField[]): SessionSearchIndex {
	let chars = 0;
	for (const f of fields) chars += f.text.length;
	// Sized low (a big session has about one distinct trigram per 35 characters: 483 k in 17 M
	// on the generated tree's largest) and grown as it fills: a table sized for one per 8 did not
	// fit the caches and made a big session's adds half again as slow.
	// The word trigrams go to a list instead (GramList: many, nearly all distinct).
	const grams = new GramSet(chars / 32);
	const words = new GramList();
	for (const f of fields) textGrams(f.text, grams, words);
	return { v: SEARCH_INDEX_VERSION, filter: buildFilter(grams, words), text: encodeFields(fields), fields: fields.length, chars };
}

/** The fields an index was built from, as they were. */
export function indexFields(index: SessionSearchIndex): SearchField[] {
	return fieldsOfIndexText(index.text);
}

/** The fields from an index's `text` alone (what crosses to a search lane). */
export function fieldsOfIndexText(text: Uint8Array): SearchField[] {
	return decodeFields(text);
}

/** Bytes an index takes when stored (what the history budget counts). */
export function indexBytes(index: SessionSearchIndex | StoredSearchIndex): number {
	return index.filter.bits.byteLength + (index.text?.byteLength ?? (index as StoredSearchIndex).textBytes ?? 0) + 32;
}

/** Whether a stored value is an index this version reads. */
export function isSearchIndex(v: unknown): v is StoredSearchIndex {
	const x = v as StoredSearchIndex | null;
	return !!x && x.v === SEARCH_INDEX_VERSION && (x.text instanceof Uint8Array || (x.text === null && typeof x.textBytes === 'number')) && x.filter?.bits instanceof Uint32Array;
}
