// Python `re` semantics, checked against what Python itself answered: the fixture
// fixtures/model/python-re/python-re.json is written by scripts/gen-python-re-fixture.py with the
// reference's Python (3.11, Unicode 14.0). It holds Python's \w \d \s tables over every code
// point, re.IGNORECASE's folds of the ASCII letters, and each reference pattern run (match /
// search / findall / sub, as the reference uses it) over inputs built from characters of every
// class: ASCII, Latin-1, CJK, combining marks, the control separators U+001C–U+001F, U+0085,
// NBSP and other Unicode spaces, look-alikes that are not spaces, case-fold specials, astral.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PY_DIGIT, PY_SPACE, PY_WORD, pyRegExp, pyToJs } from './pyre.ts';
import { PATTERNS } from './text.ts';
import { pyParseZ } from './pytime.ts';

interface Case { input: string; result: unknown }
interface PatternFixture { name: string; source: string; ignoreCase: boolean; op: 'match' | 'search' | 'findall' | 'sub'; cases: Case[] }
interface Fixture {
	python: string;
	unicode: string;
	samples: string[];
	classes: Record<'w' | 'd' | 's', [number, number][]>;
	assigned: [number, number][];
	ignorecase: Record<string, number[]>;
	patterns: PatternFixture[];
	parseZ: { input: string; result: { t: number; us: number } | null }[];
}

const FX = JSON.parse(readFileSync(resolve(__dirname, '../../../fixtures/model/python-re/python-re.json'), 'utf8')) as Fixture;

/** The model's pattern for each of the reference's (fixture names are the reference's). */
const BY_NAME: Record<string, RegExp> = {
	POSTAL_RE: PATTERNS.postalId,
	POSTAL_ANY_RE: PATTERNS.postalMarker,
	ROMP_INJECT_RE: PATTERNS.injected,
	ROMP_AUTO_RE: PATTERNS.auto,
	SYSTEM_WRAPPER_RE: PATTERNS.harnessTag,
	TEAMMATE_MSG_RE: PATTERNS.teammate,
	CMD_WRAP_RE: PATTERNS.commandWrapper,
	COMMAND_NAME_RE: PATTERNS.commandNameFirst,
	COMMAND_NAME_ANY_RE: PATTERNS.commandName,
	COMMAND_ARGS_RE: PATTERNS.commandArgs,
	LOCAL_STDOUT_RE: PATTERNS.stdout,
	ANSI_RE: PATTERNS.ansi,
	SKILL_CONTENT_RE: PATTERNS.skillPreamble,
	IMG_ECHO_RE: PATTERNS.imageEcho
};

function inRanges(ranges: [number, number][], c: number): boolean {
	let lo = 0;
	let hi = ranges.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (c < ranges[mid][0]) hi = mid - 1;
		else if (c > ranges[mid][1]) lo = mid + 1;
		else return true;
	}
	return false;
}

/** Runs a JS regex the way the reference runs its Python one. */
function run(rx: RegExp, op: PatternFixture['op'], s: string): unknown {
	rx.lastIndex = 0;
	if (op === 'match' || op === 'search') {
		const m = rx.exec(s);
		if (op === 'match' && m && m.index !== 0) throw new Error('a match pattern matched past the start');
		return m ? { text: m[0], groups: m.slice(1).map((g) => g ?? null) } : null;
	}
	if (op === 'findall') return [...s.matchAll(rx)].map((m) => (m.length > 1 ? m.slice(1).map((g) => g ?? null) : [m[0]]));
	return s.replace(rx, '');
}

describe('the fixture', () => {
	it('was written by the reference Python (3.11, Unicode 14.0) and covers every pattern the model uses', () => {
		expect(FX.python.startsWith('3.11.')).toBe(true);
		expect(FX.unicode).toBe('14.0.0');
		expect(FX.patterns.map((p) => p.name).sort()).toEqual(Object.keys(BY_NAME).sort());
		expect(Object.keys(PATTERNS)).toHaveLength(Object.keys(BY_NAME).length);
	});
});

