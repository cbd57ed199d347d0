import { describe, expect, it } from 'vitest';
import { LiveProject } from './live.ts';
import { loadSessions } from './load-files.ts';
import { bytesOf, DEEP_MANIFEST, enc, filesUnder, INLINE, jsonl, WORKTREES } from './test-helpers.ts';
import { relative, resolve } from 'node:path';

/** Every file of a corpus folder, as the follow loop names them (relative to the folder's parent). */
function folder(dir: string): { path: string; bytes: Uint8Array }[] {
	const base = resolve(dir, '..');
	return filesUnder(dir).map((p) => ({ path: relative(base, p), bytes: bytesOf(p) }));
}

/** Feeds files round-robin in chunks of n bytes, as a poll would find them growing. */
function feedInChunks(live: LiveProject, files: { path: string; bytes: Uint8Array }[], n: number): void {
	const at = new Map(files.map((f) => [f.path, 0]));
	let t = 0;
	for (let more = true; more; ) {
		more = false;
		const batch = files.flatMap((f) => {
			const from = at.get(f.path) ?? 0;
			if (from >= f.bytes.length) return [];
			more = true;
			at.set(f.path, from + n);
			return [{ path: f.path, bytes: f.bytes.subarray(from, from + n) }];
		});
		if (batch.length) live.apply(batch, ++t);
	}
}

const u = (uuid: string, parentUuid: string | null, s: number, content: unknown, extra: object = {}) => ({ type: 'user', uuid, parentUuid, sessionId: 'S1', timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(), message: { role: 'user', content }, ...extra });
const a = (uuid: string, parentUuid: string, s: number, content: unknown[], stop: string | null, extra: object = {}) => ({ type: 'assistant', uuid, parentUuid, sessionId: 'S1', timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString(), message: { id: `m-${uuid}`, role: 'assistant', model: 'm', stop_reason: stop, content }, ...extra });

