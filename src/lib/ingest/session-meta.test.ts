import { describe, expect, it } from 'vitest';
import { readRecords } from '../model/index.ts';
import { summarize } from './summary.ts';
import { titleOf, sortNewestFirst, sessionMeta } from './session-meta.ts';
import { stripMarkers, clip } from './prompt-text.ts';
import { webJsonRecords } from './web-json.ts';
import { splitInlineSidechains } from './sidechains.ts';
import { enc, jsonl } from './test-helpers.ts';
import type { ParseResult } from '../model/index.ts';

const sumOf = (rows: unknown[], path = 'p/S.jsonl') => summarize(path, readRecords(path, [enc(jsonl(rows))]));
const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
	type: 'user',
	uuid,
	parentUuid: null,
	sessionId: 'S',
	timestamp: '2026-02-01T10:00:00Z',
	message: { role: 'user', content },
	...extra
});

describe('titleOf', () => {
	const prompt = user('u1', 'Fix the flaky test in parser.ts');
	it('custom-title beats ai-title beats summary beats the first prompt; last one wins', () => {
		const rows = [
			prompt,
			{ type: 'summary', summary: 'Summary title', leafUuid: 'u1' },
			{ type: 'ai-title', aiTitle: 'AI one' },
			{ type: 'ai-title', aiTitle: 'AI two' },
			{ type: 'custom-title', customTitle: 'Mine' }
		];
		expect(titleOf([sumOf(rows)])).toBe('Mine');
		expect(titleOf([sumOf(rows.slice(0, 4))])).toBe('AI two');
		expect(titleOf([sumOf(rows.slice(0, 2))])).toBe('Summary title');
		expect(titleOf([sumOf(rows.slice(0, 1))])).toBe('Fix the flaky test in parser.ts');
	});

	it('a summary whose leafUuid is in another session is not this session\'s title', () => {
		expect(titleOf([sumOf([{ type: 'summary', summary: 'Other session', leafUuid: 'zzz' }, prompt])])).toBe('Fix the flaky test in parser.ts');
	});

	it('a summary written in another file titles the session that holds its leaf', () => {
		expect(titleOf([sumOf([prompt])], [{ leafUuid: 'u1', summary: 'From a later file' }])).toBe('From a later file');
	});

	it('skips meta lines, tool results and commands; strips markers; clips to 80 chars', () => {
		const rows = [
			user('m', 'Caveat: injected', { isMeta: true }),
			user('c', '<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args>opus</command-args>'),
			user('t', [{ type: 'tool_result', tool_use_id: 'x', content: 'out' }]),
			user('p', [{ type: 'text', text: '<system-reminder>ignore me</system-reminder>Please   refactor\n the ' + 'very '.repeat(30) + 'long module' }])
		];
		const t = titleOf([sumOf(rows)]);
		expect(t.startsWith('Please refactor the very very')).toBe(true);
		expect(t.length).toBe(80);
		expect(t.endsWith('…')).toBe(true);
		// Only a command: the command is the title.
		expect(titleOf([sumOf(rows.slice(0, 2))])).toBe('/model opus');
		expect(titleOf([sumOf([user('m', 'x', { isMeta: true })])], [], 'Session S')).toBe('Session S');
	});

	it('marker helpers', () => {
		expect(stripMarkers('<bash-input>ls -la</bash-input>')).toBe('! ls -la');
		expect(stripMarkers('a <b-tag>b</b-tag>  c')).toBe('a b c');
		expect(clip('abc', 80)).toBe('abc');
	});
});

