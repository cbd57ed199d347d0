// Never throws, loses nothing: every adapter, fed mutated versions of the corpus files (fields
// dropped or replaced by odd values, lines broken, duplicated, shuffled, non-objects), returns a
// result whose accounting balances and whose session has only well-formed atoms.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseCodex } from '../codex/parse.ts';
import { parseGeminiDocument, parseGeminiRecords } from '../gemini/parse.ts';
import { parseStrapDocument } from '../strap/parse.ts';
import { parsePi } from '../pi/parse.ts';
import { parseCursor } from '../cursor/parse.ts';
import { parseOpenCode, type OpenCodeDoc } from '../opencode/parse.ts';
import { readRecords } from '../reader.ts';
import type { ParseResult } from '../types.ts';
import { balanced, fixtureText } from './test-helpers.ts';

const CODEX = [
	'codex/_authored__harness-corpus/sessions/2025/08/20/rollout-2025-08-20T09-00-00-aaaaaaaa-0000-4000-8000-000000000001.jsonl',
	'codex/_authored__harness-corpus/sessions/2025/12/20/rollout-2025-12-20T10-00-00-bbbbbbbb-0000-7000-8000-000000000002.jsonl',
	'codex/_authored__harness-corpus/sessions/2026/04/10/rollout-2026-04-10T08-00-00-cccccccc-0000-7000-8000-000000000003.jsonl'
];
const GEMINI_JSONL = 'gemini/_authored__harness-corpus/tmp/calc-project/chats/session-2026-04-20T09-00-d4c1f0aa.jsonl';
const GEMINI_JSON = 'gemini/kenn-io__agentsview/internal/parser/testdata/gemini/tool_calls_with_results.json';
const STRAP = ['v0.2', 'v0.3', 'v0.4'].map((v) => `strap/_authored__harness-corpus/state-${v}.json`);

const WEIRD: unknown[] = [null, 0, -1, 1e308, '', 'x', [], {}, [null], { type: 'text' }, true, '2026-13-45T99:99:99Z', 'NaN', { $set: 1 }, [{ functionResponse: null }]];

/** Replace the value at a pseudo-random path of a JSON value (deterministic from `seed`). */
function mutate(v: unknown, seed: number, weird: unknown, drop: boolean): unknown {
	if (typeof v !== 'object' || v === null) return weird;
	const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v);
	if (!keys.length) return weird;
	const k = keys[seed % keys.length];
	const copy: Record<string | number, unknown> | unknown[] = Array.isArray(v) ? [...v] : { ...(v as object) };
	const child = (copy as Record<string | number, unknown>)[k];
	const deeper = (seed >> 3) % 3 !== 0 && typeof child === 'object' && child !== null;
	if (deeper) (copy as Record<string | number, unknown>)[k] = mutate(child, Math.floor(seed / 7) + 1, weird, drop);
	else if (drop && !Array.isArray(copy)) delete (copy as Record<string, unknown>)[k as string];
	else (copy as Record<string | number, unknown>)[k] = weird;
	return copy;
}

interface Op {
	at: number;
	seed: number;
	weird: unknown;
	kind: 'mutate' | 'drop' | 'truncate' | 'duplicate' | 'nonObject' | 'swap';
}
const opArb: fc.Arbitrary<Op> = fc.record({ at: fc.nat(), seed: fc.nat(), weird: fc.constantFrom(...WEIRD), kind: fc.constantFrom<Op['kind'][]>('mutate', 'drop', 'truncate', 'duplicate', 'nonObject', 'swap') });

function mutateLines(text: string, ops: Op[]): string {
	const lines = text.split('\n').filter((l) => l.trim());
	for (const op of ops) {
		if (!lines.length) break;
		const i = op.at % lines.length;
		let v: unknown;
		try {
			v = JSON.parse(lines[i]);
		} catch {
			v = lines[i];
		}
		if (op.kind === 'mutate' || op.kind === 'drop') lines[i] = JSON.stringify(mutate(v, op.seed, op.weird, op.kind === 'drop')) ?? 'null';
		else if (op.kind === 'truncate') lines[i] = lines[i].slice(0, op.seed % Math.max(1, lines[i].length));
		else if (op.kind === 'duplicate') lines.splice(i, 0, lines[i]);
		else if (op.kind === 'nonObject') lines[i] = JSON.stringify(op.weird) ?? 'null';
		else {
			const j = op.seed % lines.length;
			[lines[i], lines[j]] = [lines[j], lines[i]];
		}
	}
	return lines.join('\n');
}

