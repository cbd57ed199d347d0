// The history scope's sessions: the facets pick them, and they come grouped by project (the one
// with the newest session first), newest first inside each, undated last.
import { describe, expect, it } from 'vitest';
import type { SearchField } from './fields.ts';
import { historyKeys, NO_FACETS } from './history-facets.ts';
import { inScope } from './scan.ts';

const day = (s: string, h = 12) => new Date(`${s}T${String(h).padStart(2, '0')}:00:00`).getTime();
const list = [
	{ key: 'a1', project: 'p/a', harness: 'agent-one', startedAt: day('2026-03-01') },
	{ key: 'b1', project: 'p/b', harness: 'agent-two', startedAt: day('2026-03-05') },
	{ key: 'a2', project: 'p/a', harness: 'agent-one', startedAt: day('2026-03-09', 0) },
	{ key: 'a3', project: 'p/a', harness: 'agent-two', startedAt: null },
	{ key: 'b2', project: 'p/b', harness: 'agent-one', startedAt: day('2026-03-09', 23) }
];

describe('historyKeys', () => {
	it('groups by project, newest first, undated last', () => {
		expect(historyKeys(list, NO_FACETS)).toEqual(['b2', 'b1', 'a2', 'a1', 'a3']);
	});
	it('project and harness facets', () => {
		expect(historyKeys(list, { ...NO_FACETS, project: 'p/b' })).toEqual(['b2', 'b1']);
		expect(historyKeys(list, { ...NO_FACETS, harness: 'agent-two' })).toEqual(['b1', 'a3']);
	});
	it('a date range is inclusive of both days, in local time, and leaves undated sessions out', () => {
		expect(historyKeys(list, { ...NO_FACETS, since: '2026-03-05', until: '2026-03-09' })).toEqual(['b2', 'b1', 'a2']);
		expect(historyKeys(list, { ...NO_FACETS, until: '2026-03-04' })).toEqual(['a1']);
		expect(historyKeys(list, { ...NO_FACETS, since: '2026-03-10' })).toEqual([]);
	});
});

describe('failed calls only', () => {
	it('keeps the output of failed tool calls, not other errors or outputs', () => {
		const f = (kind: SearchField['kind'], tool: string | null): SearchField => ({ text: 'x', kind, author: 'claude', tool, atomUuid: 'a', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false });
		const scope = { failedCalls: true };
		expect(inScope(f('error', 'Bash'), scope)).toBe(true);
		expect(inScope(f('error', null), scope)).toBe(false);
		expect(inScope(f('tool-output', 'Bash'), scope)).toBe(false);
		expect(inScope(f('tool-output', 'Bash'), {})).toBe(true);
	});
});

describe('historyKeys: person', () => {
	it('keeps one person’s sessions in a tree of several people’s', () => {
		const list = [
			{ key: 'a1', project: 'team/alice/.claude/projects/-home-alice-app', harness: 'claude-code', startedAt: 3 },
			{ key: 'b1', project: 'team/bob/projects/-home-bob-app', harness: 'claude-code', startedAt: 2 },
			{ key: 'a2', project: 'team/alice/projects/-home-alice-api', harness: 'claude-code', startedAt: 1 }
		];
		expect(historyKeys(list, { ...NO_FACETS, person: 'alice' }).sort()).toEqual(['a1', 'a2']);
		expect(historyKeys(list, { ...NO_FACETS, person: 'bob' })).toEqual(['b1']);
		expect(historyKeys(list, NO_FACETS)).toHaveLength(3);
	});
});