describe('sessionMeta and sorting', () => {
	it('takes times from the files, counts turns and atoms', () => {
		const s = sumOf([user('u1', 'hi', { timestamp: '2026-02-01T10:00:00Z' }), user('u2', 'again', { timestamp: '2026-02-01T12:00:00Z', parentUuid: 'u1' })]);
		const result = { session: { turns: [{ t: 1, end: 2, atoms: [{}, {}] }, { t: 3, end: 4, atoms: [{}] }] } } as unknown as ParseResult;
		const m = sessionMeta({ key: 'S', result, mains: [s], bytes: 10, subagents: 2 });
		expect(m).toEqual({ title: 'hi', startedAt: Date.parse('2026-02-01T10:00:00Z'), endedAt: Date.parse('2026-02-01T12:00:00Z'), bytes: 10, turns: 2, atoms: 3, subagents: 2 });
	});

	it('sorts newest first, timeless last', () => {
		const list = [
			{ key: 'a', startedAt: 1, endedAt: 5 },
			{ key: 'b', startedAt: null, endedAt: null },
			{ key: 'c', startedAt: 9, endedAt: null },
			{ key: 'd', startedAt: 2, endedAt: 7 }
		];
		expect(sortNewestFirst(list).map((x) => x.key)).toEqual(['c', 'd', 'a', 'b']);
	});
});

describe('summarize', () => {
	it('collects ids, cross-file parents and the time span', () => {
		const s = sumOf([
			user('u1', 'hi', { parentUuid: 'elsewhere', agentId: 'ag' }),
			user('u2', 'x', { parentUuid: 'u1', timestamp: '2026-02-01T09:00:00Z', isSidechain: true }),
			{ type: 'system', subtype: 'compact_boundary', uuid: 'c1', parentUuid: null, logicalParentUuid: 'gone', timestamp: 'garbage' }
		]);
		expect(s.sessionIds).toEqual(['S']);
		expect(s.agentIds).toEqual(['ag']);
		expect([...s.uuids]).toEqual(['u1', 'u2', 'c1']);
		expect(s.externalParents.sort()).toEqual(['elsewhere', 'gone']);
		expect(s.contentLines).toBe(3);
		expect(s.sidechainLines).toBe(1);
		expect(s.firstMs).toBe(Date.parse('2026-02-01T09:00:00Z'));
		expect(s.lastMs).toBe(Date.parse('2026-02-01T10:00:00Z'));
	});
});

describe('webJsonRecords', () => {
	it('gives each logline a uuid chained to the previous one', () => {
		const text = JSON.stringify({ loglines: [{ type: 'user', message: { content: 'a' } }, 7, { type: 'assistant', uuid: 'own', message: { content: [] } }] });
		const fr = webJsonRecords('x/web.json', text);
		expect(fr.records.map((r) => [r.line, r.value.uuid, r.value.parentUuid, r.value.sessionId])).toEqual([
			[1, 'web:1', null, 'web'],
			[3, 'own', 'web:1', 'web']
		]);
		expect(fr.issues.map((i) => [i.line, i.kind])).toEqual([[2, 'not-object']]);
		expect(webJsonRecords('x/bad.json', '{"nope": 1}').issues[0].message).toMatch(/loglines/);
	});
});

describe('splitInlineSidechains', () => {
	it('splits chains by root, survives a parent cycle, skips agents that have their own file', () => {
		const side = (uuid: string, parentUuid: string | null, agentId?: string) => user(uuid, `p ${uuid}`, { parentUuid, isSidechain: true, ...(agentId ? { agentId } : {}) });
		const fr = readRecords('p/M.jsonl', [
			enc(jsonl([user('m1', 'main'), side('a1', null), side('a2', 'a1'), side('b1', null), side('c1', 'c2'), side('c2', 'c1'), side('d1', null, 'dd'), user('m2', 'main2', { parentUuid: 'm1' }), side('a3', 'a2')]))
		]);
		const chains = splitInlineSidechains(fr, new Set(['dd']));
		expect(chains.map((c) => [c.records.file, c.records.records.map((r) => r.value.uuid)])).toEqual([
			['p/M#sidechain-1.jsonl', ['a1', 'a2', 'a3']],
			['p/M#sidechain-2.jsonl', ['b1']],
			['p/M#sidechain-3.jsonl', ['c1', 'c2']]
		]);
	});
});