describe('LiveProject', () => {
	// Titles: a file's title fields are merged chunk by chunk (live.ts), so a session whose first
	// prompt is a sidechain's (1.0.x inline) keeps that one; its parse and children are the load's.
	for (const [name, dir, sameTitles] of [['deep-manifest (main + legacy agent file)', DEEP_MANIFEST, true], ['worktrees (several sessions)', WORKTREES, true], ['1.0.x inline sidechains', INLINE, false]] as const) {
		it(`fed in small chunks, builds what a load of the finished folder builds: ${name}`, async () => {
			const files = folder(dir);
			const live = new LiveProject();
			feedInChunks(live, files, 997);
			const loaded = await loadSessions(files.map((f) => ({ path: f.path, blob: new Blob([f.bytes as BlobPart]) })));
			const got = live.sessions();
			expect(got.map((s) => s.key.replace(/-live$/, ''))).toEqual(loaded.sessions.map((s) => s.key.replace(/-[a-z0-9]+$/, '')));
			got.forEach((s, i) => {
				const want = loaded.sessions[i];
				expect(s.result).toEqual(want.result);
				expect(Object.keys(s.children).sort()).toEqual(Object.keys(want.children).sort());
				for (const [id, c] of Object.entries(s.children)) expect(c.result).toEqual(want.children[id].result);
				if (sameTitles) expect(s.title).toBe(want.title);
			});
			if (!sameTitles) expect(got.some((s) => Object.keys(s.children).length > 0)).toBe(true);
		});
	}

	it('holds back a line written in two halves until its newline arrives', () => {
		const live = new LiveProject();
		const line = JSON.stringify(u('u1', null, 0, 'hello'));
		const half = Math.floor(line.length / 2);
		let up = live.apply([{ path: 'p/S1.jsonl', bytes: enc(line.slice(0, half)) }], 1);
		expect(live.sessions()).toEqual([]);
		expect(up.changed).toEqual([]);
		up = live.apply([{ path: 'p/S1.jsonl', bytes: enc(line.slice(half) + '\n') }], 2);
		expect(up.changed).toEqual(['S1-live']);
		const s = live.session('S1-live');
		expect(s?.result.session.turns).toHaveLength(1);
		expect(s?.issues.filter((i) => i.kind === 'truncated-line' || i.kind === 'invalid-json')).toEqual([]);
		expect(live.info('S1-live')).toEqual({ key: 'S1-live', lastWriteMs: 2, lastState: null });
	});

	it('only rebuilds sessions whose files changed', () => {
		const live = new LiveProject();
		live.apply([
			{ path: 'p/S1.jsonl', bytes: enc(jsonl([u('u1', null, 0, 'one')])) },
			{ path: 'p/S2.jsonl', bytes: enc(jsonl([{ ...u('v1', null, 0, 'two'), sessionId: 'S2' }])) }
		], 1);
		const before = live.session('S2-live');
		const up = live.apply([{ path: 'p/S1.jsonl', bytes: enc(jsonl([a('a1', 'u1', 1, [{ type: 'text', text: 'hi' }], 'end_turn')])) }], 2);
		expect(up.changed).toEqual(['S1-live']);
		expect(live.session('S2-live')).toBe(before);
	});

	it('a reset file is read again from scratch (a replaced, shorter file)', () => {
		const live = new LiveProject();
		live.apply([{ path: 'p/S1.jsonl', bytes: enc(jsonl([u('u1', null, 0, 'one'), a('a1', 'u1', 1, [{ type: 'text', text: 'a' }], 'end_turn'), u('u2', 'a1', 2, 'two')])) }], 1);
		expect(live.session('S1-live')?.result.session.turns).toHaveLength(2);
		live.apply([{ path: 'p/S1.jsonl', bytes: enc(jsonl([u('x1', null, 5, 'fresh start')])), reset: true }], 2);
		const turns = live.session('S1-live')?.result.session.turns ?? [];
		expect(turns).toHaveLength(1);
		expect(turns[0].atoms[0].uuid).toBe('x1');
	});

	it('a subagent file that appears and grows attaches to its Task call and is reported as grown', () => {
		const live = new LiveProject();
		const call = a('a1', 'u1', 1, [{ type: 'tool_use', id: 'toolu_T', name: 'Task', input: { description: 'look', prompt: 'Look around the repo', subagent_type: 'Explore' } }], 'tool_use');
		live.apply([{ path: 'p/S1.jsonl', bytes: enc(jsonl([u('u1', null, 0, 'go'), call])) }], 1);
		const agent = 'p/S1/subagents/agent-abc.jsonl';
		const sub = (uuid: string, parent: string | null, s: number, content: unknown) => ({ ...u(uuid, parent, s, content), isSidechain: true, agentId: 'abc' });
		let up = live.apply([{ path: agent, bytes: enc(jsonl([sub('c1', null, 2, 'Look around the repo')])) }], 2);
		expect(Object.keys(live.session('S1-live')?.children ?? {})).toEqual(['toolu_T']);
		expect(up.grownChildren['S1-live']).toEqual(['toolu_T']);
		up = live.apply([{ path: agent, bytes: enc(jsonl([{ ...a('c2', 'c1', 3, [{ type: 'text', text: 'found it' }], 'end_turn'), isSidechain: true, agentId: 'abc' }])) }], 3);
		expect(up.grownChildren['S1-live']).toEqual(['toolu_T']);
		expect(live.session('S1-live')?.children.toolu_T.result.session.turns[0].atoms).toHaveLength(2);
		// The file goes away: its child is untied and the call reported.
		up = live.apply([{ path: agent, bytes: new Uint8Array(0), gone: true }], 4);
		expect(live.session('S1-live')?.children).toEqual({});
		expect(up.grownChildren['S1-live']).toEqual(['toolu_T']);
	});

	it('reads the state log live: its last row is the session state', () => {
		const live = new LiveProject();
		live.apply([
			{ path: 'p/S1.jsonl', bytes: enc(jsonl([u('u1', null, 0, 'go')])) },
			{ path: 'p/states/S1.jsonl', bytes: enc(jsonl([{ t: 1735689600, state: 'working' }])) }
		], 1);
		expect(live.info('S1-live')?.lastState).toEqual({ state: 'working', t: 1735689600 });
		live.apply([{ path: 'p/states/S1.jsonl', bytes: enc(jsonl([{ t: 1735689660, state: 'waiting' }])) }], 2);
		expect(live.info('S1-live')?.lastState).toEqual({ state: 'waiting', t: 1735689660 });
	});
});

describe('LiveProject, an orphaned subagent folder', () => {
	it('follows each subagent of a <sid>/subagents/ folder without its main transcript as a session of its own', () => {
		const sub = (id: string, s: number) => jsonl([u(`${id}-u`, null, s, `task ${id}`, { isSidechain: true, agentId: id, sessionId: 'GONE' })]);
		const live = new LiveProject();
		live.apply([
			{ path: 'proj/GONE/subagents/agent-k1.jsonl', bytes: enc(sub('k1', 1)) },
			{ path: 'proj/GONE/subagents/agent-k2.jsonl', bytes: enc(sub('k2', 2)) }
		], 1);
		expect(live.sessions().map((s) => s.key).sort()).toEqual(['agent-k1-live', 'agent-k2-live']);
	});
});