function wellFormed(r: ParseResult): void {
	expect(balanced(r)).toBe(true);
	// Every record found its own home; the draft's fallback for unplaced lines never fires.
	expect(r.metadata.filter((m) => m.type === 'unplaced')).toEqual([]);
	for (const t of r.session.turns) {
		for (const a of t.atoms) {
			expect(typeof a.uuid).toBe('string');
			if (a.message) expect(Array.isArray(a.message.content)).toBe(true);
		}
	}
}

const runs = { numRuns: 60 };

describe('adapters never throw on mutated input', () => {
	test('Codex rollouts (all three generations)', () => {
		fc.assert(
			fc.property(fc.constantFrom(...CODEX), fc.array(opArb, { minLength: 1, maxLength: 8 }), (file, ops) => {
				wellFormed(parseCodex(readRecords('m.jsonl', [mutateLines(fixtureText(file), ops)])));
			}),
			runs
		);
	});

	test('pi sessions', () => {
		fc.assert(
			fc.property(fc.constantFrom('pi/kenn-io__agentsview/internal/parser/testdata/pi/session.jsonl', 'pi/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/pi/small.jsonl'), fc.array(opArb, { minLength: 1, maxLength: 8 }), (file, ops) => {
				wellFormed(parsePi(readRecords('m.jsonl', [mutateLines(fixtureText(file), ops)])));
			}),
			runs
		);
	});

	test('Cursor transcripts', () => {
		fc.assert(
			fc.property(fc.array(opArb, { minLength: 1, maxLength: 8 }), (ops) => {
				wellFormed(parseCursor(readRecords('m.jsonl', [mutateLines(fixtureText('cursor/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/cursor/large.jsonl'), ops)])));
			}),
			runs
		);
	});

	test('OpenCode sessions (mutated documents)', () => {
		const base = 'opencode/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/opencode/storage_v2';
		const rel = ['session/proj_test/ses_s_stage0_large.json', 'message/s_stage0_large/msg_0001.json', 'message/s_stage0_large/msg_0002.json', ...['001', '002', '003', '004', '005', '006', '007', '008'].map((n) => `part/m_assistant_large_1/${n}.json`), 'part/m_user_large_1/001.json'];
		const docs = rel.map((r) => ({ path: r, doc: JSON.parse(fixtureText(`${base}/${r}`)) }));
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...WEIRD), fc.boolean()), { minLength: 1, maxLength: 6 }), (ops) => {
				const ds: OpenCodeDoc[] = docs.map((d) => ({ ...d }));
				for (const [which, seed, weird, drop] of ops) {
					const k = which % ds.length;
					const m = mutate(ds[k].doc, seed, weird, drop);
					ds[k] = { path: ds[k].path, doc: (typeof m === 'object' && m !== null && !Array.isArray(m) ? m : {}) as Record<string, unknown> };
				}
				const parts = new Map<string, OpenCodeDoc[]>();
				for (const d of ds.slice(3)) parts.set(d.path.split('/')[1], [...(parts.get(d.path.split('/')[1]) ?? []), d]);
				wellFormed(parseOpenCode({ id: 's', file: 'ses.json', session: ds[0], messages: ds.slice(1, 3), parts, orphans: [] }));
			}),
			runs
		);
	});

	test('Gemini CLI JSONL', () => {
		fc.assert(
			fc.property(fc.array(opArb, { minLength: 1, maxLength: 8 }), (ops) => {
				wellFormed(parseGeminiRecords(readRecords('m.jsonl', [mutateLines(fixtureText(GEMINI_JSONL), ops)])));
			}),
			runs
		);
	});

	test('Gemini CLI legacy JSON and Strap states (mutated documents)', () => {
		const docs = [GEMINI_JSON, ...STRAP];
		fc.assert(
			fc.property(fc.constantFrom(...docs), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...WEIRD), fc.boolean()), { minLength: 1, maxLength: 6 }), (file, ops) => {
				let doc: unknown = JSON.parse(fixtureText(file));
				for (const [seed, weird, drop] of ops) doc = mutate(doc, seed, weird, drop);
				wellFormed(file.startsWith('strap') ? parseStrapDocument(file, doc) : parseGeminiDocument(file, doc));
			}),
			runs
		);
	});
});
