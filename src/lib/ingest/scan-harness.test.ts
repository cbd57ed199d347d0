// The scan on drops of other harnesses: a ~/.codex/sessions-like folder of rollouts, and a mixed
// drop (Claude Code project + Codex rollouts + a Gemini CLI chat with a sub-agent file).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from './load-files.ts';
import { groupScans, prefersScan, scanInputs, SCAN_HEAD, SCAN_TAIL } from './scan.ts';
import { harnessProject } from './scan-harness.ts';
import { claudeProject, CODEX_SPAWN, codexRollouts, CORPUS, dropFolder, GEMINI_PROJECT } from './test-helpers.ts';
import type { InputFile } from './types.ts';

describe('scan of a Codex sessions folder', () => {
	it('lists every rollout as a Codex session, with its first real prompt, times, model and cwd', async () => {
		const drop = codexRollouts(30);
		const { listing } = await scanInputs(drop);
		expect(listing.unused).toEqual([]);
		expect(listing.sessions).toHaveLength(30);
		expect(prefersScan(listing, 30 * 9000)).toBe(true);
		expect(new Set(listing.sessions.map((s) => s.harness))).toEqual(new Set(['codex']));
		// One project for the whole folder, not one per day folder.
		expect(new Set(listing.sessions.map((s) => s.project))).toEqual(new Set(['sessions']));
		const newest = listing.sessions[0];
		// The environment_context and permissions blocks come first in the rollout; they are not the title.
		expect(newest.title).toBe('Rollout 29: what does divide() do on zero? Screenshot of the failure attached.');
		expect(newest.id).toBe('cccccccc-0000-7000-8000-000000000029');
		expect(newest.startedAt).toBe(Date.parse('2026-05-30T08:00:00.500Z'));
		expect(newest.endedAt).toBeGreaterThan(newest.startedAt ?? Infinity);
		expect(newest.model).toBe('gpt-5.4');
		expect(newest.cwd).toBe('/home/dev/calc');
		expect(newest.turnsEst).toBeGreaterThanOrEqual(1);
		expect(newest.files).toEqual([drop[29].path]);
		expect(newest.bytes).toBe(drop[29].blob.size);
	});

	it('a child rollout is listed inside the thread that spawned it', async () => {
		const { listing } = await scanInputs(dropFolder(CODEX_SPAWN));
		expect(listing.sessions).toHaveLength(1);
		const [s] = listing.sessions;
		expect(s).toMatchObject({ harness: 'codex', id: '22222222-2222-4222-8222-222222222222', subagents: 1, title: 'Spawn a synthetic researcher.' });
		expect(s.files.map((f) => f.split('/').at(-1))).toEqual([
			'rollout-2026-01-03T04-05-06-22222222-2222-4222-8222-222222222222.jsonl',
			'rollout-2026-01-03T04-05-10-33333333-3333-4333-8333-333333333333.jsonl'
		]);
		// While the scan runs, a child seen before its parent waits instead of being listed alone.
		const { scans } = await scanInputs(dropFolder(CODEX_SPAWN));
		const child = scans.filter((f) => f.path.includes('33333333'));
		expect(groupScans(child, { partial: true }).sessions).toEqual([]);
		expect(groupScans(child).sessions.map((x) => [x.id, x.mainMissing])).toEqual([['33333333-3333-4333-8333-333333333333', true]]);
		expect(listing.sessions[0].mainMissing).toBeUndefined();
	});
});

describe('scan of a mixed drop', () => {
	const mixed = (): InputFile[] => [...claudeProject(25), ...codexRollouts(3, '.codex/sessions'), ...dropFolder(GEMINI_PROJECT)];

	it('lists Claude Code, Codex and Gemini CLI sessions, each with its harness', async () => {
		const { listing } = await scanInputs(mixed());
		expect(listing.unused).toEqual([]);
		const by = (h: string) => listing.sessions.filter((s) => s.harness === h);
		expect(by('claude-code')).toHaveLength(25);
		expect(by('codex').map((s) => s.title)).toEqual([2, 1, 0].map((i) => `Rollout ${i}: what does divide() do on zero? Screenshot of the failure attached.`));
		expect(by('codex').every((s) => s.project === '.codex/sessions')).toBe(true);
		const [gemini] = by('gemini');
		expect(by('gemini')).toHaveLength(1);
		// The sub-agent file under chats/<parent session id>/ belongs to its parent, not listed alone.
		expect(gemini).toMatchObject({ id: 'd4c1f0aa-5b6e-4f7a-9c1d-2e3f4a5b6c7d', title: 'Explained why divide() fails on zero', subagents: 1, project: 'calc-project' });
		expect(gemini.files).toHaveLength(2);
		expect(gemini.startedAt).toBe(Date.parse('2026-04-20T09:00:00.000Z'));
		expect(listing.sessions).toHaveLength(27 + 2 - 1 + 1);
	});
});

describe('harnessProject', () => {
	it('drops the date folders of a Codex rollout and the chats folder of a Gemini chat', () => {
		expect(harnessProject('home/.codex/sessions/2026/05/01/rollout-x.jsonl', 'codex')).toBe('home/.codex/sessions');
		expect(harnessProject('rollout-x.jsonl', 'codex')).toBe('');
		expect(harnessProject('tmp/abc/chats/session-1.jsonl', 'gemini')).toBe('tmp/abc');
		expect(harnessProject('pi/sessions/x.jsonl', 'pi')).toBe('pi/sessions');
	});
});

