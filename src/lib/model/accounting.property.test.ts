// "Nothing lost, nothing thrown": windows of real corpus and pack lines, mutated at the JSON level
// (fields dropped, retyped or replaced by null / numbers / arrays / strings, odd timestamps, null
// text blocks, non-object lines, parent cycles, shared uuids), at the byte level (truncation,
// flipped and inserted bytes) and at the file level (duplicates, shuffles, BOM, CRLF, blank lines,
// no final newline); sometimes with an earlier candidate file, a mutated state log and postal log,
// sdkHuman, a leaf override and a clock. For every input: buildSession never throws in either
// mode, every line is accounted for exactly once, and a parse fed in random chunk sizes equals
// the whole-file parse. Then explicit cases for the pack README's "Must not crash" inputs and
// its reader rules.
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords } from './index.ts';
import type { Compat, FileRecords, ParseResult } from './index.ts';
import { accountingAddsUp, misplaced, nonBlankLines } from '../../../scripts/lib/accounting-check.ts';
import { chunksOf, cutAt } from '../../../scripts/lib/chunks.ts';
import { listCases } from '../../../scripts/lib/romp-case.ts';
import { withSegments } from '../../../scripts/lib/session-json.ts';
import { filesUnder } from '../../../scripts/lib/files.ts';

const ROOT = resolve(__dirname, '../../../fixtures');
const FILE = 'aaaaaaaa-1111-2222-3333-444444444444.jsonl';
const STATES = 'states.jsonl';
const enc = new TextEncoder();
const dec = new TextDecoder();

// ── Seeds: real corpus lines, in file order so parent chains survive in a window ─────────────

const jsonlUnder = (dir: string): string[] => filesUnder(dir).filter((p) => p.endsWith('.jsonl'));

interface Seed { lines: string[]; subagent: boolean }
const seedOf = (f: string): Seed => ({
	lines: nonBlankLines(readFileSync(f, 'utf8')).map((l) => l.text).filter((t) => t.length <= 6000),
	subagent: basename(f).startsWith('agent-')
});
const PACK_FILES = jsonlUnder(join(ROOT, 'conformance/romp'));
const isSideLog = (f: string) => ['states.jsonl', 'messages.jsonl'].includes(basename(f));

/**
 * Transcript seeds: every corpus file (lines up to 6 KB; big lines would only slow the property
 * down) and every pack transcript (they hold the rare records: commands, skills, compaction,
 * queued_command attachments, orphan markers, postal markers). A subagent file is parsed with
 * { subagent: true }, else all its lines would be sidechain.
 */
const SEED_FILES: Seed[] = [...jsonlUnder(join(ROOT, 'corpus')), ...PACK_FILES.filter((f) => !isSideLog(f))]
	.map(seedOf)
	.filter((seed) => seed.lines.length > 0);
/** State-log and postal-log seeds: the pack's rows plus hand-made odd rows. */
const STATE_SEEDS: string[] = PACK_FILES.filter((f) => basename(f) === 'states.jsonl').flatMap((f) => seedOf(f).lines);
const POSTAL_SEEDS: string[] = PACK_FILES.filter((f) => basename(f) === 'messages.jsonl').flatMap((f) => seedOf(f).lines);

// ── The document model the mutations act on ──────────────────────────────────────────────────

type Line = { json: unknown } | { bytes: Uint8Array };
interface Doc { lines: Line[]; bom: boolean; crlf: boolean; finalNewline: boolean }

const WEIRD: unknown[] = [null, 42, -1.5, 0, '', 'x', [], [1, 'a'], {}, { a: null }, true, false];
const FIELDS = ['uuid', 'timestamp', 'parentUuid', 'type', 'message', 'sessionId', 'isSidechain', 'isMeta', 'subtype',
	'toolUseResult', 'attachment', 'content', 'logicalParentUuid', 'promptSource', 'isCompactSummary', 'agentId'];
const TYPES = ['user', 'assistant', 'system', 'attachment', 'summary', 'progress', 'queue-operation', 'file-history-snapshot', 'result', 'x'];
const MESSAGE_FIELDS = ['content', 'role', 'stop_reason', 'id', 'usage', 'model'];
const TIMESTAMPS: unknown[] = [1781096400, 1781096400123, '2026-07-01t10:00:00.000z', '2026-07-01T10:00:00.000z',
	'yesterday', '', '2026-13-45T99:99:99Z', '2026-07-01', null, [], {}];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);
