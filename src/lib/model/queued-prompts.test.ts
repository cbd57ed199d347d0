// Queued prompts (fixtures/model/queued-prompt-shapes): a prompt typed while Claude works is a
// queue-operation enqueue (content null or text) plus a queued_command attachment whose prompt is
// a string, a block list (text + image, or an image alone) or whitespace only. Every truthy
// prompt is an absorbed atom (reference §2.5): an image alone has empty text and author null, so
// it opens nothing; whitespace only has author null. "" and [] are no prompt. The ledger is never
// read: dead enqueues and a popAll recall show nothing and shift nothing.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords, segmentsOf } from './index.ts';
import type { Atom, Compat, ParseResult } from './index.ts';

const FILE = 'dddd4444-0000-4000-8000-000000000004.jsonl';
const PATH = resolve(__dirname, '../../../fixtures/model/queued-prompt-shapes', FILE);

function parse(compat: Compat): ParseResult {
	return buildSession({ transcripts: [readRecords(FILE, [readFileSync(PATH, 'utf8')])] }, { compat });
}
const atomsOf = (r: ParseResult): Atom[] => r.session.turns.flatMap((t) => t.atoms);
const byUuid = (r: ParseResult, u: string) => atomsOf(r).find((a) => a.uuid === u);
const image = (r: ParseResult) => (JSON.parse(readFileSync(PATH, 'utf8').split('\n')[3]) as { attachment: { prompt: unknown[] } }).attachment.prompt[0];

describe('queued prompts of every shape', () => {
	for (const compat of ['romp', 'viewer'] as Compat[]) {
		it(`${compat}: an image-only prompt is an absorbed atom with empty text and author null`, () => {
			const r = parse(compat);
			const a = byUuid(r, 'q-image')!;
			expect(a).toBeDefined();
			expect(a.absorbed).toBe(true);
			expect(a.author).toBeNull();
			expect('author' in a).toBe(true);
			expect(a.t).toBe(Date.UTC(2026, 5, 10, 13, 0, 10) / 1000);
			expect(a.message?.content).toEqual(compat === 'romp' ? [{ type: 'text', text: '' }] : [image(r)]);
		});
		it(`${compat}: a text + image prompt is a human absorbed atom`, () => {
			const r = parse(compat);
			const a = byUuid(r, 'q-mixed')!;
			expect(a.author).toBe('human');
			expect(a.message?.content).toEqual(
				compat === 'romp' ? [{ type: 'text', text: 'this is the error I see' }] : [{ type: 'text', text: 'this is the error I see' }, image(r)]
			);
		});
		it(`${compat}: a whitespace-only prompt keeps its text and has author null`, () => {
			const a = byUuid(parse(compat), 'q-blank')!;
			expect(a.absorbed).toBe(true);
			expect(a.author).toBeNull();
			expect(a.message?.content).toEqual([{ type: 'text', text: '  \n ' }]);
		});
		it(`${compat}: "" and [] are no prompt; dead enqueues and popAll show nothing`, () => {
			const r = parse(compat);
			expect(byUuid(r, 'q-empty')).toBeUndefined();
			expect(byUuid(r, 'q-empty-list')).toBeUndefined();
			expect(atomsOf(r).map((a) => a.uuid)).toEqual(['u1', 'a1', 'q-image', 'q-mixed', 'q-blank', 'r1', 'a2', 'u2', 'a3']);
			expect(r.metadata.filter((m) => m.reason === 'empty').map((m) => m.uuid)).toEqual(['q-empty', 'q-empty-list']);
			expect(r.metadata.filter((m) => m.type === 'queue-operation')).toHaveLength(11);
			const a = r.accounting;
			expect(a.atoms + a.offPath + a.metadata + a.issues).toBe(a.lines);
		});
		it(`${compat}: only the prompts with an author open segments; a prompt after end_turn opens a turn`, () => {
			const r = parse(compat);
			expect(r.session.turns.map((t) => t.trigger?.uuid)).toEqual(['u1', 'u2']);
			expect(segmentsOf(r.session.turns[0], r.session.rompUuid).map((s) => s.trigger)).toEqual(['u1', 'q-mixed']);
			// A dead enqueue shifts nothing: the newest native message is the last atom.
			expect(atomsOf(r).at(-1)?.uuid).toBe('a3');
		});
	}
});

describe('the queue ledger is never read (reference: absorbed ledger shifts)', () => {
	const T = Date.UTC(2026, 5, 10, 13, 0, 0);
	const ts = (s: number) => new Date(T + s * 1000).toISOString();
	const rows = (extra: Record<string, unknown>[]) =>
		[
			{ type: 'user', uuid: 'u1', parentUuid: null, timestamp: ts(0), promptSource: 'typed', message: { role: 'user', content: 'start' } },
			{ type: 'assistant', uuid: 'a1', parentUuid: 'u1', timestamp: ts(1), message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }], stop_reason: 'tool_use' } },
			...extra
		]
			.map((r) => JSON.stringify(r))
			.join('\n') + '\n';
	const build = (body: string, compat: Compat) => buildSession({ transcripts: [readRecords('s.jsonl', [body])] }, { compat });
	for (const compat of ['romp', 'viewer'] as Compat[]) {
		it(`${compat}: legacy shape — enqueue with text, attachment at the remove time: the atom is at the attachment's time`, () => {
			const r = build(
				rows([
					{ type: 'queue-operation', operation: 'enqueue', timestamp: ts(5), content: 'late add' },
					{ type: 'queue-operation', operation: 'remove', timestamp: ts(9) },
					{ type: 'attachment', uuid: 'q1', parentUuid: 'a1', timestamp: ts(9), attachment: { type: 'queued_command', prompt: 'late add' } },
					{ type: 'assistant', uuid: 'a2', parentUuid: 'q1', timestamp: ts(12), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' } }
				]),
				compat
			);
			const q = r.session.turns.flatMap((t) => t.atoms).find((a) => a.uuid === 'q1')!;
			expect([q.t, q.absorbed, q.author]).toEqual([T / 1000 + 9, true, 'human']);
		});
		it(`${compat}: a popAll recall renders only the re-sent native line; a remove without attachment nothing`, () => {
			const r = build(
				rows([
					{ type: 'queue-operation', operation: 'enqueue', timestamp: ts(5), content: 'draft' },
					{ type: 'queue-operation', operation: 'popAll', timestamp: ts(6) },
					{ type: 'queue-operation', operation: 'enqueue', timestamp: ts(7), content: 'other' },
					{ type: 'queue-operation', operation: 'remove', timestamp: ts(8) },
					{ type: 'user', uuid: 'r1', parentUuid: 'a1', timestamp: ts(9), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] } },
					{ type: 'assistant', uuid: 'a2', parentUuid: 'r1', timestamp: ts(10), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' } },
					{ type: 'user', uuid: 'u2', parentUuid: 'a2', timestamp: ts(30), promptSource: 'typed', message: { role: 'user', content: 'draft' } }
				]),
				compat
			);
			const atoms = r.session.turns.flatMap((t) => t.atoms);
			expect(atoms.map((a) => a.uuid)).toEqual(['u1', 'a1', 'r1', 'a2', 'u2']);
			expect(atoms.some((a) => a.absorbed)).toBe(false);
		});
	}
});
