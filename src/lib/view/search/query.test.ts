import { describe, expect, it } from 'vitest';
import { compileQuery, findAll, foldDiacritics, type SearchOptions } from './query.ts';

function matches(query: string, text: string, opts: SearchOptions = {}): string[] {
	const c = compileQuery(query, opts);
	if (!c.ok) throw new Error(c.error);
	return findAll(c.matcher, text).map(([s, e]) => text.slice(s, e));
}

describe('compileQuery / findAll', () => {
	it('folds Unicode case: long s, Kelvin sign, final sigma, Turkish-free dotted I', () => {
		expect(matches('s', 'ſ')).toEqual(['ſ']);
		expect(matches('kelvin', '\u212Aelvin')).toEqual(['\u212Aelvin']);
		expect(matches('ΟΔΟΣ', 'οδος οδοσ')).toEqual(['οδος', 'οδοσ']);
		expect(matches('STRASSE', 'Straße')).toEqual([]); // full folding (ß → ss) is not simple folding
		expect(matches('Error', 'error ERROR Error')).toHaveLength(3);
	});

	it('a plain query matches every printable ASCII character literally, in every option mix', () => {
		// Regex syntax in a plain query is text: "claude-code-log", "src/lib", "a.b", "(x)", "[0]"...
		let ascii = '';
		for (let c = 0x21; c < 0x7f; c++) ascii += String.fromCharCode(c);
		for (const opts of [{}, { caseSensitive: true }, { ignoreDiacritics: true }] as SearchOptions[]) {
			for (const ch of ascii) expect(matches(`a${ch}b`, `x a${ch}b y`, opts), JSON.stringify([ch, opts])).toEqual([`a${ch}b`]);
		}
		expect(matches('claude-code-log', 'see claude-code-log/test')).toEqual(['claude-code-log']);
		expect(matches('src/lib', 'in src/lib/model', { wholeWord: true })).toEqual(['src/lib']);
	});

	it('matches case exactly when asked', () => {
		expect(matches('Error', 'error ERROR Error', { caseSensitive: true })).toEqual(['Error']);
		expect(matches('k', '\u212A', { caseSensitive: true })).toEqual([]);
	});

	it('ignores diacritics only when asked, and maps matches back to the original text', () => {
		expect(matches('cafe', 'un café noir')).toEqual([]);
		expect(matches('cafe', 'un café noir', { ignoreDiacritics: true })).toEqual(['café']);
		expect(matches('café', 'CAFE and cafe\u0301', { ignoreDiacritics: true })).toEqual(['CAFE', 'cafe\u0301']);
		expect(matches('uber', 'Über alles', { ignoreDiacritics: true })).toEqual(['Über']);
		expect(foldDiacritics('Ångström')).toBe('Angstrom');
	});

	it('finds CJK without spaces', () => {
		expect(matches('東京', '私は東京都に住んでいます')).toEqual(['東京']);
		expect(matches('ファイル', 'このファイルを削除')).toEqual(['ファイル']);
	});

	it('whole word uses Unicode word boundaries', () => {
		expect(matches('test', 'test tests attest test_x test.', { wholeWord: true })).toEqual(['test', 'test']);
		expect(matches('café', 'cafés café', { wholeWord: true })).toEqual(['café']);
		expect(matches('naïve', 'naïveté naïve', { wholeWord: true })).toEqual(['naïve']);
		// An accented letter is a word letter (ASCII \b would split "résumé" at é).
		expect(matches('sum', 'résumé sum', { wholeWord: true })).toEqual(['sum']);
		// Ideographs are not space-delimited: a whole-word query still finds them inside a sentence.
		expect(matches('東京', '私は東京に', { wholeWord: true })).toEqual(['東京']);
	});

	it('runs regular expressions, with case folding', () => {
		expect(matches('err(or)?\\s+\\d+', 'ERROR 42 and err 7 and error x', { regex: true })).toEqual(['ERROR 42', 'err 7']);
		expect(matches('rm -rf|del', 'ok; rm -rf /tmp', { regex: true })).toEqual(['rm -rf']);
		expect(matches('a|ab', 'ab cab', { regex: true, wholeWord: true })).toEqual(['ab']);
	});

	it('treats regex characters literally outside regex mode', () => {
		expect(matches('a.b(c)', 'axb(c) a.b(c)')).toEqual(['a.b(c)']);
		expect(matches('[x]*', 'y [x]*')).toEqual(['[x]*']);
	});

	it('says why an invalid regex cannot run, never throws', () => {
		for (const bad of ['(', 'a[', '*x', 'x{2,1}', '\\', '(?<n>a)(?<n>b)']) {
			const c = compileQuery(bad, { regex: true });
			expect(c.ok).toBe(false);
			if (!c.ok) expect(c.error).toMatch(/^Invalid regular expression: \S/);
		}
		const empty = compileQuery('x*', { regex: true });
		expect(empty.ok).toBe(false);
		if (!empty.ok) expect(empty.error).toMatch(/matches empty text/);
		expect(compileQuery('   ').ok).toBe(false);
		expect(compileQuery('x'.repeat(1001)).ok).toBe(false);
	});
});