/** A seed line: JSON values are mutated as values, anything else (comment lines) as bytes. */
function asLine(text: string): Line {
	try {
		return { json: JSON.parse(text) as unknown };
	} catch {
		return { bytes: enc.encode(text) };
	}
}
const bytesOf = (l: Line): Uint8Array => ('bytes' in l ? l.bytes : enc.encode(JSON.stringify(l.json)));

type Op =
	| { op: 'drop'; at: number; field: string }
	| { op: 'replace'; at: number; field: string; value: unknown }
	| { op: 'replaceMessage'; at: number; field: string; value: unknown }
	| { op: 'timestamp'; at: number; value: unknown }
	| { op: 'nullTextBlock'; at: number; how: number }
	| { op: 'nonObject'; at: number; value: unknown }
	| { op: 'truncate'; at: number; cut: number }
	| { op: 'flip'; at: number; pos: number; mask: number }
	| { op: 'insert'; at: number; pos: number; bytes: number[] }
	| { op: 'duplicate'; at: number }
	| { op: 'shuffle'; keys: number[] }
	| { op: 'cycle'; at: number; other: number }
	| { op: 'blank'; at: number; text: string }
	| { op: 'retype'; at: number; type: string }
	| { op: 'sameUuid'; at: number; other: number };

// Weighted so most inputs stay close to real files (structure and value mutations) and byte-level
// damage is the exception, as it is in real logs.
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
	w(3, fc.record({ op: fc.constant('drop' as const), at: fc.nat(), field: fc.constantFrom(...FIELDS) })),
	w(3, fc.record({ op: fc.constant('replace' as const), at: fc.nat(), field: fc.constantFrom(...FIELDS), value: fc.constantFrom(...WEIRD) })),
	w(2, fc.record({ op: fc.constant('replaceMessage' as const), at: fc.nat(), field: fc.constantFrom(...MESSAGE_FIELDS), value: fc.constantFrom(...WEIRD) })),
	w(2, fc.record({ op: fc.constant('timestamp' as const), at: fc.nat(), value: fc.constantFrom(...TIMESTAMPS) })),
	w(2, fc.record({ op: fc.constant('nullTextBlock' as const), at: fc.nat(), how: fc.nat({ max: 3 }) })),
	w(1, fc.record({ op: fc.constant('nonObject' as const), at: fc.nat(), value: fc.constantFrom(42, 'x', [], null, true, [{ type: 'user' }], 0.5) })),
	w(1, fc.record({ op: fc.constant('truncate' as const), at: fc.nat(), cut: fc.nat() })),
	w(1, fc.record({ op: fc.constant('flip' as const), at: fc.nat(), pos: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) })),
	w(1, fc.record({ op: fc.constant('insert' as const), at: fc.nat(), pos: fc.nat(),
		bytes: fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x0d, 0x22, 0x7b, 0x7d, 0xc3, 0xe2, 0xf0, 0xff, 0x00)), { minLength: 1, maxLength: 4 }) })),
	w(2, fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() })),
	w(1, fc.record({ op: fc.constant('shuffle' as const), keys: fc.array(fc.nat(), { minLength: 1, maxLength: 64 }) })),
	w(2, fc.record({ op: fc.constant('cycle' as const), at: fc.nat(), other: fc.nat() })),
	w(1, fc.record({ op: fc.constant('blank' as const), at: fc.nat(), text: fc.constantFrom('', ' ', '\t', '  \t ') })),
	w(2, fc.record({ op: fc.constant('retype' as const), at: fc.nat(), type: fc.constantFrom(...TYPES) })),
	w(2, fc.record({ op: fc.constant('sameUuid' as const), at: fc.nat(), other: fc.nat() }))
);

/** Apply one op to a JSON value line; byte lines are left alone by JSON-level ops. */
function onJson(lines: Line[], at: number, f: (v: Record<string, unknown>) => void): void {
	if (!lines.length) return;
	const l = lines[at % lines.length];
	if (!('json' in l) || !isObject(l.json)) return;
	const v = clone(l.json);
	f(v);
	lines[at % lines.length] = { json: v };
}

