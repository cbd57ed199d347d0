import { describe, expect, it } from 'vitest';
import { historyHash, NO_HISTORY_FILTERS, parseHistoryHash, projectLabel, rootOf, rowOf, type HistoryRow } from './browse.ts';
import { browse, summarize } from './history-table.ts';

const row = (key: string, project: string, endedAt: number | null, costUsd = 1, turns = 2, title = `t ${key}`): HistoryRow =>
	rowOf({ key, title, project, harness: 'claude-code', startedAt: endedAt === null ? null : endedAt - 10, endedAt, turns, costUsd, unpricedMessages: 0 });

const rows = [row('a', 'projects/-home-x-app', 3000, 0.5, 4, 'Fix parser'), row('b', 'projects/-home-x-web', 1000, 2, 1), row('c', 'work/-srv-api', 2000, 1, 9), row('d', 'projects/-home-x-app', null, 0, 0)];

describe('history browse', () => {
	it('names each session’s root and project', () => {
		expect(rootOf('projects/-home-x-app')).toBe('projects');
		expect(rootOf('/abs/x')).toBe('abs');
		expect(rootOf('loose')).toBe('loose');
		expect(rows.map((r) => r.root)).toEqual(['projects', 'projects', 'work', 'projects']);
		expect(projectLabel('projects/-home-x-app')).toBe('-home-x-app');
	});

	it('sorts newest first by default, by cost, turns, title, project either way', () => {
		expect(browse(rows, NO_HISTORY_FILTERS).map((r) => r.key)).toEqual(['a', 'c', 'b', 'd']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, sort: 'cost' }).map((r) => r.key)).toEqual(['b', 'c', 'a', 'd']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, sort: 'turns', dir: 'asc' }).map((r) => r.key)).toEqual(['d', 'b', 'a', 'c']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, sort: 'title', dir: 'asc' }).map((r) => r.key)).toEqual(['a', 'b', 'c', 'd']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, sort: 'project', dir: 'asc' }).map((r) => r.key)).toEqual(['a', 'd', 'b', 'c']);
	});

	it('filters by text (title or project), project and root, leaving the input alone', () => {
		expect(browse(rows, { ...NO_HISTORY_FILTERS, text: 'PARSER' }).map((r) => r.key)).toEqual(['a']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, text: 'web' }).map((r) => r.key)).toEqual(['b']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, project: 'projects/-home-x-app' }).map((r) => r.key)).toEqual(['a', 'd']);
		expect(browse(rows, { ...NO_HISTORY_FILTERS, root: 'work' }).map((r) => r.key)).toEqual(['c']);
		expect(rows.map((r) => r.key)).toEqual(['a', 'b', 'c', 'd']);
	});

	it('summarizes sessions, projects, roots, spend and the date range', () => {
		expect(summarize(rows)).toEqual({ sessions: 4, projects: 3, roots: ['projects', 'work'], costUsd: 3.5, from: 990, to: 3000 });
		expect(summarize([])).toEqual({ sessions: 0, projects: 0, roots: [], costUsd: 0, from: null, to: null });
	});

	it('reads and writes the view’s link, tolerating junk', () => {
		const f = { text: 'a b', project: 'projects/-home-x-app', root: 'projects', sort: 'cost' as const, dir: 'asc' as const };
		const hash = historyHash(f);
		expect(hash).toBe('#history&hf=a%20b&hp=projects%2F-home-x-app&hr=projects&hs=cost&hd=asc');
		expect(parseHistoryHash(hash)).toEqual(f);
		expect(historyHash(NO_HISTORY_FILTERS)).toBe('#history');
		expect(parseHistoryHash('#history')).toEqual(NO_HISTORY_FILTERS);
		expect(parseHistoryHash('#history&hs=nope&hf=%E0%A4&x=1&=2')).toEqual(NO_HISTORY_FILTERS);
		expect(parseHistoryHash('#s=abc')).toBeNull();
		expect(parseHistoryHash('')).toBeNull();
	});
});
