import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildSession, readRecords } from '../model/index.ts';
import type { FileRecords, ParseResult } from '../model/index.ts';
import { attachSubagents, agentCallsOf, atomsOf, firstPromptOf, type ChildInput } from './attach-subagents.ts';
import { splitInlineSidechains } from './sidechains.ts';
import { bytesOf, DEEP_MANIFEST, enc, INLINE, jsonl, WORKTREES } from './test-helpers.ts';

const SID = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const parse = (fr: FileRecords, subagent = false) => buildSession({ transcripts: [fr] }, { compat: 'viewer', subagent });
const recsOf = (abs: string, rel: string) => readRecords(rel, [bytesOf(abs)]);
const child = (fr: FileRecords, agentId: string | null, meta: Record<string, unknown> | null = null): ChildInput => ({
	file: fr.file,
	agentId,
	meta,
	firstPrompt: firstPromptOf(fr.records),
	result: parse(fr, true),
	records: fr
});

// ── synthetic transcripts ──────────────────────────────────────────────────
let clock = Date.parse('2026-03-01T10:00:00Z');
const ts = () => new Date((clock += 1000)).toISOString();
function chain(sessionId: string, rows: Record<string, unknown>[], extra: Record<string, unknown> = {}): Record<string, unknown>[] {
	let parent: string | null = null;
	return rows.map((r, i) => {
		const uuid = `${sessionId}-${extra.agentId ?? 'main'}-${i}`;
		const row = { parentUuid: parent, uuid, sessionId, timestamp: ts(), ...extra, ...r };
		parent = uuid;
		return row;
	});
}
const userText = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });
const agentCall = (id: string, input: Record<string, unknown>, name = 'Agent') => ({
	type: 'assistant',
	message: { id: `msg-${id}`, role: 'assistant', model: 'm', stop_reason: 'tool_use', content: [{ type: 'tool_use', id, name, input }] }
});
const agentResult = (id: string, toolUseResult: unknown, text = 'done') => ({
	type: 'user',
	toolUseResult,
	message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: [{ type: 'text', text }] }] }
});
const reply = (text: string) => ({ type: 'assistant', message: { id: `msg-${text}`, role: 'assistant', model: 'm', stop_reason: 'end_turn', content: [{ type: 'text', text }] } });
const records = (file: string, rows: unknown[]) => readRecords(file, [enc(jsonl(rows))]);