function apply(lines: Line[], o: Op): Line[] {
	const n = lines.length;
	const i = n && 'at' in o ? o.at % n : 0;
	switch (o.op) {
		case 'drop':
			onJson(lines, o.at, (v) => void delete v[o.field]);
			return lines;
		case 'replace':
			onJson(lines, o.at, (v) => void (v[o.field] = clone(o.value)));
			return lines;
		case 'replaceMessage':
			onJson(lines, o.at, (v) => {
				if (isObject(v.message)) v.message[o.field] = clone(o.value);
			});
			return lines;
		case 'timestamp':
			onJson(lines, o.at, (v) => void (v.timestamp = clone(o.value)));
			return lines;
		case 'nullTextBlock':
			onJson(lines, o.at, (v) => {
				const m = isObject(v.message) ? v.message : (v.message = { role: 'user', content: [] });
				if (!Array.isArray(m.content)) m.content = [];
				const content = m.content as unknown[];
				if (o.how === 0) content.push(null);
				else if (o.how === 1) content.push({ type: 'text', text: null });
				else if (o.how === 2) content.push({ type: 'text' });
				else m.content = null;
			});
			return lines;
		case 'nonObject':
			if (n) lines[i] = { json: o.value };
			return lines;
		case 'truncate':
			if (n) {
				const b = bytesOf(lines[i]);
				lines[i] = { bytes: b.subarray(0, o.cut % Math.max(1, b.length)) };
			}
			return lines;
		case 'flip':
			if (n) {
				const b = bytesOf(lines[i]).slice();
				if (b.length) b[o.pos % b.length] ^= o.mask;
				lines[i] = { bytes: b };
			}
			return lines;
		case 'insert':
			if (n) {
				const b = bytesOf(lines[i]);
				const p = o.pos % (b.length + 1);
				lines[i] = { bytes: new Uint8Array([...b.subarray(0, p), ...o.bytes, ...b.subarray(p)]) };
			}
			return lines;
		case 'duplicate':
			if (n) lines.splice(i, 0, lines[i]);
			return lines;
		case 'shuffle': {
			const keyed = lines.map((l, k) => ({ l, k: o.keys[k % o.keys.length] * 1000 + k }));
			return keyed.sort((a, b) => a.k - b.k).map((x) => x.l);
		}
		case 'cycle': {
			const a = lines[i];
			const b = lines[n ? o.other % n : 0];
			if (!a || !b || !('json' in a) || !('json' in b) || !isObject(a.json) || !isObject(b.json)) return lines;
			const ua = a.json.uuid;
			const ub = b.json.uuid;
			onJson(lines, i, (v) => void (v.parentUuid = ub));
			onJson(lines, o.other, (v) => void (v.parentUuid = ua));
			return lines;
		}
		case 'blank':
			lines.splice(i, 0, { bytes: enc.encode(o.text) });
			return lines;
		case 'retype':
			onJson(lines, o.at, (v) => void (v.type = o.type));
			return lines;
		case 'sameUuid': {
			const b = lines[n ? o.other % n : 0];
			const uuid = b && 'json' in b && isObject(b.json) ? b.json.uuid : undefined;
			onJson(lines, o.at, (v) => void (v.uuid = uuid));
			return lines;
		}
	}
}

