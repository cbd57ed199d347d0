// The history index must never rule out a session the scan would find: its fold key has to map
// every pair of code points V8's `iu` RegExp treats as equal to one key (checked here for every
// cased code point against the engine itself), its filter has to hold every trigram of the text
// it was built from, and its stored fields have to come back exactly as they went in.
import { describe, expect, it } from 'vitest';
import type { SearchField } from './fields.ts';
import { buildFilter, buildSearchIndex, filterHas, foldKey, gramsOf, indexBytes, indexFields, isSearchIndex, textGrams } from './history-index.ts';
import { escapeRegex, foldDiacritics } from './query.ts';
import { GramList, GramSet } from './gram-set.ts';

/** Every code point (no surrogates) that has a case mapping. */
function casedCodePoints(): number[] {
	const out: number[] = [];
	for (let cp = 0; cp <= 0x10ffff; cp++) {
		if (cp >= 0xd800 && cp <= 0xdfff) continue;
		const c = String.fromCodePoint(cp);
		if (c.toLowerCase() !== c || c.toUpperCase() !== c) out.push(cp);
	}
	return out;
}

describe('foldKey', () => {
	it('gives one key to every code point an `iu` RegExp matches with another (all of Unicode)', () => {
		const cased = casedCodePoints();
		expect(cased.length).toBeGreaterThan(2500);
		const universe = cased.map((cp) => String.fromCodePoint(cp)).join('\n');
		const bad: string[] = [];
		for (const cp of cased) {
			const c = String.fromCodePoint(cp);
			const re = new RegExp(escapeRegex(c), 'giu');
			for (const m of universe.matchAll(re)) {
				if (foldKey(m[0]) !== foldKey(c)) bad.push(`U+${cp.toString(16)} ~ U+${m[0].codePointAt(0)!.toString(16)}`);
			}
		}
		expect(bad).toEqual([]);
	});

	it('folds the cases the matcher folds: ſ, the Kelvin sign, final sigma, accents, ASCII', () => {
		expect(foldKey('ſ')).toBe(foldKey('S'));
		expect(foldKey('\u212a')).toBe('k');
		expect(foldKey('ς')).toBe(foldKey('Σ'));
		expect(foldKey('Café NAÏVE')).toBe('cafe naive');
		expect(foldKey('数据')).toBe('数据');
		expect(foldKey('a😀B')).toBe('a😀b');
	});

	it('a literal the diacritic-folding matcher finds in a text has its trigrams in that text’s filter', () => {
		for (const text of ['cafe\u0301 au lait', 'Ångström unit', 'aͅbc ΐxy', '한국어 텍스트', 'ﬁle ﬅop', 'ǅemal ǈubljana']) {
			const filter = buildFilter(textGrams(text, new Set<number>()));
			const folded = foldDiacritics(text);
			for (let i = 0; i + 3 <= folded.length; i++) {
				const literal = folded.slice(i, i + 3);
				expect(new RegExp(escapeRegex(literal), 'iu').test(folded)).toBe(true);
				expect(filterHas(filter, [...gramsOf(foldKey(literal), new Set<number>())]), `${text}: ${literal}`).toBe(true);
			}
			for (let i = 0; i + 3 <= text.length; i++) expect(filterHas(filter, [...gramsOf(foldKey(text.slice(i, i + 3)), new Set<number>())])).toBe(true);
		}
	});
});

describe('textGrams', () => {
	/** What textGrams stands for: the trigrams of both keys, each computed whole. */
	const reference = (text: string) => new Set([...gramsOf(foldKey(text), new Set<number>(), true), ...gramsOf(foldKey(foldDiacritics(text)), new Set<number>(), true)]);

	it('adds exactly the trigrams of the text’s key and of its diacritic-folded key', () => {
		const samples = ['plain ascii text of a reply', 'cafe\u0301 au lait', 'Ångström → ✓', 'aͅbc ΐxy', '한국어 텍스트', 'ﬁle ﬅop', '数据 naïve', 'x\u0345y\u0301z', 'Ǆ ǅ ǆ', '😀 e\u0308\u0301'];
		let rng = 11;
		const alphabet = ['a', 'B', ' ', 'é', 'e', '\u0301', '\u0345', 'Σ', 'ς', 'ſ', '数', '한', 'ﬀ', 'İ', '\u212a', '😀', '→', '-', 'Å', 'ǅ'];
		for (let n = 0; n < 300; n++) {
			let t = '';
			for (let i = 0; i < 12; i++) {
				rng = (rng * 1103515245 + 12345) % 2 ** 31;
				t += alphabet[rng % alphabet.length];
			}
			samples.push(t);
		}
		for (const text of samples) {
			expect(new Set(textGrams(text, new GramSet()).values()), text).toEqual(reference(text));
			expect(textGrams(text, new Set<number>()), text).toEqual(reference(text));
		}
	});

	it('every code point with a combining class is a mark (so the fold key and the diacritic fold go code point by code point)', () => {
		// Canonical ordering moves a code point with a nonzero class past U+0345 (class 240) if its
		// class is lower, and U+0334 (class 1) past it if its class is higher: one of the two moves
		// any code point with a class. textGrams skips the diacritic fold for text none of whose code
		// points has its key changed by the fold, which is right only while this holds.
		const bad: string[] = [];
		for (let cp = 0x80; cp <= 0x10ffff; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const c = String.fromCodePoint(cp);
			if (/\p{M}/u.test(c) || c.normalize('NFD') !== c) continue;
			if (('\u0345' + c).normalize('NFD') !== '\u0345' + c || (c + '\u0334').normalize('NFD') !== c + '\u0334') bad.push(`U+${cp.toString(16)}`);
		}
		expect(bad).toEqual([]);
	});
});

