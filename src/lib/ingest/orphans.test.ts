// Orphaned subagent folders (`<project>/<sid>/subagents/` without `<sid>.jsonl`): one session of
// the real project, marked mainMissing, in the full load (group + load-files), in the big-drop
// scan (scan.ts) and when that listed session is opened (listed.ts).
import { describe, expect, it } from 'vitest';
import { groupSessions } from './group.ts';
import { classifyFile } from './classify.ts';
import { loadSessions } from './load-files.ts';
import { scanInputs } from './scan.ts';
import { loadListed } from './listed.ts';
import { orphanFolderOf } from './orphans.ts';
import { enc, jsonl } from './test-helpers.ts';
import type { InputFile } from './types.ts';

const at = (min: number) => new Date(Date.UTC(2026, 6, 1, 8, min)).toISOString();
const P = 'projects/-home-me-api';
const ORPHAN = 'dead0000-0000-4000-8000-000000000001';
const LIVE = 'live0000-0000-4000-8000-000000000002';

/** A subagent transcript: its prompt, one reply with usage, optionally a call spawning `spawns`. */
function agent(sid: string, agentId: string, prompt: string, from: number, to: number, spawns?: string): string {
	const base = { sessionId: sid, agentId, isSidechain: true, cwd: '/home/me/api' };
	const rows: unknown[] = [
		{ ...base, type: 'user', uuid: `${agentId}-u`, parentUuid: null, timestamp: at(from), message: { role: 'user', content: prompt } },
		{ ...base, type: 'assistant', uuid: `${agentId}-a`, parentUuid: `${agentId}-u`, timestamp: at(to), message: { role: 'assistant', id: `m-${agentId}`, model: 'claude-opus-4-7', content: [{ type: 'text', text: `${agentId} finished: ${prompt}` }], usage: { input_tokens: 100, output_tokens: 50 } } }
	];
	if (spawns) {
		rows.push(
			{ ...base, type: 'assistant', uuid: `${agentId}-c`, parentUuid: `${agentId}-a`, timestamp: at(to), message: { role: 'assistant', id: `m-${agentId}-c`, model: 'claude-opus-4-7', content: [{ type: 'tool_use', id: `toolu_${agentId}`, name: 'Agent', input: { description: 'nested', prompt: 'nested work' } }], usage: { input_tokens: 10, output_tokens: 5 } } },
			{ ...base, type: 'user', uuid: `${agentId}-r`, parentUuid: `${agentId}-c`, timestamp: at(to + 1), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${agentId}`, content: 'done' }] }, toolUseResult: { agentId: spawns } }
		);
	}
	return jsonl(rows);
}

/** One project: a normal session, and an orphaned folder with two top-level subagents (the
 *  second spawned a nested one) and their meta sidecars. */
function tree(): InputFile[] {
	const live = jsonl([
		{ type: 'user', uuid: 'l-u', parentUuid: null, sessionId: LIVE, cwd: '/home/me/api', timestamp: at(100), message: { role: 'user', content: 'A session that kept its main transcript' } },
		{ type: 'assistant', uuid: 'l-a', parentUuid: 'l-u', sessionId: LIVE, timestamp: at(101), message: { role: 'assistant', id: 'm-l', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'ok' }] } }
	]);
	const dir = `${P}/${ORPHAN}/subagents`;
	const f = (path: string, text: string): InputFile => ({ path, blob: new Blob([text]) });
	return [
		f(`${P}/${LIVE}.jsonl`, live),
		f(`${dir}/agent-a1.jsonl`, agent(ORPHAN, 'a1', 'Survey the parser for dead code', 10, 20)),
		f(`${dir}/agent-a1.meta.json`, JSON.stringify({ agentType: 'Explore', description: 'Survey parser' })),
		f(`${dir}/agent-b2.jsonl`, agent(ORPHAN, 'b2', 'Write the migration plan', 5, 30, 'c3')),
		f(`${dir}/agent-c3.jsonl`, agent(ORPHAN, 'c3', 'nested work', 31, 33)),
		// a tool-results side file of the same orphaned session
		f(`${P}/${ORPHAN}/tool-results/toolu_1.txt`, 'output\n')
	];
}

describe('orphanFolderOf', () => {
	it('reads the project and session of a file directly under <sid>/subagents/', () => {
		expect(orphanFolderOf('a/b/-p/S1/subagents/agent-x.jsonl')).toEqual({ project: 'a/b/-p', sid: 'S1' });
		expect(orphanFolderOf('S1/subagents/agent-x.jsonl')).toEqual({ project: '', sid: 'S1' });
		expect(orphanFolderOf('subagents/agent-x.jsonl')).toBeNull();
		expect(orphanFolderOf('-p/S1.jsonl')).toBeNull();
	});
});

describe('an orphaned subagent folder, full load', () => {
	it('groups the folder into one plan marked mainMissing (not one standalone session per subagent)', async () => {
		const files = tree();
		const classified = await Promise.all(files.map(async (x) => classifyFile(x.path, new Uint8Array(await x.blob.arrayBuffer()), x.blob.size)));
		const { plans } = groupSessions(classified, new Map());
		const orphan = plans.filter((p) => p.mainMissing);
		expect(orphan).toHaveLength(1);
		expect(orphan[0]).toMatchObject({ key: ORPHAN, mainFiles: [], mainMissing: { project: P, sid: ORPHAN } });
		expect(orphan[0].subagents.map((s) => s.file.name).sort()).toEqual(['agent-a1.jsonl', 'agent-b2.jsonl', 'agent-c3.jsonl']);
		expect(plans.some((p) => p.standalone === 'subagent')).toBe(false);
	});

	it('loads one session under the real project, titled from the first subagent, every subagent under a call', async () => {
		const out = await loadSessions(tree());
		expect(out.sessions).toHaveLength(2);
		const s = out.sessions.find((x) => x.meta.mainMissing);
		expect(s).toBeDefined();
		if (!s) return;
		expect(s.meta.project).toBe(P);
		// b2 started first (minute 5), so its prompt is the title.
		expect(s.title).toBe('Write the migration plan');
		expect(s.startedAt).toBe(Date.parse(at(5)));
		expect(s.endedAt).toBe(Date.parse(at(33)));
		expect(s.meta.subagents).toBe(3);
		expect(s.unattached).toEqual([]);
		const children = Object.values(s.children);
		expect(children.map((c) => c.agentId).sort()).toEqual(['a1', 'b2', 'c3']);
		// The top-level two hang off synthetic calls of the main; the nested one off b2's own call.
		const mainCalls = s.result.session.turns.flatMap((t) => t.atoms).flatMap((a) => (Array.isArray(a.message?.content) ? a.message.content : [])).filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
		expect(mainCalls).toHaveLength(2);
		expect(s.children.toolu_b2?.agentId).toBe('c3');
		expect(children.find((c) => c.agentId === 'a1')).toMatchObject({ agentType: 'Explore', description: 'Survey parser' });
		// Its files are the real ones (nothing invented is cached), the main listed nowhere.
		expect(s.files.every((f) => f.path.startsWith(`${P}/${ORPHAN}/subagents/`))).toBe(true);
	});
});

describe('an orphaned subagent folder, big-drop scan', () => {
	it('lists one entry under the real project, marked, titled from the first subagent', async () => {
		const { listing } = await scanInputs(tree());
		expect(listing.sessions.map((s) => s.project)).toEqual([P, P]);
		const s = listing.sessions.find((x) => x.mainMissing);
		expect(s).toMatchObject({ id: ORPHAN, project: P, title: 'Write the migration plan', subagents: 3, mainMissing: true, turnsEst: 1 });
		expect(s?.files.filter((p) => p.endsWith('.meta.json'))).toEqual([`${P}/${ORPHAN}/subagents/agent-a1.meta.json`]);
		expect(listing.unused.some((u) => u.path.endsWith('agent-a1.meta.json'))).toBe(false);
	});

	it('opens the listed entry as the same session the full load builds', async () => {
		const files = tree();
		const { listing } = await scanInputs(files);
		const s = listing.sessions.find((x) => x.mainMissing);
		if (!s) throw new Error('no orphan entry');
		const mine = files.filter((f) => s.files.includes(f.path));
		const loaded = await loadListed(s, mine);
		expect(loaded?.key).toBe(s.key);
		expect(loaded?.meta).toMatchObject({ mainMissing: true, project: P, title: 'Write the migration plan' });
		expect(Object.keys(loaded?.children ?? {})).toHaveLength(3);
	});

	it('two orphaned folders of two projects stay two sessions of their own projects', async () => {
		const other = 'projects/-home-me-web';
		const files: InputFile[] = [
			{ path: `${P}/${ORPHAN}/subagents/agent-a1.jsonl`, blob: new Blob([agent(ORPHAN, 'a1', 'one', 1, 2)]) },
			{ path: `${P}/${ORPHAN}/subagents/agent-a2.jsonl`, blob: new Blob([agent(ORPHAN, 'a2', 'two', 3, 4)]) },
			{ path: `${other}/${ORPHAN}/subagents/agent-a9.jsonl`, blob: new Blob([agent(ORPHAN, 'a9', 'nine', 5, 6)]) }
		];
		const { listing } = await scanInputs(files);
		expect(listing.sessions.map((s) => [s.project, s.subagents]).sort()).toEqual([[P, 2], [other, 1]]);
		const full = await loadSessions(files);
		expect(full.sessions.map((s) => [s.meta.project, s.meta.subagents]).sort()).toEqual([[P, 2], [other, 1]]);
	});
});

it('a subagent dropped on its own (no <sid>/subagents/ folder) is still a session of its own', async () => {
	const out = await loadSessions([{ path: 'agent-a1.jsonl', blob: new Blob([enc(agent(ORPHAN, 'a1', 'alone', 1, 2))]) }]);
	expect(out.sessions).toHaveLength(1);
	expect(out.sessions[0].meta.mainMissing).toBeUndefined();
});
