// IncrementalBuilder: after ANY sequence of appends, build() deep-equals buildSession over the
// concatenated bytes of each file (both modes), over the conformance pack and the corpus, with
// random split points (line ends, anywhere, inside a multi-byte character) and random
// interleavings of the files. Also: earlier bytes are never parsed again, the fast path really
// runs on the common shape, and the change report names exactly the turns that differ.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildSession } from './build.ts';
import { deepEqual, IncrementalBuilder, type AppendRole, type BuildChange } from './incremental.ts';
import { readRecords } from './reader.ts';
import type { Compat, ParseOptions, ParseResult } from './types.ts';
import { listCases } from '../../../scripts/lib/romp-case.ts';
import { cutAt } from '../../../scripts/lib/chunks.ts';
import { filesUnder } from '../../../scripts/lib/files.ts';

const PACK = resolve(__dirname, '../../../fixtures/conformance/romp');
const CORPUS = resolve(__dirname, '../../../fixtures/corpus');
const enc = new TextEncoder();

interface Src {
	role: AppendRole;
	file: string;
	bytes: Uint8Array;
}
interface Scenario {
	name: string;
	sources: Src[];
	/** transcript order (leaf last) */
	order: string[];
	opts: ParseOptions;
}


const PACK_SCENARIOS: Scenario[] = listCases(PACK).map((c) => {
	const src = (role: AppendRole, f: string): Src => ({ role, file: f, bytes: readFileSync(join(c.dir, f)) });
	return {
		name: c.name,
		sources: [...c.transcripts.map((f) => src('transcript', f)), ...(c.states ? [src('states', c.states)] : []), ...(c.postal ? [src('postal', c.postal)] : [])],
		order: c.transcripts,
		opts: c.options,
	};
});

const CORPUS_SCENARIOS: Scenario[] = filesUnder(CORPUS)
	.filter((f) => f.endsWith('.jsonl'))
	.map((abs) => {
		const rel = relative(CORPUS, abs);
		return { name: rel, sources: [{ role: 'transcript', file: rel, bytes: readFileSync(abs) }], order: [rel], opts: { subagent: basename(abs).startsWith('agent-') } };
	});

/** The model's own shape fixtures (resumed files that copy each other's tails, queued prompts of
 *  every shape): the files of a case, in name order, leaf last. */
const MODEL_FIXTURES = resolve(__dirname, '../../../fixtures/model');
const SHAPE_SCENARIOS: Scenario[] = readdirSync(MODEL_FIXTURES)
	.filter((d) => statSync(join(MODEL_FIXTURES, d)).isDirectory())
	.map((d) => {
		const files = readdirSync(join(MODEL_FIXTURES, d)).filter((f) => f.endsWith('.jsonl')).sort();
		return { name: d, sources: files.map((f) => ({ role: 'transcript' as const, file: f, bytes: readFileSync(join(MODEL_FIXTURES, d, f)) })), order: files, opts: {} };
	})
	.filter((s) => s.sources.length > 0);

/** buildSession over the first `upto[i]` bytes of each source that has been appended to. */
function wholeParse(s: Scenario, upto: Map<string, number>, compat: Compat): ParseResult {
	const read = (src: Src | undefined) => (src && upto.has(src.file) ? readRecords(src.file, [src.bytes.subarray(0, upto.get(src.file))]) : null);
	const by = (role: AppendRole) => read(s.sources.find((x) => x.role === role));
	return buildSession(
		{ transcripts: s.order.map((f) => readRecords(f, [s.sources.find((x) => x.file === f)!.bytes.subarray(0, upto.get(f) ?? 0)])), states: by('states'), postal: by('postal') },
		{ ...s.opts, compat },
	);
}

/** Offsets just after each "\n", and offsets of UTF-8 continuation bytes (inside a character). */
function landmarks(b: Uint8Array): { lineEnds: number[]; inChar: number[] } {
	const lineEnds: number[] = [];
	const inChar: number[] = [];
	for (let i = 0; i < b.length; i++) {
		if (b[i] === 10) lineEnds.push(i + 1);
		else if ((b[i] & 0xc0) === 0x80) inChar.push(i);
	}
	return { lineEnds, inChar };
}