describe('character classes over every code point Unicode 14 assigns', () => {
	const cases: [string, string, [number, number][]][] = [
		['\\w', `^[${PY_WORD}]$`, FX.classes.w],
		['\\d', `^[${PY_DIGIT}]$`, FX.classes.d],
		['\\s', `^[${PY_SPACE}]$`, FX.classes.s],
		['\\w via pyRegExp', pyToJs('^\\w$', false), FX.classes.w],
		['\\W via pyRegExp', pyToJs('^\\W$', false), []],
		['\\S inside a class', pyToJs('^[\\S]$', false), []]
	];
	for (const [name, source, ranges] of cases) {
		it(name, () => {
			const rx = new RegExp(source, 'u');
			const negated = name.startsWith('\\W') || name.startsWith('\\S');
			const want = negated ? (name.startsWith('\\W') ? FX.classes.w : FX.classes.s) : ranges;
			const wrong: string[] = [];
			for (const [lo, hi] of FX.assigned) {
				for (let c = lo; c <= hi; c++) {
					const py = inRanges(want, c) !== negated;
					if (rx.test(String.fromCodePoint(c)) !== py) wrong.push(c.toString(16));
				}
			}
			expect(wrong.slice(0, 20)).toEqual([]);
		});
	}
	it('\\b and \\B follow Python word characters (CJK, accents, digits of any script; not combining marks)', () => {
		const b = pyRegExp('\\b', { global: true });
		const nb = pyRegExp('\\B', { global: true });
		for (const s of FX.samples) {
			const text = `a${s}a`;
			const w = inRanges(FX.classes.w, s.codePointAt(0)!);
			// Python: a boundary on both sides of s exactly when s is not a word character.
			const at = [...text.matchAll(b)].map((m) => m.index);
			expect([s, at]).toEqual([s, w ? [0, text.length] : [0, 1, 1 + s.length, text.length]]);
			// \B at every other code point position (four: before, between and after s). V8 may also
			// try the middle of a surrogate pair, which Python does not have (see pyre.ts).
			const mid = s.length === 2 ? [2] : [];
			const nbAt = [...text.matchAll(nb)].map((m) => m.index).filter((i) => !mid.includes(i));
			expect(nbAt).toEqual([0, 1, 1 + s.length, text.length].filter((i) => !at.includes(i)));
		}
	});
});

describe('re.IGNORECASE folding of ASCII letters', () => {
	it('matches exactly the characters Python folds to each letter (all of the BMP)', () => {
		for (const [letter, cps] of Object.entries(FX.ignorecase)) {
			expect(cps.every((c) => c < 0x10000)).toBe(true);
			const rx = pyRegExp(`^${letter}$`, { ignoreCase: true });
			const got: number[] = [];
			for (let c = 0; c < 0x10000; c++) if (rx.test(String.fromCharCode(c))) got.push(c);
			expect([letter, got]).toEqual([letter, cps]);
		}
	});
});

describe('each reference pattern gives what Python gave', () => {
	for (const p of FX.patterns) {
		it(`${p.name} (${p.op}, ${p.cases.length} inputs)`, () => {
			const rx = BY_NAME[p.name];
			// The model's pattern IS the reference's, built by pyRegExp.
			expect(rx.source).toBe(new RegExp(pyToJs(p.source, p.ignoreCase), 'u').source);
			const wrong: unknown[] = [];
			for (const c of p.cases) {
				const got = run(rx, p.op, c.input);
				if (JSON.stringify(got) !== JSON.stringify(c.result)) wrong.push({ input: c.input, python: c.result, js: got });
			}
			expect(wrong.slice(0, 5)).toEqual([]);
		});
	}
});

describe('pyRegExp translation', () => {
	it('dot stops only at \\n; $ also matches before a final newline', () => {
		expect(pyRegExp('^a.b$').test('a\u2028b')).toBe(true);
		expect(pyRegExp('^a.b$').test('a\rb')).toBe(true);
		expect(pyRegExp('^a.b$').test('a\nb')).toBe(false);
		expect(pyRegExp('^ab$').test('ab\n')).toBe(true);
		expect(pyRegExp('^ab$').test('ab\n\n')).toBe(false);
	});
	it('named groups, quantifiers and literal braces', () => {
		expect(pyRegExp('(?P<y>\\d{4})-(?P=y)').exec('２０２６-２０２６')?.groups?.y).toBe('２０２６');
		expect(pyRegExp('^a{x$').test('a{x')).toBe(true);
	});
	it('refuses what it cannot translate exactly', () => {
		expect(() => pyRegExp('[\\W]')).toThrow();
		expect(() => pyRegExp('(?i)a')).toThrow();
		expect(() => pyRegExp('é', { ignoreCase: true })).toThrow();
		expect(() => pyRegExp('[a-z]', { ignoreCase: true })).toThrow();
		expect(() => pyRegExp('\\N{DASH}')).toThrow();
	});
});

describe("the reference's timestamp reader (fromisoformat, then strptime with Unicode \\d)", () => {
	it(`gives what Python gave for ${FX.parseZ.length} forms and mutations`, () => {
		const wrong: unknown[] = [];
		for (const c of FX.parseZ) {
			const got = pyParseZ(c.input);
			if (JSON.stringify(got) !== JSON.stringify(c.result)) wrong.push({ input: c.input, python: c.result, js: got });
		}
		expect(wrong.slice(0, 8)).toEqual([]);
		expect(FX.parseZ.filter((c) => c.result !== null).length).toBeGreaterThan(300);
	});
});