describe('trigram filter', () => {
	it('holds every trigram of its text and rules out most others', () => {
		const text = foldKey('the parser reads each line of the transcript; 数据 café → ✓');
		const grams = gramsOf(text, new Set<number>());
		const f = buildFilter(grams);
		expect(filterHas(f, [...grams])).toBe(true);
		let rng = 7;
		let hits = 0;
		const probes = 2000;
		for (let i = 0; i < probes; i++) {
			rng = (rng * 1103515245 + 12345) % 2 ** 31;
			const other = gramsOf(`zq${String.fromCharCode(0x4e00 + (rng % 5000))}`, new Set<number>());
			if (filterHas(f, [...other])) hits++;
		}
		// 8 bits per trigram, 5 probes: about 2 % false positives.
		expect(hits / probes).toBeLessThan(0.06);
	});

	it('built from a GramSet or a Set of the same hashes, is the same filter; about 2 % false positives at size', () => {
		let x = 7;
		const next = () => (x = (Math.imul(x, 1664525) + 1013904223) | 0) >>> 0;
		const hashes = Array.from({ length: 50_000 }, next);
		const a = buildFilter(new Set(hashes));
		const g = new GramSet();
		for (const h of hashes) g.add(h);
		expect(buildFilter(g)).toEqual(a);
		expect(filterHas(a, hashes)).toBe(true);
		let fp = 0;
		for (let i = 0; i < 50_000; i++) if (filterHas(a, [next()])) fp++;
		expect(fp / 50_000).toBeGreaterThan(0.005);
		expect(fp / 50_000).toBeLessThan(0.04);
	});

	it('with the word trigrams in a GramList (repeats and all): holds every one, sized by their distinct count', () => {
		let x = 9;
		const next = () => (x = (Math.imul(x, 1664525) + 1013904223) | 0) >>> 0;
		const chars = new GramSet();
		for (let i = 0; i < 3000; i++) chars.add(next());
		const distinct = Array.from({ length: 120_000 }, next);
		const words = new GramList();
		for (let i = 0; i < 300_000; i++) words.add(distinct[(i * 7919) % distinct.length]);
		const f = buildFilter(chars, words);
		expect(filterHas(f, [...chars.values()])).toBe(true);
		expect(filterHas(f, distinct)).toBe(true);
		// 8 bits for each distinct entry (the estimate is within a few %), not for each repeat.
		expect(f.bits.length * 32).toBeGreaterThan(0.95 * 8 * 123_000);
		expect(f.bits.length * 32).toBeLessThan(1.05 * 8 * 123_000);
		let fp = 0;
		for (let i = 0; i < 20_000; i++) if (filterHas(f, [next()])) fp++;
		expect(fp / 20_000).toBeLessThan(0.04);
	});

	it('a session index holds the same trigrams whether its word trigrams went to the set or to a list', async () => {
		const text = 'the parser reads each line of the transcript; the parser writes each line of the output';
		const idx = await buildSearchIndex([{ text, kind: 'reply', author: 'claude', tool: null, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false }]);
		expect(filterHas(idx.filter, [...textGrams(text, new Set<number>())])).toBe(true);
	});
});

describe('buildSearchIndex', () => {
	const field = (text: string, extra: Partial<SearchField> = {}): SearchField => ({
		text,
		kind: 'reply',
		author: 'claude',
		tool: null,
		atomUuid: 'a1',
		row: 3,
		turnIndex: 1,
		ms: 1700000000000,
		opens: [{ key: 'g1', defaultOpen: false }],
		subagent: ['Explore the parser'],
		rewound: false,
		...extra
	});

	it('stores the fields exactly, and is smaller than the text for prose', async () => {
		const prose = Array.from({ length: 400 }, (_, i) => `the parser reads line ${i} of the transcript`).join('\n');
		const fields = [field(prose), field('数据 naïve <script>alert(1)</script>', { kind: 'tool-output', tool: 'Bash', ms: null, opens: [], subagent: [] })];
		const idx = await buildSearchIndex(fields);
		expect(isSearchIndex(idx)).toBe(true);
		expect(structuredClone(idx)).toEqual(idx);
		expect(await indexFields(idx)).toEqual(fields);
		expect(idx).toMatchObject({ fields: 2, chars: prose.length + fields[1].text.length });
		expect(indexBytes(idx)).toBeLessThan(prose.length / 4);
		expect(filterHas(idx.filter, [...gramsOf(foldKey('NAÏVE'), new Set<number>())])).toBe(true);
	});

	it('an index of another version, or not an index, is not read', async () => {
		const idx = await buildSearchIndex([field('x')]);
		expect(isSearchIndex({ ...idx, v: idx.v + 1 })).toBe(false);
		expect(isSearchIndex(null)).toBe(false);
		expect(isSearchIndex({ v: idx.v })).toBe(false);
	});
});