describe('the scan groups harness files as the full load does', () => {
	const H = join(CORPUS, '../harnesses');
	const folders = [
		'codex/daaain__claude-code-log/test/test_data/codex/sessions',
		'gemini/_authored__harness-corpus/tmp/calc-project',
		'opencode/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/opencode/storage_v2',
		'opencode/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/opencode/storage_legacy',
		'cursor/jazzyalex__agent-sessions/Resources/Fixtures/stage0/agents/cursor/subagent',
		'strap/_authored__harness-corpus',
		'pi/kenn-io__agentsview/internal/parser/testdata/pi'
	];
	for (const folder of folders) {
		it(folder.split('/')[0] + ': ' + folder.split('/').at(-1), async () => {
			const drop = dropFolder(join(H, folder)).filter((f) => !/(LICENSE|README\.md)$/.test(f.path));
			const [{ listing }, full] = await Promise.all([scanInputs(drop), loadSessions(drop)]);
			const filesOf = (paths: string[]) => [...paths].sort().join(' ');
			expect(listing.sessions.length).toBeGreaterThan(0);
			// Whatever the full load cannot read, the scan leaves unused too (a migration marker file, for one).
			expect(listing.unused.map((u) => u.path).sort()).toEqual(full.unknown.map((u) => u.path).sort());
			expect(listing.sessions.map((s) => filesOf(s.files)).sort()).toEqual(full.sessions.map((s) => filesOf(s.files.map((f) => f.path))).sort());
			for (const s of listing.sessions) {
				const built = full.sessions.find((b) => b.files.some((f) => f.path === s.files[0]));
				expect(s.harness).toBe(built?.meta.harness);
				expect(s.title).toBe(built?.meta.title);
				expect(built?.key.startsWith(`${s.id}-`)).toBe(true);
			}
		});
	}

	/** The listed session of one big file, and the session a full load of it opens. */
	async function listedAndOpened(path: string, text: string) {
		const drop = [{ path, blob: new Blob([text]) }];
		const [{ listing }, full] = await Promise.all([scanInputs(drop), loadSessions(drop)]);
		expect(listing.sessions).toHaveLength(1);
		expect(full.sessions).toHaveLength(1);
		expect(listing.sessions[0].bytes).toBeGreaterThan(SCAN_HEAD + SCAN_TAIL);
		return { listed: listing.sessions[0], opened: full.sessions[0] };
	}

	it('a rollout bigger than the head and tail: title from the head, last time from the tail as the open has it', async () => {
		const [small] = codexRollouts(1);
		const text = await small.blob.text();
		const pad = (i: number) => JSON.stringify({ timestamp: `2026-05-01T09:${String(i % 60).padStart(2, '0')}:00.000Z`, type: 'event_msg', payload: { type: 'agent_reasoning', text: 'x'.repeat(400) } });
		const answer = JSON.stringify({ timestamp: '2026-05-01T11:30:00.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] } });
		// The file has response items, so the open places an event mirror off-path: its later time is not the end.
		const mirror = JSON.stringify({ timestamp: '2026-05-01T11:45:00.000Z', type: 'event_msg', payload: { type: 'agent_message', message: 'done' } });
		const { listed, opened } = await listedAndOpened(small.path, text + Array.from({ length: 300 }, (_, i) => pad(i)).join('\n') + '\n' + answer + '\n' + mirror + '\n');
		expect(listed).toMatchObject({ harness: 'codex', title: 'Rollout 0: what does divide() do on zero? Screenshot of the failure attached.', exact: false, endedAt: Date.parse('2026-05-01T11:30:00.000Z') });
		expect(listed.endedAt).toBe(opened.endedAt);
	});

	it('a pi session whose last entries carry only an epoch-ms message time: the listed end is the opened one', async () => {
		const header = { type: 'session', version: 3, id: 'pi-epoch', timestamp: '2026-03-01T10:00:00Z', cwd: '/w' };
		// `at`: an ISO time on the entry; `epoch`: only message.timestamp, in epoch milliseconds
		const entry = (i: number, role: string, time: { at: string } | { epoch: number }) => ({
			type: 'message', id: `e${i}`, parentId: i ? `e${i - 1}` : null,
			...('at' in time ? { timestamp: time.at } : {}),
			message: { role, content: [{ type: 'text', text: `${role} ${i} ${'y'.repeat(300)}` }], ...('epoch' in time ? { timestamp: time.epoch } : {}) }
		});
		const rows: object[] = [header];
		for (let i = 0; i < 200; i++) rows.push(entry(i, i % 2 ? 'assistant' : 'user', { at: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString() }));
		const lastMs = Date.UTC(2026, 2, 1, 12, 0, 0);
		rows.push(entry(200, 'user', { epoch: lastMs - 1000 }), entry(201, 'assistant', { epoch: lastMs }));
		const { listed, opened } = await listedAndOpened('pi/sessions/pi-epoch.jsonl', rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
		expect(listed.harness).toBe('pi');
		expect(opened.endedAt).toBe(lastMs);
		expect(listed.endedAt).toBe(opened.endedAt);
	});
});
