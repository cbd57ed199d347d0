import { describe, expect, it } from 'vitest';
import { filterEntries, keysAfter, projectOfSession, projectSessionKeys, projectsOf, sortEntries, type ListEntry } from './list.ts';

const H = 3600e3;
const e = (key: string, o: Partial<ListEntry>): ListEntry => ({
	key, project: 'p/-home-me-api', harness: 'claude-code', title: key, startedAt: 0, endedAt: H, bytes: 1, turns: 1, turnsExact: true, subagents: 0, cwd: null, model: null, ...o
});
const list = [
	e('old-big', { startedAt: 0, endedAt: H, bytes: 900, turns: 2, title: 'Fix parser bug' }),
	e('new-long', { startedAt: 10 * H, endedAt: 20 * H, bytes: 10, turns: 5, title: 'Refactor the parser', project: 'p/-home-me-web', cwd: '/home/me/web' }),
	e('mid-chatty', { startedAt: 5 * H, endedAt: 6 * H, bytes: 50, turns: 40, title: 'Write docs' })
];

describe('sortEntries', () => {
	it('orders by newest, largest, longest and most turns', () => {
		expect(sortEntries(list, 'newest').map((x) => x.key)).toEqual(['new-long', 'mid-chatty', 'old-big']);
		expect(sortEntries(list, 'largest').map((x) => x.key)).toEqual(['old-big', 'mid-chatty', 'new-long']);
		expect(sortEntries(list, 'longest').map((x) => x.key)).toEqual(['new-long', 'mid-chatty', 'old-big']);
		expect(sortEntries(list, 'turns').map((x) => x.key)).toEqual(['mid-chatty', 'new-long', 'old-big']);
	});
});

describe('filterEntries', () => {
	it('matches every word of the text in the title, any case', () => {
		expect(filterEntries(list, { text: 'PARSER' }).map((x) => x.key)).toEqual(['old-big', 'new-long']);
		expect(filterEntries(list, { text: 'parser fix' }).map((x) => x.key)).toEqual(['old-big']);
	});
	it('keeps sessions active within the date range, including ones spanning a bound', () => {
		expect(filterEntries(list, { from: 5.5 * H }).map((x) => x.key)).toEqual(['new-long', 'mid-chatty']);
		expect(filterEntries(list, { to: 5.5 * H }).map((x) => x.key)).toEqual(['old-big', 'mid-chatty']);
		expect(filterEntries(list, { from: 2 * H, to: 4 * H })).toEqual([]);
	});
	it('narrows to one project', () => {
		expect(filterEntries(list, { project: 'p/-home-me-web' }).map((x) => x.key)).toEqual(['new-long']);
	});
});

describe('projectsOf', () => {
	it('summarises each folder: decoded name, sessions, bytes, last activity; most recent first', () => {
		const ps = projectsOf(list);
		expect(ps.map((p) => p.name)).toEqual(['~/web', '~/api']);
		expect(ps[0]).toMatchObject({ key: 'p/-home-me-web', exactName: true, sessions: 1, bytes: 10, lastActivity: 20 * H });
		expect(ps[1]).toMatchObject({ sessions: 2, bytes: 950, lastActivity: 6 * H, exactName: false });
	});
});

describe('keysAfter (what to build ahead after an open)', () => {
	const shown = [{ key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'd' }];
	it('the next ones in the shown order, fewer at the end', () => {
		expect(keysAfter(shown, 'b', 2)).toEqual(['c', 'd']);
		expect(keysAfter(shown, 'd', 2)).toEqual([]);
	});
	it('from the top when the open session is not shown (a filter hides it)', () => {
		expect(keysAfter(shown, 'x', 2)).toEqual(['a', 'b']);
	});
});

describe('projectSessionKeys ("this project" search scope)', () => {
	const list = [
		{ key: 'a1', project: 'projects/-home-me-api' },
		{ key: 'b1', project: 'projects/-home-me-web' },
		{ key: 'a2', project: 'projects/-home-me-api' },
		{ key: 'top', project: '' }
	];
	it('takes every listed session of the folder, built or not, in list order', () => {
		expect(projectSessionKeys('projects/-home-me-api', list, [{ key: 'a2', folder: 'projects/-home-me-api' }])).toEqual(['a1', 'a2']);
		expect(projectSessionKeys('', list, [])).toEqual(['top']);
	});
	it('falls back to the built sessions of the folder when nothing is listed for it', () => {
		const built = [
			{ key: 'x', folder: 'p/one' },
			{ key: 'y', folder: 'p/two' },
			{ key: 'z', folder: 'p/one' }
		];
		expect(projectSessionKeys('p/one', [], built)).toEqual(['x', 'z']);
		expect(projectSessionKeys('p/one', list, built)).toEqual(['x', 'z']);
	});
	it("a listed session's project is the list's, not its file's folder (another harness's dated folders)", () => {
		const listed = [...list, { key: 'other-1', project: 'agent-x' }, { key: 'other-2', project: 'agent-x' }];
		const project = projectOfSession('other-1', listed, 'agent-x/sessions/2025/01/02/run-1.jsonl');
		expect(project).toBe('agent-x');
		expect(projectSessionKeys(project, listed, [{ key: 'other-1', folder: project }])).toEqual(['other-1', 'other-2']);
	});
	it('a session the list does not hold: the folder of its main transcript', () => {
		expect(projectOfSession('x', [], 'projects/-home-me-api/1234.jsonl')).toBe('projects/-home-me-api');
		expect(projectOfSession('x', list, '1234.jsonl')).toBe('');
		expect(projectOfSession('x', [], null)).toBe('');
	});
});

describe('people (a tree of several people’s histories)', () => {
	const team = [e('a', { project: 'team/alice/.claude/projects/-home-alice-api' }), e('b', { project: 'team/bob/projects/-home-bob-api' })];
	it('each project says whose it is, and the list narrows to one person', () => {
		expect(projectsOf(team).map((p) => [p.key, p.person])).toEqual([
			['team/alice/.claude/projects/-home-alice-api', 'alice'],
			['team/bob/projects/-home-bob-api', 'bob']
		]);
		expect(filterEntries(team, { person: 'bob' }).map((x) => x.key)).toEqual(['b']);
		expect(projectsOf(list).every((p) => p.person === undefined)).toBe(true);
	});
});