/** Chunks of b cut at points drawn from `picks`: mostly line ends, some anywhere, some inside a character. */
function cut(b: Uint8Array, picks: number[]): Uint8Array[] {
	const { lineEnds, inChar } = landmarks(b);
	const at = new Set<number>();
	for (const p of picks) {
		const kind = p % 4;
		if (kind <= 1 && lineEnds.length) at.add(lineEnds[(p >> 2) % lineEnds.length]);
		else if (kind === 2 && inChar.length) at.add(inChar[(p >> 2) % inChar.length]);
		else at.add((p >> 2) % (b.length + 1));
	}
	return cutAt(b, [...at]);
}

interface Plan {
	/** per source: cut picks */
	cuts: number[][];
	/** which source gets its next chunk at each step */
	order: number[];
	/** build after this step? */
	builds: boolean[];
	setOrderFirst: boolean;
}

/** Runs a plan; checks every build against the whole parse. Returns the paths the builds took. */
function runPlan(s: Scenario, compat: Compat, plan: Plan): BuildChange['path'][] {
	const b = new IncrementalBuilder({ ...s.opts, compat });
	const queues = s.sources.map((src, i) => ({ src, chunks: cut(src.bytes, plan.cuts[i] ?? []) }));
	const upto = new Map<string, number>();
	// The transcript order is the append order unless set; the whole parse must use the builder's.
	if (plan.setOrderFirst || s.order.length === 1) {
		b.setTranscriptOrder(s.order);
		for (const f of s.order) upto.set(f, 0);
	}
	const appendedOrder: string[] = [];
	const paths: BuildChange['path'][] = [];
	let prev: ParseResult | null = null;
	const check = () => {
		const got = b.build();
		const order = plan.setOrderFirst || s.order.length === 1 ? s.order : appendedOrder;
		const want = wholeParse({ ...s, order }, upto, compat);
		expect(got).toStrictEqual(want);
		checkChange(prev, got, b.change);
		paths.push(b.change.path);
		prev = got;
	};
	let step = 0;
	for (;;) {
		const live = queues.filter((q) => q.chunks.length);
		if (!live.length) break;
		const q = live[(plan.order[step] ?? 0) % live.length];
		const chunk = q.chunks.shift()!;
		b.append(q.src.role, q.src.file, chunk);
		if (q.src.role === 'transcript' && !appendedOrder.includes(q.src.file)) appendedOrder.push(q.src.file);
		upto.set(q.src.file, (upto.get(q.src.file) ?? 0) + chunk.length);
		if (plan.builds[step] ?? step % 3 === 0) check();
		step++;
	}
	check();
	return paths;
}

/** Turns reported unchanged are the previous objects; turns reported changed differ from them. */
function checkChange(prev: ParseResult | null, next: ParseResult, change: BuildChange): void {
	const before = prev?.session.turns ?? [];
	const changed = new Set(change.changedTurns);
	for (let i = 0; i < next.session.turns.length; i++) {
		if (changed.has(i)) expect(i < before.length && deepEqual(before[i], next.session.turns[i])).toBe(false);
		else expect(next.session.turns[i]).toBe(before[i]);
	}
	expect(change.firstChangedTurn).toBe(change.changedTurns.length ? change.changedTurns[0] : next.session.turns.length);
	expect(change.previousTurnCount).toBe(before.length);
}

const planArb = (sources: number) =>
	fc.record({
		cuts: fc.array(fc.array(fc.nat(), { maxLength: 40 }), { minLength: sources, maxLength: sources }),
		order: fc.array(fc.nat(), { maxLength: 200 }),
		builds: fc.array(fc.boolean(), { maxLength: 200 }),
		setOrderFirst: fc.boolean(),
	});