describe('attachSubagents: corpus', () => {
	it('-experiments-worktrees: six subagent files attach to their Agent calls by agentId', () => {
		const main = recsOf(join(WORKTREES, `${SID}.jsonl`), `p/${SID}.jsonl`);
		const parent = parse(main);
		const ids = ['a36efb2a1231c41e2', 'a4ca7529859c158c2', 'a52886dc180afb356', 'a6aa8ad077d9ea083', 'ab1e6e141221a29ab', 'aef063ba534d73153'];
		const kids = ids.map((id) => child(recsOf(join(WORKTREES, SID, `subagents/agent-${id}.jsonl`), `p/${SID}/subagents/agent-${id}.jsonl`), id));
		const { children, unattached } = attachSubagents(parent, kids, [main]);
		expect(unattached).toEqual([]);
		const byAgent = Object.fromEntries(Object.values(children).map((c) => [c.agentId, c.toolUseId]));
		expect(byAgent).toEqual({
			ab1e6e141221a29ab: 'toolu_01EaAN7bPNQrMTGoKhbEjVrx',
			a52886dc180afb356: 'toolu_016neBD9WjCCZqzRTP3afGDT',
			a4ca7529859c158c2: 'toolu_01GmrK6tgdD9D5xD6W5X9UUy',
			aef063ba534d73153: 'toolu_01N26s4U6vDxE1NRAH5CyCNf',
			a6aa8ad077d9ea083: 'toolu_0151DrVyXBXfb63SXGNF1qDb',
			a36efb2a1231c41e2: 'toolu_017y4gSjMWeQ3L2DAKiygU2y'
		});
		expect(children.toolu_01EaAN7bPNQrMTGoKhbEjVrx.description).toBe('Research Steve Yegge Beads');
		expect(children.toolu_01EaAN7bPNQrMTGoKhbEjVrx.agentType).toBe('general-purpose');
		expect(children.toolu_01EaAN7bPNQrMTGoKhbEjVrx.result.session.turns.length).toBeGreaterThan(0);
	});

	it('-src-deep-manifest: the legacy agent file (it starts with an assistant line) attaches by agentId', () => {
		const main = recsOf(join(DEEP_MANIFEST, 'a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl'), 'p/a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl');
		const sub = recsOf(join(DEEP_MANIFEST, 'agent-c8d9b115.jsonl'), 'p/agent-c8d9b115.jsonl');
		const { children, unattached } = attachSubagents(parse(main), [child(sub, 'c8d9b115')], [main]);
		expect(unattached).toEqual([]);
		expect(Object.keys(children)).toEqual(['toolu_01MmDqMXjZLvzbNFLGH2ZA3k']);
		expect(children.toolu_01MmDqMXjZLvzbNFLGH2ZA3k.description).toBe('Explore ZIP processing implementation');
	});

	it('inline 1.0.x sidechains split into five chains and attach to the five Task calls by prompt', () => {
		const main = recsOf(join(INLINE, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), 'p/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
		const chains = splitInlineSidechains(main);
		expect(chains).toHaveLength(5);
		expect(chains.reduce((n, c) => n + c.records.records.length, 0)).toBe(405);
		const parent = parse(main);
		const { children, unattached } = attachSubagents(parent, chains.map((c) => child(c.records, c.agentId)), [main]);
		expect(unattached).toEqual([]);
		const calls = agentCallsOf(atomsOf(parent));
		expect(Object.keys(children).sort()).toEqual(calls.map((c) => c.toolUseId).sort());
		for (const c of calls) {
			const ch = children[c.toolUseId];
			expect(firstPromptOf(ch.result.session.turns[0].atoms.map((a) => ({ value: a as unknown as Record<string, unknown> })))?.trim()).toBe(c.prompt?.trim());
			expect(ch.description).toBe(c.description);
		}
	});
});

describe('agentCallsOf: the agent a call started', () => {
	const call = (id: string, name = 'Agent') => agentCall(id, { description: id, prompt: `Do ${id}` }, name).message;
	const result = (id: string, toolUseResult: unknown, text: string) => ({ toolUseResult, message: agentResult(id, toolUseResult, text).message });

	it('reads the agent from the result text when toolUseResult has none, and from a later result that names it', () => {
		const calls = agentCallsOf([
			{ message: call('a') },
			{ message: call('b') },
			result('a', { status: 'completed' }, 'finished\nagentId: a1b2c3 (for resuming)'),
			result('b', { status: 'completed' }, 'no id here'),
			result('b', { status: 'completed', agentId: 'bbb', agentType: 'Explore' }, 'again')
		]);
		expect(calls.map((c) => [c.toolUseId, c.agentId, c.resultAgentType])).toEqual([
			['a', 'a1b2c3', null],
			['b', 'bbb', 'Explore']
		]);
	});

	it('the first result that names the agent wins; results of other tools are not agents', () => {
		const calls = agentCallsOf([
			{ message: call('a') },
			result('a', { agentId: 'first' }, ''),
			result('a', { agentId: 'second' }, ''),
			{ message: call('bash', 'Bash') },
			result('bash', null, 'agentId: not-an-agent')
		]);
		expect(calls.map((c) => [c.toolUseId, c.agentId])).toEqual([['a', 'first']]);
	});
});

describe('attachSubagents: evidence order', () => {
	const parentRows = chain('S', [
		userText('go'),
		agentCall('call-a', { description: 'alpha', prompt: 'Do alpha', subagent_type: 'Explore' }),
		agentResult('call-a', { status: 'completed' }), // no agentId: meta or prompt must decide
		agentCall('call-b', { description: 'beta', prompt: 'Do beta', subagent_type: 'Explore' }),
		agentResult('call-b', { status: 'completed', agentId: 'bbb' }),
		agentCall('call-c', { description: 'gamma', prompt: 'Do gamma' }, 'Task'),
		agentResult('call-c', 'Error: no'),
		reply('all done')
	]);
	const parentFr = records('p/S.jsonl', parentRows);
	const parent = parse(parentFr);
	const kid = (agentId: string, prompt: string, more: Record<string, unknown>[] = []) =>
		records(`p/S/subagents/agent-${agentId}.jsonl`, chain('S', [userText(prompt), reply(`${agentId} done`), ...more], { isSidechain: true, agentId }));

	it('agentId from toolUseResult wins over a misleading prompt', () => {
		const { children } = attachSubagents(parent, [child(kid('bbb', 'Do alpha'), 'bbb')], [parentFr]);
		expect(Object.keys(children)).toEqual(['call-b']);
	});

	it('meta description (with agentType) picks the call when the result has no agentId', () => {
		const { children, unattached } = attachSubagents(parent, [child(kid('aaa', 'something else'), 'aaa', { agentType: 'Explore', description: 'alpha' })], [parentFr]);
		expect(unattached).toEqual([]);
		expect(children['call-a']).toMatchObject({ agentId: 'aaa', agentType: 'Explore', description: 'alpha' });
	});

	it('meta toolUseId names the call directly', () => {
		const { children } = attachSubagents(parent, [child(kid('ccc', 'unrelated'), 'ccc', { toolUseId: 'call-c', agentType: 'x' })], [parentFr]);
		expect(Object.keys(children)).toEqual(['call-c']);
		expect(children['call-c'].agentType).toBe('x');
	});

	it('the prompt text decides when there is no agentId and no meta', () => {
		const { children } = attachSubagents(parent, [child(kid('zzz', 'Do gamma'), null)], [parentFr]);
		expect(Object.keys(children)).toEqual(['call-c']);
		expect(children['call-c'].description).toBe('gamma');
	});

	it('a child that matches nothing is kept, with a reason', () => {
		const { children, unattached } = attachSubagents(parent, [child(kid('qqq', 'Nothing like it'), 'qqq')], [parentFr]);
		expect(children).toEqual({});
		expect(unattached).toHaveLength(1);
		expect(unattached[0]).toMatchObject({ agentId: 'qqq', file: 'p/S/subagents/agent-qqq.jsonl' });
		expect(unattached[0].reason).toMatch(/agentId qqq/);
	});

	it('a nested agent attaches to the call inside its parent subagent', () => {
		const outer = kid('bbb', 'Do beta', [agentCall('call-inner', { description: 'inner', prompt: 'Do inner' }), agentResult('call-inner', { agentId: 'iii' })]);
		const inner = kid('iii', 'Do inner');
		const { children, unattached } = attachSubagents(parent, [child(outer, 'bbb'), child(inner, 'iii')], [parentFr]);
		expect(unattached).toEqual([]);
		expect(Object.fromEntries(Object.entries(children).map(([k, v]) => [k, v.agentId]))).toEqual({ 'call-b': 'bbb', 'call-inner': 'iii' });
	});

	it('uses calls that the parse left off the active path (raw records)', () => {
		const p: ParseResult = { ...parent, session: { ...parent.session, turns: [] } };
		const { children } = attachSubagents(p, [child(kid('bbb', 'x'), 'bbb')], [parentFr]);
		expect(Object.keys(children)).toEqual(['call-b']);
	});
});
