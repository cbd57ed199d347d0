// Search on rewound branches (fields.ts over the chat's fold rows): text on an abandoned branch
// is found, flagged `rewound`, and its landing opens the fold (and a nested fold inside it).
import { describe, expect, it } from 'vitest';
import { buildChatRows } from '../chat/rows.ts';
import { fixtureSession } from '../chat/test-fixtures.ts';
import type { ChatRow } from '../chat/types.ts';
import { fieldsOfRows } from './fields.ts';
import { compileQuery } from './query.ts';
import { scanFields } from './scan.ts';

function search(rows: ChatRow[], q: string) {
	const fields = fieldsOfRows(rows);
	const c = compileQuery(q);
	if (!c.ok) throw new Error(c.error);
	return scanFields(fields, 0, fields.length, c.matcher, undefined, 'S', 100).hits;
}
const foldKeys = (rows: ChatRow[]) => rows.filter((r) => r.kind === 'branch').map((r) => r.key);

describe('search on rewound branches', () => {
	it('finds text on a branch, flags it, lands on the fold row and opens it', () => {
		const rows = buildChatRows(fixtureSession('rewind'));
		const hits = search(rows, 'zebracorn');
		// the prompt, the Bash command and the closing reply, all on the branch
		expect(hits.map((h) => h.atomUuid)).toEqual(['u2', 'a2', 'a3']);
		expect(hits.every((h) => h.rewound)).toBe(true);
		const [fold] = foldKeys(rows);
		for (const h of hits) {
			expect(rows[h.row].kind).toBe('branch');
			expect(h.opens[0]).toEqual({ key: fold, defaultOpen: false });
		}
		// text on the kept path is not flagged
		const kept = search(rows, 'test script');
		expect(kept.length).toBeGreaterThan(0);
		expect(kept.some((h) => h.rewound)).toBe(false);
	});

	it('a hit on a nested branch opens both folds, outermost first', () => {
		const rows = buildChatRows(fixtureSession('rewind-nested'));
		const [hit] = search(rows, 'platypine');
		expect(hit.atomUuid).toBe('a4');
		expect(hit.rewound).toBe(true);
		const outer = rows[hit.row];
		expect(outer.kind).toBe('branch');
		const inner = outer.kind === 'branch' ? outer.branchRows.find((r) => r.kind === 'branch')! : null;
		expect(hit.opens.map((o) => o.key)).toEqual([outer.key, inner!.key]);
	});
});
