// The query side of history search: the literals a regular expression requires (too few is
// slower, one too many loses sessions), and a plan that rules sessions out only by trigrams.
import { describe, expect, it } from 'vitest';
import { buildSearchIndex } from './history-index.ts';
import { historySources, planQuery, regexLiterals } from './history-query.ts';
import type { SearchField } from './fields.ts';

describe('regexLiterals', () => {
	it.each([
		['timeout after \\d+ms', ['timeout after ', 'ms']],
		['parser', ['parser']],
		['pars(er|ing)', ['pars']],
		['colou?r', ['colo', 'r']],
		['ab+c', ['ab', 'c']],
		['ab*c', ['a', 'c']],
		['x{0,2}yz{2}w', ['yz', 'w']],
		['a.b[cd]e\\.f', ['a', 'b', 'e.f']],
		['^foo$', ['foo']],
		['\\bcache\\b', ['cache']],
		['\\u{1F600}x\\p{L}y', ['x', 'y']],
		['(?<n>ab)\\k<n>cd', ['cd']],
		['foo|bar', []],
		['(foo|bar)baz', ['baz']],
		['[|(]x|', []],
		['a(?=b)c', ['a', 'c']],
		['数据+', ['数据']],
		['ab??c', ['a', 'c']],
		['😀{2}b', ['😀', 'b']]
	])('%s requires %j', (src, expected) => {
		expect(regexLiterals(src)).toEqual(expected);
	});

	it('every literal it gives is found by the regex in what it matches', () => {
		const cases: [string, string][] = [
			['timeout after \\d+ms', 'a timeout after 250ms here'],
			['colou?r', 'color'],
			['ab*c', 'ac'],
			['x{0,2}yz{2}w', 'yzzw'],
			['(foo|bar)baz', 'barbaz']
		];
		for (const [src, text] of cases) {
			const m = new RegExp(src, 'u').exec(text)!;
			for (const l of regexLiterals(src)) expect(m[0]).toContain(l);
		}
	});
});

describe('planQuery', () => {
	it('a plain query is its own literal; short queries and literal-less regexes scan, and say so', () => {
		expect(planQuery('Parser').literals).toEqual(['Parser']);
		expect(planQuery('Parser').scanAll).toBeNull();
		expect(planQuery('ab').scanAll).toMatch(/three characters/);
		expect(planQuery('\\d{4}-\\d+', { regex: true }).scanAll).toMatch(/no literal/);
		expect(planQuery('café', { ignoreDiacritics: true }).literals).toEqual(['cafe']);
	});

	it('rules out a session only when its filter lacks a trigram', async () => {
		const field = (text: string): SearchField => ({ text, kind: 'reply', author: 'claude', tool: null, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false });
		const a = await buildSearchIndex([field('the parser reads each line')]);
		const b = await buildSearchIndex([field('数据 café → ✓')]);
		const sessions = [a, b].map((idx, i) => ({ key: `s${i}`, filter: idx.filter, source: { key: `s${i}`, fields: () => ({ fields: [], folded: [] }) } }));
		const noIndex = { key: 's2', filter: null, source: { key: 's2', fields: () => null } };
		const run = (q: string, regex = false) => historySources(planQuery(q, { regex }), [...sessions, noIndex]);
		expect(run('PARSER').info).toEqual({ indexed: 2, candidates: 1, scanned: 1, scanAll: null });
		expect(run('CAFÉ').info.candidates).toBe(1);
		expect(run('\\w+', true).info).toMatchObject({ candidates: 2 });
		const { sources } = run('parser');
		expect(sources.map((s) => s.key)).toEqual(['s0', 's1', 's2']);
		expect(sources[1].fields()).toBeNull();
		expect(sources[0]).toBe(sessions[0].source);
	});
});