describe('IncrementalBuilder equals a whole parse after any appends', () => {
	for (const s of PACK_SCENARIOS) {
		it(`pack: ${s.name}`, () => {
			for (const compat of ['romp', 'viewer'] as const) {
				fc.assert(fc.property(planArb(s.sources.length), (plan) => void runPlan(s, compat, plan)), { numRuns: 12, seed: 8 });
			}
		});
	}
	for (const s of SHAPE_SCENARIOS) {
		it(`model shapes: ${s.name}`, () => {
			for (const compat of ['romp', 'viewer'] as const) {
				fc.assert(fc.property(planArb(s.sources.length), (plan) => void runPlan(s, compat, plan)), { numRuns: 20, seed: 8 });
			}
		});
	}
	for (const s of CORPUS_SCENARIOS) {
		it(`corpus: ${s.name}`, () => {
			const big = s.sources[0].bytes.length > 200_000;
			for (const compat of ['romp', 'viewer'] as const) {
				fc.assert(
					fc.property(planArb(1), (plan) => void runPlan(s, compat, { ...plan, builds: plan.builds.map((x, i) => x && (!big || i % 4 === 0)) })),
					{ numRuns: big ? 2 : 5, seed: 8 },
				);
			}
		});
	}
});

describe('IncrementalBuilder fast path', () => {
	afterEach(() => vi.restoreAllMocks());

	/** Appends every line of a scenario one by one (whole lines), building after each. */
	function lineByLine(s: Scenario, compat: Compat, every = 1): BuildChange['path'][] {
		const src = s.sources[0];
		const ends = landmarks(src.bytes).lineEnds;
		const picks = ends.map((_, i) => i * 4); // kind 0: the i-th line end
		return runPlan({ ...s, sources: [src] }, compat, { cuts: [picks], order: [], builds: ends.map((_, i) => i % every === 0), setOrderFirst: true });
	}

	it('extends the previous build for lines appended after the leaf (corpus, both modes)', () => {
		const counts = { fast: 0, rebuilt: 0 };
		for (const s of CORPUS_SCENARIOS.filter((x) => x.sources[0].bytes.length < 400_000)) {
			for (const compat of ['romp', 'viewer'] as const) {
				for (const p of lineByLine(s, compat, 2)) if (p === 'fast' || p === 'rebuilt') counts[p]++;
			}
		}
		// Real sessions are mostly linear: most builds must take the fast path.
		expect(counts.fast).toBeGreaterThan(counts.rebuilt * 2);
	});

	it('never parses a line twice when every build sees whole lines', () => {
		const s = CORPUS_SCENARIOS.find((x) => x.name.includes('general-tool-calls'))!;
		const lines = landmarks(s.sources[0].bytes).lineEnds.length;
		const parse = vi.spyOn(JSON, 'parse');
		const b = new IncrementalBuilder({ compat: 'viewer' });
		const ends = landmarks(s.sources[0].bytes).lineEnds;
		let prev = 0;
		for (let i = 0; i < ends.length; i += 7) {
			b.append('transcript', s.name, s.sources[0].bytes.subarray(prev, ends[i]));
			prev = ends[i];
			b.build();
		}
		b.append('transcript', s.name, s.sources[0].bytes.subarray(prev));
		b.build();
		expect(parse.mock.calls.length).toBeLessThanOrEqual(lines);
		expect(parse.mock.calls.length).toBeGreaterThan(lines * 0.9);
	});
});

// ── hand-made sessions: what the change report says ──────────────────────────────────────────

const T0 = Date.parse('2026-10-01T09:00:00.000Z');
const ts = (s: number) => new Date(T0 + s * 1000).toISOString();
const line = (o: Record<string, unknown>) => JSON.stringify({ sessionId: 's', ...o }) + '\n';
const user = (uuid: string, parent: string | null, s: number, text: string) =>
	line({ type: 'user', uuid, parentUuid: parent, timestamp: ts(s), promptSource: 'typed', message: { role: 'user', content: text } });
const toolCall = (uuid: string, parent: string, s: number, id: string, msg: string) =>
	line({ type: 'assistant', uuid, parentUuid: parent, timestamp: ts(s), message: { id: msg, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }], stop_reason: null } });