function serialise(doc: Doc): Uint8Array {
	const eol = enc.encode(doc.crlf ? '\r\n' : '\n');
	const parts: Uint8Array[] = doc.bom ? [new Uint8Array([0xef, 0xbb, 0xbf])] : [];
	doc.lines.forEach((l, k) => {
		parts.push(bytesOf(l));
		if (k < doc.lines.length - 1 || doc.finalNewline) parts.push(eol);
	});
	const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/** Counterexamples print as the decoded text, not as a list of byte values. */
function readable(bytes: Uint8Array): Uint8Array {
	Object.defineProperty(bytes, fc.toStringMethod, { value: () => `utf8(${JSON.stringify(dec.decode(bytes))})` });
	return bytes;
}

/** A window of one seed's lines, mutated and serialised. */
function windowArb(seeds: { lines: string[]; subagent: boolean }[], maxLength: number): fc.Arbitrary<{ bytes: Uint8Array; subagent: boolean; uuids: string[] }> {
	return fc
		.record({
			file: fc.nat(),
			start: fc.nat(),
			length: fc.integer({ min: 0, max: maxLength }),
			ops: fc.array(opArb, { maxLength: 6 }),
			bom: fc.boolean(),
			crlf: fc.boolean(),
			finalNewline: fc.boolean()
		})
		.map(({ file, start, length, ops, bom, crlf, finalNewline }) => {
			const seed = seeds[file % seeds.length];
			const from = start % seed.lines.length;
			let lines: Line[] = seed.lines.slice(from, from + length).map(asLine);
			for (const o of ops) lines = apply(lines, o);
			const uuids = lines.flatMap((l) => ('json' in l && isObject(l.json) && typeof l.json.uuid === 'string' ? [l.json.uuid] : []));
			return { bytes: readable(serialise({ lines, bom, crlf, finalNewline })), subagent: seed.subagent, uuids };
		});
}

const STATE_ROWS: unknown[] = [{ t: 1781096430, state: 'working' }, { t: 1781096460, state: 'idle' }, { t: '1781096500', state: 'working' },
	{ t: null, state: 'waiting' }, { state: 'idle' }, { t: 1781096600 }, { t: 1781096700, state: 42 }, 7, 'x', [], { t: 1.5e9, state: 'orphanReply', text: null }];
const sideLogArb = (seeds: string[]) =>
	fc.option(
		windowArb([{ lines: [...seeds, ...STATE_ROWS.map((r) => JSON.stringify(r))], subagent: false }], 10).map((w) => w.bytes),
		{ nil: null }
	);

interface Input {
	leaf: { bytes: Uint8Array; subagent: boolean; uuids: string[] };
	/** An earlier candidate file, read before the leaf. */
	earlier: Uint8Array | null;
	states: Uint8Array | null;
	postal: Uint8Array | null;
	sdkHuman: boolean;
	leafOverride: number | null;
	now: number | null;
}
const inputArb: fc.Arbitrary<Input> = fc.record({
	leaf: windowArb(SEED_FILES, 24),
	earlier: fc.option(windowArb(SEED_FILES, 12).map((w) => w.bytes), { nil: null, freq: 4 }),
	states: sideLogArb(STATE_SEEDS),
	postal: sideLogArb(POSTAL_SEEDS),
	sdkHuman: fc.boolean(),
	leafOverride: fc.option(fc.nat(), { nil: null, freq: 2 }),
	now: fc.option(fc.integer({ min: 1_700_000_000, max: 1_800_000_000 }), { nil: null })
});

// ── Harness ──────────────────────────────────────────────────────────────────────────────────

function parse(transcript: FileRecords, states: FileRecords | null, compat: Compat, subagent = false): ParseResult {
	return buildSession({ transcripts: [transcript], states }, { compat, subagent, now: 1790000000, rompUuid: 'sess', name: 'prop', dir: '/TESTDIR' });
}

/** The accounting invariants of one parse of `bytes` as FILE. */
function checkAccounting(bytes: Uint8Array, result: ParseResult, compat: Compat, stateLines: number): void {
	const lines = nonBlankLines(dec.decode(bytes));
	expect(accountingAddsUp(result)).toBe(true);
	expect(result.accounting.lines).toBe(lines.length + stateLines);
	if (compat === 'viewer') expect(misplaced(result, FILE, lines)).toEqual({ missing: [], twice: [] });
	checkBranches(result, compat);
}

/** D11: the rewound branches are additive — their lines are exactly offPath's rewound lines; none in romp mode. */
function checkBranches(result: ParseResult, compat: Compat): void {
	if (compat === 'romp') {
		expect(result.session.branches).toBeUndefined();
		return;
	}
	const inBranches = (result.session.branches ?? []).reduce((n, b) => n + b.lines, 0);
	expect(inBranches).toBe(result.offPath.filter((o) => o.reason === 'rewind').length);
}

const EARLIER = 'bbbbbbbb-1111-2222-3333-444444444444.jsonl';
const POSTAL = 'messages.jsonl';

/** Parse an Input, every file fed through `feed`. */
function parseInput(input: Input, compat: Compat, feed: (b: Uint8Array) => Uint8Array[]): ParseResult {
	const read = (name: string, b: Uint8Array | null) => (b === null ? null : readRecords(name, feed(b)));
	const { uuids } = input.leaf;
	return buildSession(
		{
			transcripts: [...(input.earlier ? [read(EARLIER, input.earlier)!] : []), read(FILE, input.leaf.bytes)!],
			states: read(STATES, input.states),
			postal: read(POSTAL, input.postal)
		},
		{
			compat,
			subagent: input.leaf.subagent,
			sdkHuman: input.sdkHuman,
			leafOverride: input.leafOverride === null ? null : (uuids[input.leafOverride % (uuids.length + 1)] ?? 'no-such-uuid'),
			now: input.now,
			dir: '/TESTDIR'
		}
	);
}

const linesOf = (b: Uint8Array | null) => (b === null ? [] : nonBlankLines(dec.decode(b)));

describe('accounting property over mutated corpus lines', () => {
	it('has seed lines', () => {
		expect(SEED_FILES.length).toBeGreaterThan(50);
		expect(STATE_SEEDS.length).toBeGreaterThan(10);
		expect(POSTAL_SEEDS.length).toBeGreaterThan(5);
	});

	it('never throws, accounts for every line, and chunked parsing equals whole parsing', () => {
		fc.assert(
			fc.property(inputArb, fc.array(fc.nat(), { maxLength: 12 }), (input, points) => {
				const files: [string, Uint8Array | null][] = [[EARLIER, input.earlier], [FILE, input.leaf.bytes], [STATES, input.states], [POSTAL, input.postal]];
				const total = files.reduce((n, [, b]) => n + linesOf(b).length, 0);
				for (const compat of ['viewer', 'romp'] as const) {
					const result = parseInput(input, compat, (b) => [b]);
					expect(accountingAddsUp(result)).toBe(true);
					expect(result.accounting.lines).toBe(total);
					if (compat === 'viewer')
						for (const [name, b] of files.slice(0, 2)) if (b) expect(misplaced(result, name, linesOf(b))).toEqual({ missing: [], twice: [] });
					expect(parseInput(input, compat, (b) => cutAt(b, points))).toEqual(result);
				}
			}),
			// LOUPE_PROPERTY_RUNS / _SEED / _PATH: long hunts and replaying a reported counterexample.
			{
				numRuns: Number(process.env.LOUPE_PROPERTY_RUNS ?? 200),
				...(process.env.LOUPE_PROPERTY_SEED ? { seed: Number(process.env.LOUPE_PROPERTY_SEED), path: process.env.LOUPE_PROPERTY_PATH } : {})
			}
		);
	});
});

// ── Explicit cases ───────────────────────────────────────────────────────────────────────────

const U1 = '{"type":"user","uuid":"u1","parentUuid":null,"timestamp":"2026-07-01T10:00:00.000Z","promptSource":"typed","message":{"role":"user","content":"hi"}}';
const assistant = (ts: unknown, extra = '') =>
	`{"type":"assistant","uuid":"a1","parentUuid":"u1",${ts === undefined ? '' : `"timestamp":${JSON.stringify(ts)},`}"message":{"role":"assistant","content":[{"type":"text","text":"reply"}],"stop_reason":"end_turn"}${extra}}`;

function both(text: string, states: string | null = null): ParseResult[] {
	const bytes = enc.encode(text);
	return (['romp', 'viewer'] as const).map((compat) => {
		const stateRecords = states === null ? null : readRecords(STATES, [states]);
		const result = parse(readRecords(FILE, [text]), stateRecords, compat);
		checkAccounting(bytes, result, compat, states === null ? 0 : nonBlankLines(states).length);
		return result;
	});
}

const issueAt = (r: ParseResult, line: number, file = FILE) => r.issues.filter((i) => i.file === file && i.line === line);

describe('must not crash (pack README) and odd inputs', () => {
	it('an emitted line without a timestamp is an issue', () => {
		// Whether the line is then dropped or kept with an inherited time is the model's choice;
		// the accounting check in both() pins that it has exactly one home either way.
		for (const r of both(`${U1}\n${assistant(undefined)}\n`)) expect(issueAt(r, 2).map((i) => i.kind)).toContain('missing-timestamp');
	});

	it('an unparseable timestamp is an issue', () => {
		for (const r of both(`${U1}\n${assistant('yesterday')}\n`)) expect(issueAt(r, 2).map((i) => i.kind)).toContain('bad-timestamp');
	});

	it('a numeric timestamp is an issue in romp mode and never a throw', () => {
		const [romp] = both(`${U1}\n${assistant(1782900000000)}\n`);
		expect(issueAt(romp, 2).length).toBeGreaterThan(0);
	});

	it('a lower-case z timestamp never throws', () => {
		both(`${U1}\n${assistant('2026-07-01t10:00:05.000z')}\n`);
	});

	it('valid JSON lines that are not objects are issues', () => {
		for (const r of both(`42\n"x"\n[]\nnull\ntrue\n${U1}\n`)) {
			for (const line of [1, 2, 3, 4, 5]) expect(issueAt(r, line).map((i) => i.kind)).toEqual(['not-object']);
			expect(r.session.turns).toHaveLength(1);
		}
	});

	it('invalid JSON and a truncated last line are issues', () => {
		for (const r of both(`{"type":\n${U1}\n${U1.slice(0, 40)}`)) {
			expect(issueAt(r, 1).length).toBe(1);
			expect(issueAt(r, 3).length).toBe(1);
		}
	});

	it('null text blocks and null content never throw', () => {
		const nullBlock = U1.replace('"content":"hi"', '"content":[null,{"type":"text","text":null},{"type":"text","text":"ok"}]');
		const nullContent = assistant('2026-07-01T10:00:05.000Z').replace('"content":[{"type":"text","text":"reply"}]', '"content":null');
		both(`${nullBlock}\n${nullContent}\n`);
	});

	it('a state log row with a string t is an issue', () => {
		const states = '{"t":"1782900000","state":"working"}\n{"t":1782900060,"state":"idle"}\n';
		for (const r of both(`${U1}\n${assistant('2026-07-01T10:00:05.000Z')}\n`, states)) {
			expect(issueAt(r, 1, STATES).map((i) => i.kind)).toEqual(['bad-state-row']);
		}
	});

	it('a parent cycle is an issue, not a hang or a throw', () => {
		const a = '{"type":"user","uuid":"c1","parentUuid":"c2","timestamp":"2026-07-01T10:00:00.000Z","message":{"role":"user","content":"one"}}';
		const b = '{"type":"user","uuid":"c2","parentUuid":"c1","timestamp":"2026-07-01T10:00:01.000Z","message":{"role":"user","content":"two"}}';
		for (const r of both(`${a}\n${b}\n`)) expect(r.issues.map((i) => i.kind)).toContain('parent-cycle');
	});

	it('an empty file and a binary file give a session and issues', () => {
		for (const r of both('')) expect(r.session.turns).toEqual([]);
		const binary = new Uint8Array(4096).map((_, k) => (k * 7919) % 256);
		for (const compat of ['romp', 'viewer'] as const) {
			const r = parse(readRecords(FILE, [binary]), null, compat);
			expect(r.issues.length).toBeGreaterThan(0);
			checkAccounting(binary, r, compat, 0);
		}
	});

	it('a line of several MB parses whole and in 64 KB chunks alike', () => {
		const big = 'naïve 数据 ✓ '.repeat(300_000) + 'end';
		const line = U1.replace('"content":"hi"', `"content":${JSON.stringify(big)}`);
		const bytes = enc.encode(`${line}\n${assistant('2026-07-01T10:00:05.000Z')}\n`);
		expect(bytes.length).toBeGreaterThan(4_000_000);
		const whole = parse(readRecords(FILE, [bytes]), null, 'viewer');
		const chunked = parse(readRecords(FILE, chunksOf(bytes, 65536)), null, 'viewer');
		expect(chunked).toEqual(whole);
		const first = whole.session.turns[0].atoms[0];
		expect((first.message!.content[0] as { text: string }).text).toBe(big);
	});
});

describe('reader rules (pack README): BOM, CRLF, blank lines, no final newline', () => {
	// Every case file rewritten with a BOM, CRLF line ends, blank lines and no final newline must
	// still give the reference output, in 5-byte chunks.
	const cases = listCases(join(ROOT, 'conformance/romp'));
	for (const c of cases.filter((x) => ['absorbed-mid-turn-prompt', 'compaction-atom-and-summary', 'idle-atom-from-state-log'].includes(x.name))) {
		it(c.name, () => {
			const rewrite = (name: string): FileRecords => {
				const text = readFileSync(join(c.dir, name), 'utf8').replace(/\n$/, '');
				const messy = '\uFEFF' + text.split('\n').join('\r\n\r\n  \r\n');
				return readRecords(name, chunksOf(enc.encode(messy), 5));
			};
			const result = buildSession(
				{ transcripts: c.transcripts.map(rewrite), states: c.states ? rewrite(c.states) : null, postal: c.postal ? rewrite(c.postal) : null },
				c.options
			);
			expect(JSON.parse(JSON.stringify(withSegments(result.session)))).toStrictEqual(c.expected);
		});
	}
});
