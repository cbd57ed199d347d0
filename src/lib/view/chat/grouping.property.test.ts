// The grouping invariants over random turns (fast-check): order is preserved, nothing is lost or
// duplicated, a thought or plan update between two calls never splits them, and anything else —
// or a turn boundary — always does.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Atom } from '../../model/types';
import { buildChatRows } from './rows';
import { assistant, call, resetClock, session, text, thinking, turn, user } from './test-builders';
import type { ChatRow } from './types';

type Step = 'call' | 'thought' | 'plan' | 'prose' | 'question' | 'error' | 'delegation' | 'turn';
const STEP: fc.Arbitrary<Step> = fc.constantFrom('call', 'call', 'call', 'thought', 'thought', 'plan', 'prose', 'question', 'error', 'delegation', 'turn');

/** Builds a session from steps; returns it and, per step, the id that identifies its item. */
function build(steps: Step[]): { rows: ChatRow[]; ids: { step: Step; id: string; turn: number }[] } {
	resetClock();
	const turns: Atom[][] = [[user('u0', 'start')]];
	const ids: { step: Step; id: string; turn: number }[] = [];
	steps.forEach((s, i) => {
		const cur = turns[turns.length - 1];
		const t = turns.length - 1;
		switch (s) {
			case 'turn':
				turns.push([user(`ut${i}`, `prompt ${i}`)]);
				return;
			case 'call':
				cur.push(...call(`c${i}`, i % 2 ? 'Bash' : 'Read', { command: 'x', file_path: `/f${i}` }));
				ids.push({ step: s, id: `c${i}`, turn: t });
				return;
			case 'plan':
				cur.push(...call(`p${i}`, 'TodoWrite', { todos: [{ content: 'a', status: 'pending' }] }));
				ids.push({ step: s, id: `p${i}`, turn: t });
				return;
			case 'thought':
				cur.push(assistant(`th${i}`, [thinking(`t${i}`)]));
				ids.push({ step: s, id: `th${i}`, turn: t });
				return;
			case 'prose':
				cur.push(assistant(`pr${i}`, [text(`prose ${i}`)], { messageId: `m${i}` }));
				ids.push({ step: s, id: `pr${i}`, turn: t });
				return;
			case 'question':
				cur.push(...call(`q${i}`, 'AskUserQuestion', { questions: [] }));
				ids.push({ step: s, id: `q${i}`, turn: t });
				return;
			case 'delegation':
				cur.push(...call(`d${i}`, 'Task', { prompt: 'p' }));
				ids.push({ step: s, id: `d${i}`, turn: t });
				return;
			case 'error':
				cur.push(assistant(`e${i}`, [text('API Error: 500')], { isApiError: true, stop: 'stop_sequence' }));
				ids.push({ step: s, id: `e${i}`, turn: t });
		}
	});
	return { rows: buildChatRows(session(turns.map((a) => turn(a)))), ids };
}

/** For each step id, the index of the top-level row that holds it. */
function rowOf(rows: ChatRow[], id: string): number {
	const atom = /^[cpqd]\d/.test(id) ? `a_${id}` : id;
	return rows.findIndex((r) => r.atomUuids.includes(atom));
}

describe('grouping invariants (property)', () => {
	it('order is preserved and every item lands in exactly one top-level row', () => {
		fc.assert(
			fc.property(fc.array(STEP, { maxLength: 60 }), (steps) => {
				const { rows, ids } = build(steps);
				const at = ids.map((x) => rowOf(rows, x.id));
				expect(at.every((i) => i >= 0)).toBe(true);
				for (let k = 1; k < at.length; k++) expect(at[k]).toBeGreaterThanOrEqual(at[k - 1]);
				const keys = rows.map((r) => r.key);
				expect(new Set(keys).size).toBe(keys.length);
			}),
			{ numRuns: 300 }
		);
	});

	it('two calls separated only by thoughts / plan updates share a row; anything else splits them', () => {
		fc.assert(
			fc.property(fc.array(STEP, { maxLength: 60 }), (steps) => {
				const { rows, ids } = build(steps);
				const calls = ids.map((x, k) => ({ ...x, k })).filter((x) => x.step === 'call');
				for (let n = 1; n < calls.length; n++) {
					const a = calls[n - 1];
					const b = calls[n];
					const between = ids.slice(a.k + 1, b.k);
					const onlyHeld = a.turn === b.turn && between.every((x) => x.step === 'thought' || x.step === 'plan');
					const same = rowOf(rows, a.id) === rowOf(rows, b.id);
					expect(same).toBe(onlyHeld);
				}
			}),
			{ numRuns: 300 }
		);
	});

	it('a thought or plan never sits in a group unless a call follows it in the same run', () => {
		fc.assert(
			fc.property(fc.array(STEP, { maxLength: 60 }), (steps) => {
				const { rows } = build(steps);
				for (const r of rows) {
					if (r.kind !== 'tool-group') continue;
					expect(r.entries[0].kind).toBe('tool');
					const last = r.entries[r.entries.length - 1];
					expect(last.kind === 'tool' && last.call.verb !== 'plan').toBe(true);
				}
			}),
			{ numRuns: 300 }
		);
	});
});