const toolResult = (uuid: string, parent: string, s: number, id: string) =>
	line({ type: 'user', uuid, parentUuid: parent, timestamp: ts(s), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
const reply = (uuid: string, parent: string, s: number, msg: string, text: string, stop: string | null) =>
	line({ type: 'assistant', uuid, parentUuid: parent, timestamp: ts(s), message: { id: msg, role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop } });

describe('IncrementalBuilder change report', () => {
	const F = 'sess.jsonl';
	function start(compat: Compat) {
		const b = new IncrementalBuilder({ compat });
		b.append('transcript', F, user('u1', null, 0, 'first question') + reply('a1', 'u1', 1, 'm1', 'first answer', 'end_turn'));
		b.append('transcript', F, user('u2', 'a1', 10, 'second question') + toolCall('a2', 'u2', 11, 'tool-1', 'm2'));
		return b;
	}

	it('a running tool that finishes changes only the last turn', () => {
		for (const compat of ['romp', 'viewer'] as const) {
			const b = start(compat);
			const before = b.build();
			expect(before.session.turns).toHaveLength(2);
			b.append('transcript', F, toolResult('r1', 'a2', 12, 'tool-1'));
			const after = b.build();
			expect(b.change.path).toBe('fast');
			expect(b.change.changedTurns).toEqual([1]);
			expect(after.session.turns[0]).toBe(before.session.turns[0]);
			expect(after.session.turns[1].atoms.map((a) => a.uuid)).toEqual(['u2', 'a2', 'r1']);
		}
	});

	it('a reply landing ends the turn; the next prompt opens a new one and leaves the ended turn alone', () => {
		const b = start('viewer');
		b.build();
		b.append('transcript', F, toolResult('r1', 'a2', 12, 'tool-1') + reply('a3', 'r1', 13, 'm3', 'done', null));
		const ended = b.build();
		expect(b.change.changedTurns).toEqual([1]);
		expect(ended.session.turns[1].ended).toBe(true); // D1: the null stop_reason recovered as end_turn
		b.append('transcript', F, user('u3', 'a3', 20, 'third question'));
		const next = b.build();
		expect(b.change.path).toBe('fast');
		expect(b.change.changedTurns).toEqual([2]);
		expect(b.change.firstChangedTurn).toBe(2);
		expect(next.session.turns[1]).toBe(ended.session.turns[1]);
	});

	it('a second line of the same message moves the recovered stop_reason to it (viewer)', () => {
		const b = new IncrementalBuilder({ compat: 'viewer' });
		b.append('transcript', F, user('u1', null, 0, 'q') + reply('a1', 'u1', 1, 'm1', 'part one', null));
		const one = b.build();
		expect(one.session.turns[0].atoms[1].message?.stop_reason).toBe('end_turn');
		b.append('transcript', F, toolCall('a2', 'a1', 2, 'tool-9', 'm1'));
		const two = b.build();
		expect(b.change.path).toBe('fast');
		const [, first, second] = two.session.turns[0].atoms;
		expect(first.message?.stop_reason).toBeUndefined();
		expect(second.message?.stop_reason).toBe('tool_use');
		expect(two).toStrictEqual(buildSession({ transcripts: [readRecords(F, [enc.encode(user('u1', null, 0, 'q') + reply('a1', 'u1', 1, 'm1', 'part one', null) + toolCall('a2', 'a1', 2, 'tool-9', 'm1'))])] }, { compat: 'viewer' }));
	});

	it('a rewind rebuilds from the records already read, and still equals the whole parse', () => {
		const b = start('viewer');
		b.build();
		const text = user('u1', null, 0, 'first question') + reply('a1', 'u1', 1, 'm1', 'first answer', 'end_turn') + user('u2', 'a1', 10, 'second question') + toolCall('a2', 'u2', 11, 'tool-1', 'm2');
		const rewind = user('u9', 'a1', 30, 'second question, asked differently');
		b.append('transcript', F, rewind);
		const got = b.build();
		expect(b.change.path).toBe('rebuilt');
		expect(b.change.changedTurns).toEqual([1]);
		expect(got).toStrictEqual(buildSession({ transcripts: [readRecords(F, [enc.encode(text + rewind)])] }, { compat: 'viewer' }));
	});

	it('a line still being written is a reader issue on the fast path; a finished one without newline is read as a record', () => {
		const b = start('viewer');
		b.build();
		const r = toolResult('r1', 'a2', 12, 'tool-1');
		b.append('transcript', F, r.slice(0, 40));
		const partial = b.build();
		expect(b.change.path).toBe('fast');
		expect(partial.issues.map((i) => i.kind)).toEqual(['truncated-line']);
		b.append('transcript', F, r.slice(40, -1));
		const whole = b.build();
		expect(b.change.path).toBe('snapshot');
		expect(whole.issues).toEqual([]);
		expect(whole.session.turns[1].atoms.map((a) => a.uuid)).toEqual(['u2', 'a2', 'r1']);
		b.append('transcript', F, '\n');
		b.build();
		expect(b.change.path).toBe('fast');
	});

	it('a new candidate file, or a new order, rebuilds (the leaf and every fsid may change)', () => {
		const b = start('romp');
		b.build();
		const earlier = 'earlier.jsonl';
		const head = user('u0', null, -100, 'an older question');
		b.append('transcript', earlier, head);
		const two = b.build();
		expect(b.change.path).toBe('rebuilt');
		const text = user('u1', null, 0, 'first question') + reply('a1', 'u1', 1, 'm1', 'first answer', 'end_turn') + user('u2', 'a1', 10, 'second question') + toolCall('a2', 'u2', 11, 'tool-1', 'm2');
		const rec = (name: string, t: string) => readRecords(name, [t]);
		// Transcripts keep their first-append order: the new file is now the leaf.
		expect(two).toStrictEqual(buildSession({ transcripts: [rec(F, text), rec(earlier, head)] }, { compat: 'romp' }));
		b.setTranscriptOrder([earlier, F]);
		expect(b.build()).toStrictEqual(buildSession({ transcripts: [rec(earlier, head), rec(F, text)] }, { compat: 'romp' }));
		expect(b.change.path).toBe('rebuilt');
	});

	it('build() without appends returns the same result', () => {
		const b = start('romp');
		const one = b.build();
		expect(b.build()).toBe(one);
		expect(b.change.path).toBe('unchanged');
		expect(b.change.changedTurns).toEqual([]);
	});

	it('setting the same transcript order again changes nothing', () => {
		const b = start('romp');
		const earlier = 'earlier.jsonl';
		b.append('transcript', earlier, user('u0', null, -100, 'an older question'));
		b.setTranscriptOrder([earlier, F]);
		const one = b.build();
		b.setTranscriptOrder([earlier, F]);
		expect(b.build()).toBe(one);
		expect(b.change.path).toBe('unchanged');
	});
});

// ── generated sessions: every line shape the fast path must judge ───────────────────────────

const lineArb = fc.record({
	kind: fc.constantFrom('prompt', 'command', 'skill-call', 'skill-text', 'reply', 'reply-null', 'tool', 'result', 'progress', 'no-uuid', 'no-uuid-user', 'meta', 'summary', 'queued', 'system-note', 'sidechain', 'boundary', 'bad-json'),
	/** parent: 0 = the previous uuid line, 1 = an earlier one (a branch), 2 = none */
	parent: fc.constantFrom(0, 0, 0, 0, 0, 1, 2),
	back: fc.nat(),
	/** seconds after the previous line (negative: out of order); null: no timestamp */
	dt: fc.option(fc.integer({ min: -3, max: 30 }), { nil: null, freq: 8 }),
	msg: fc.constantFrom('m1', 'm2', 'm3', 'fresh'),
	tool: fc.constantFrom('t1', 't2', 't3'),
	pid: fc.constantFrom('p1', 'p2', null),
	dupUuid: fc.boolean(),
});

type LineSpec = typeof lineArb extends fc.Arbitrary<infer T> ? T : never;

function sessionText(specs: LineSpec[]): string[] {
	const out: string[] = [];
	const uuids: string[] = [];
	let t = 0;
	let n = 0;
	for (const s of specs) {
		n++;
		if (s.dt !== null) t += s.dt;
		const uuid = s.dupUuid && uuids.length && s.back % 7 === 0 ? uuids[s.back % uuids.length] : `u${n}`;
		const parent = s.parent === 2 || !uuids.length ? null : s.parent === 1 ? uuids[s.back % uuids.length] : uuids[uuids.length - 1];
		const base: Record<string, unknown> = { sessionId: 's', uuid, parentUuid: parent, ...(s.dt === null ? {} : { timestamp: ts(t) }) };
		const msgId = s.msg === 'fresh' ? `m-${n}` : s.msg;
		let v: Record<string, unknown> | string;
		switch (s.kind) {
			case 'prompt': v = { ...base, type: 'user', promptId: s.pid, message: { role: 'user', content: `question ${n % 3}` } }; break;
			case 'command': v = { ...base, type: 'user', promptId: s.pid, message: { role: 'user', content: '<command-name>/clear</command-name>' } }; break;
			case 'skill-call': v = { ...base, type: 'assistant', message: { id: msgId, role: 'assistant', content: [{ type: 'tool_use', id: s.tool, name: 'Skill', input: {} }], stop_reason: null } }; break;
			case 'skill-text': v = { ...base, type: 'user', sourceToolUseID: s.tool, message: { role: 'user', content: [{ type: 'text', text: 'skill body' }] } }; break;
			case 'reply': v = { ...base, type: 'assistant', message: { id: msgId, role: 'assistant', content: [{ type: 'text', text: `answer ${n}` }], stop_reason: 'end_turn' } }; break;
			case 'reply-null': v = { ...base, type: 'assistant', message: { id: msgId, role: 'assistant', content: [{ type: 'text', text: `part ${n}` }], stop_reason: null } }; break;
			case 'tool': v = { ...base, type: 'assistant', message: { id: msgId, role: 'assistant', content: [{ type: 'tool_use', id: s.tool, name: 'Bash', input: {} }], stop_reason: null } }; break;
			case 'result': v = { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: s.tool, content: 'ok' }] } }; break;
			case 'progress': v = { ...base, type: 'progress', data: { n } }; break;
			case 'no-uuid': v = { type: 'file-history-snapshot', messageId: `x${n}`, ...(s.dt === null ? {} : { timestamp: ts(t) }) }; break;
			case 'no-uuid-user': v = { type: 'user', message: { role: 'user', content: 'lost' }, ...(s.dt === null ? {} : { timestamp: ts(t) }) }; break;
			case 'meta': v = { ...base, type: 'user', isMeta: true, message: { role: 'user', content: 'caveat' } }; break;
			case 'summary': v = { ...base, type: 'user', isCompactSummary: true, message: { role: 'user', content: 'summary of before' } }; break;
			case 'queued': v = { ...base, type: 'attachment', attachment: { type: 'queued_command', prompt: `queued ${n % 2}` } }; break;
			case 'system-note': v = { ...base, type: 'system', subtype: 'informational', content: 'note' }; break;
			case 'sidechain': v = { ...base, type: 'assistant', isSidechain: true, message: { id: msgId, role: 'assistant', content: [{ type: 'text', text: 'side' }], stop_reason: 'end_turn' } }; break;
			case 'boundary': v = { ...base, type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger: 'auto', preTokens: 5 } }; break;
			default: v = '{"broken": '; break;
		}
		if (typeof v !== 'string' && s.kind !== 'no-uuid' && s.kind !== 'no-uuid-user') uuids.push(uuid);
		out.push((typeof v === 'string' ? v : JSON.stringify(v)) + '\n');
	}
	return out;
}

describe('IncrementalBuilder over generated sessions, built after every line', () => {
	it('equals the whole parse at every step (both modes, main and subagent files, with a state log)', () => {
		fc.assert(
			fc.property(fc.array(lineArb, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean(), (specs, subagent, withStates) => {
				const lines = sessionText(specs);
				const states = withStates ? [JSON.stringify({ t: T0 / 1000 + 5, state: 'idle' }) + '\n', JSON.stringify({ t: T0 / 1000 + 50, state: 'working' }) + '\n'] : [];
				for (const compat of ['romp', 'viewer'] as const) {
					const b = new IncrementalBuilder({ compat, subagent });
					let text = '';
					let stateText = '';
					lines.forEach((l, i) => {
						b.append('transcript', 'f.jsonl', l);
						text += l;
						if (states[i]) {
							b.append('states', 'st.jsonl', states[i]);
							stateText += states[i];
						}
						const want = buildSession({ transcripts: [readRecords('f.jsonl', [text])], states: stateText ? readRecords('st.jsonl', [stateText]) : null }, { compat, subagent });
						expect(b.build()).toStrictEqual(want);
					});
				}
			}),
			{ numRuns: 150, seed: 21 },
		);
	});
});
