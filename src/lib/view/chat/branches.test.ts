// Rewound branches in the chat (branches.ts, rows.ts) on fixtures/model/rewind and rewind-nested:
// the fold row sits right after the row the branch left from, reads "Rewound here — N messages,
// M tool calls, $X" (cost from the price table, "≥" / "unpriced" when calls have no price),
// carries the abandoned rows in order, and nests a branch rewound inside it.
import { describe, expect, it } from 'vitest';
import { callCost } from '../usage/prices.ts';
import { formatUsd } from '../usage/format.ts';
import { branchLabel } from './branches.ts';
import { buildChatRows, rowIndexOf } from './rows.ts';
import { fixtureSession } from './test-fixtures.ts';
import type { BranchRow, ChatRow } from './types.ts';

const kinds = (rows: ChatRow[]) => rows.map((r) => r.kind);
const branchesOf = (rows: ChatRow[]) => rows.filter((r): r is BranchRow => r.kind === 'branch');
/** The fixture's Sonnet 4.5 call (120 in, 2000 cache read, 300 cache write, `out` out) at the price table's rates. */
const sonnet = (out: number) => callCost('claude-sonnet-4-5-20250929', Date.UTC(2026, 2, 3), { input: 120, output: out, cacheRead: 2000, cacheWrite: 300, cacheWrite5m: 300, cacheWrite1h: 0, webSearches: 0 })!;

describe('branch rows', () => {
	it('a fold after the reply it left from, with the abandoned rows in order', () => {
		const rows = buildChatRows(fixtureSession('rewind'));
		expect(kinds(rows)).toEqual(['user', 'assistant', 'branch', 'user', 'tool', 'assistant']);
		const fold = rows[2] as BranchRow;
		expect(fold.forkUuid).toBe('a1');
		expect(fold.turnIndex).toBe(rows[1].turnIndex);
		expect(kinds(fold.branchRows)).toEqual(['user', 'tool', 'assistant']);
		expect(fold.branchRows[0].kind === 'user' && fold.branchRows[0].text).toContain('zebracorn');
		// two messages (the prompt, the closing reply), one Bash call, two priced API calls
		expect(fold.label).toBe(`Rewound here — 2 messages, 1 tool call, ${formatUsd(sonnet(900) + sonnet(600))}`);
		expect(fold.atomUuids).toEqual(expect.arrayContaining(['u2', 'a2', 'r2', 'a3']));
		expect(fold.defaultOpen).toBe(false);
		expect(rowIndexOf(fold)).toMatchObject({ kind: 'branch', preview: fold.label });
		// the abandoned rows are not on the main path
		expect(rows.filter((r) => r.kind !== 'branch').flatMap((r) => r.atomUuids)).not.toContain('u2');
	});

	it('a branch inside a branch nests; two rewinds are two folds; counts and cost include the nested one', () => {
		const rows = buildChatRows(fixtureSession('rewind-nested'));
		expect(kinds(rows)).toEqual(['user', 'assistant', 'branch', 'user', 'assistant', 'branch', 'user', 'assistant']);
		const [outer, second] = branchesOf(rows);
		expect(kinds(outer.branchRows)).toEqual(['user', 'tool', 'assistant', 'branch', 'user', 'tool', 'assistant']);
		const inner = branchesOf(outer.branchRows)[0];
		expect(kinds(inner.branchRows)).toEqual(['user', 'assistant']);
		expect(inner.label).toBe(`Rewound here — 2 messages, 0 tool calls, ${formatUsd(sonnet(300))}`);
		const outerUsd = sonnet(500) + sonnet(700) + sonnet(200) + sonnet(100) + sonnet(300);
		expect(outer.label).toBe(`Rewound here — 6 messages, 2 tool calls, ${formatUsd(outerUsd)}`);
		expect(second.forkUuid).toBe('a7');
		expect(kinds(second.branchRows)).toEqual(['user', 'assistant']);
		// keys are unique across the nesting
		const keys: string[] = [];
		const walk = (rs: ChatRow[]) => rs.forEach((r) => (keys.push(r.key), r.kind === 'branch' && walk(r.branchRows)));
		walk(rows);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it('no $0 it cannot know: unpriced calls make "≥ $X" or "unpriced"', () => {
		const unknownModel = (v: Record<string, unknown>) => {
			const m = v.message as Record<string, unknown>;
			if (v.type === 'assistant' && (v.uuid === 'a3' || v.uuid === 'a2')) m.model = 'acme-unpriced-1';
		};
		const none = branchesOf(buildChatRows(fixtureSession('rewind', unknownModel)))[0];
		expect(none.cost).toBe('unpriced');
		expect(none.label).toBe('Rewound here — 2 messages, 1 tool call, unpriced');
		const partly = branchesOf(buildChatRows(fixtureSession('rewind', (v) => v.uuid === 'a3' && unknownModel(v))))[0];
		expect(partly.cost).toBe(`≥ ${formatUsd(sonnet(900))}`);
	});

	it('labels say singular and plural, and leave the cost out without calls', () => {
		expect(branchLabel(1, 1, null)).toBe('Rewound here — 1 message, 1 tool call');
		expect(branchLabel(3, 0, '$0.10')).toBe('Rewound here — 3 messages, 0 tool calls, $0.10');
	});

	it('a live tail rebuild (fromTurn) puts a fold only with the rows it builds', () => {
		const s = fixtureSession('rewind');
		const all = buildChatRows(s);
		const tail = buildChatRows(s, {}, { fromTurn: 1 });
		expect(tail.some((r) => r.kind === 'branch')).toBe(false);
		expect(all.filter((r) => r.turnIndex >= 1).map((r) => r.key)).toEqual(tail.map((r) => r.key));
	});
});
