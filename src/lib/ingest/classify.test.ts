import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { classifyFile, HEAD_BYTES, unreadableEntry } from './classify.ts';
import { bytesOf, CORPUS, DEEP_MANIFEST, enc, INLINE, jsonl, WORKTREES, CLAUDE_P } from './test-helpers.ts';

const SID = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';
const user = (extra: Record<string, unknown> = {}) => ({
	type: 'user',
	uuid: 'u1',
	parentUuid: null,
	sessionId: 's1',
	timestamp: '2026-01-01T00:00:00Z',
	message: { role: 'user', content: 'hi' },
	...extra
});

/** Classify a text as if it were a whole file. */
function cls(path: string, text: string | Uint8Array) {
	const b = typeof text === 'string' ? enc(text) : text;
	return classifyFile(path, b.subarray(0, HEAD_BYTES), b.length);
}
/** Classify a corpus file from its real head. */
function clsFile(abs: string, rel: string) {
	const b = bytesOf(abs);
	return classifyFile(rel, b.subarray(0, HEAD_BYTES), b.length);
}

describe('classifyFile: synthetic table', () => {
	const cases: [string, string, string | Uint8Array, string, RegExp | null][] = [
		['empty file', 'p/x.jsonl', '', 'unknown', /empty file \(0 bytes\)/],
		['blank lines only', 'p/x.jsonl', '\n\n  \n', 'unknown', /only blank lines/],
		['NUL bytes', 'p/x.jsonl', new Uint8Array([0x7b, 0, 1, 2, 3]), 'unknown', /binary.*NUL/],
		['gzip', 'p/x.jsonl.gz', new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), 'unknown', /gzip-compressed: extract it first/],
		['zip', 'p/x.zip', new Uint8Array([0x50, 0x4b, 3, 4, 20, 0]), 'unknown', /zip archive/],
		['invalid UTF-8', 'p/x.jsonl', new Uint8Array([0x7b, 0xff, 0xfe, 0x41, 0x0a]), 'unknown', /not valid UTF-8/],
		['pretty JSON document', 'p/x.json', '{\n  "a": 1,\n  "b": [1, 2]\n}\n', 'unknown', /JSON document, not JSON lines/],
		['one-line JSON document that is not a transcript', 'p/x.json', '{"a": 1}', 'unknown', /not a Claude Code transcript/],
		['markdown', 'p/README.md', '# Title\n\ntext\n', 'unknown', /not JSON.*\.md file/],
		['licence text', 'p/LICENSE', 'MIT License\n', 'unknown', /first line is not JSON/],
		['main transcript', 'p/s1.jsonl', jsonl([user()]), 'transcript', null],
		['state log by path', 'states/s1.jsonl', jsonl([{ t: 1, state: 'working' }, { t: 2, state: 'idle' }]), 'state-log', null],
		['state log by content', 'elsewhere/rows.jsonl', jsonl([{ t: 1, state: 'working' }]), 'state-log', null],
		['postal log', 'timeline/messages.jsonl', jsonl([{ t: 1, ev: 'sent', id: 'm1', from_id: 'a', to_id: 'b' }]), 'postal-log', null],
		['sidechain-only file with agentId', 'p/whatever.jsonl', jsonl([user({ isSidechain: true, agentId: 'abc' })]), 'subagent', /sidechain lines of one agent/],
		['legacy agent file', 'p/agent-abc.jsonl', jsonl([user({ isSidechain: true, agentId: 'abc' })]), 'subagent', /legacy root-level/],
		['meta sidecar', 's1/subagents/agent-abc.meta.json', '{"agentType":"general-purpose","description":"d"}', 'subagent-meta', null],
		['meta that is not JSON', 's1/subagents/agent-abc.meta.json', 'nope', 'unknown', /not valid JSON/],
		['JSONL of non-transcript objects', 'p/x.jsonl', jsonl([{ a: 1 }, { b: 2 }]), 'unknown', /not a Claude Code transcript/],
		['workflow journal', 's1/subagents/workflows/r1/journal.jsonl', jsonl([{ type: 'started', sessionId: 's1', t: 1 }, { type: 'result', sessionId: 's1' }]), 'unknown', /side file of a subagent run/],
		['web export', 'p/sample.json', JSON.stringify({ loglines: [{ type: 'user', message: { content: 'x' } }] }, null, 2), 'transcript', /web export/]
	];
	it.each(cases)('%s', (_name, path, text, kind, reason) => {
		const c = cls(path, text);
		expect(c.kind).toBe(kind);
		if (reason) expect(c.reason).toMatch(reason);
		if (kind === 'unknown') expect(c.reason).toBeTruthy();
	});

	it('reads ids from names and lines', () => {
		expect(cls('p/s1.jsonl', jsonl([user()])).sessionId).toBe('s1');
		expect(cls('p/other.jsonl', jsonl([user()])).sessionId).toBe('s1');
		expect(cls('states/abc.jsonl', jsonl([{ t: 1, state: 'idle' }])).sessionId).toBe('abc');
		const sub = cls('s9/subagents/agent-q1.jsonl', jsonl([user({ isSidechain: true, agentId: 'q1' })]));
		expect(sub).toMatchObject({ kind: 'subagent', sessionId: 's9', agentId: 'q1' });
		const meta = cls('s9/subagents/agent-q1.meta.json', '{"agentType":"x"}');
		expect(meta).toMatchObject({ sessionId: 's9', agentId: 'q1' });
	});

	it('keeps sessions whose inline sidechain lines have no agentId as transcripts', () => {
		expect(cls('p/x.jsonl', jsonl([user({ isSidechain: true })])).kind).toBe('transcript');
	});

	it('recognises a transcript whose first line is longer than the head', () => {
		const big = JSON.stringify(user({ message: { role: 'user', content: 'x'.repeat(HEAD_BYTES * 2) } })) + '\n';
		expect(cls('p/s1.jsonl', big)).toMatchObject({ kind: 'transcript', sessionId: 's1' });
		const bigSide = JSON.stringify({ isSidechain: true, agentId: 'zz', ...user({ message: { role: 'user', content: 'x'.repeat(HEAD_BYTES * 2) } }) }) + '\n';
		expect(cls('p/anything.jsonl', bigSide)).toMatchObject({ kind: 'subagent', agentId: 'zz' });
		// isSidechain after the long message: the agent-*.jsonl name decides.
		const late = JSON.stringify(user({ message: { role: 'user', content: 'x'.repeat(HEAD_BYTES * 2) }, isSidechain: true })) + '\n';
		expect(cls('p/agent-zz.jsonl', late)).toMatchObject({ kind: 'subagent', agentId: 'zz' });
		expect(cls('p/s1.jsonl', late).kind).toBe('transcript');
	});

	it('recognises a large web export, minified or pretty-printed', () => {
		const doc = { loglines: Array.from({ length: 2000 }, (_, i) => ({ type: 'user', timestamp: 't', message: { content: `prompt number ${i}` } })) };
		expect(cls('p/web.json', JSON.stringify(doc))).toMatchObject({ kind: 'transcript', format: 'web-json' });
		expect(cls('p/web.json', JSON.stringify(doc, null, 2))).toMatchObject({ kind: 'transcript', format: 'web-json' });
		expect(cls('p/other.json', JSON.stringify({ items: doc.loglines }, null, 2))).toMatchObject({ kind: 'unknown' });
		expect(cls('p/other.json', JSON.stringify({ items: doc.loglines }))).toMatchObject({ kind: 'unknown' });
	});

	it('does not take a multi-byte character cut at the head boundary for binary', () => {
		const text = jsonl([user({ message: { role: 'user', content: 'é'.repeat(HEAD_BYTES) } })]);
		const b = enc(jsonl([user()]) + text);
		for (const cut of [1023, 1024, 1025, HEAD_BYTES - 1, HEAD_BYTES]) {
			expect(classifyFile('p/s1.jsonl', b.subarray(0, cut), b.length).kind).toBe('transcript');
		}
	});
});

describe('unreadableEntry (what a folder walk could not read)', () => {
	it('a file and a folder are listed as unknown with their name and why', () => {
		expect(unreadableEntry('projects/p/gone.jsonl')).toMatchObject({ path: 'projects/p/gone.jsonl', name: 'gone.jsonl', kind: 'unknown', bytes: 0, reason: expect.stringMatching(/would not hand this file over/) });
		expect(unreadableEntry('projects/locked/')).toMatchObject({ name: 'locked', kind: 'unknown', reason: expect.stringMatching(/would not list this folder/) });
	});
});

describe('classifyFile: corpus files', () => {
	it('the new layout: main, subagents and meta', () => {
		const main = clsFile(join(WORKTREES, `${SID}.jsonl`), `-experiments-worktrees/${SID}.jsonl`);
		expect(main).toMatchObject({ kind: 'transcript', sessionId: SID });
		const rel = `-experiments-worktrees/${SID}/subagents/agent-a36efb2a1231c41e2`;
		const sub = clsFile(join(WORKTREES, SID, 'subagents/agent-a36efb2a1231c41e2.jsonl'), `${rel}.jsonl`);
		expect(sub).toMatchObject({ kind: 'subagent', sessionId: SID, agentId: 'a36efb2a1231c41e2' });
		const meta = clsFile(join(WORKTREES, SID, 'subagents/agent-a36efb2a1231c41e2.meta.json'), `${rel}.meta.json`);
		expect(meta).toMatchObject({ kind: 'subagent-meta', sessionId: SID, agentId: 'a36efb2a1231c41e2' });
	});

	it('the legacy root-level agent file', () => {
		const c = clsFile(join(DEEP_MANIFEST, 'agent-c8d9b115.jsonl'), '-src-deep-manifest/agent-c8d9b115.jsonl');
		expect(c).toMatchObject({ kind: 'subagent', sessionId: 'a7da6a22-facc-4fcd-8bab-f83c87862004', agentId: 'c8d9b115' });
	});

	it('2.1.17 subagents folder without meta', () => {
		const c = clsFile(join(CLAUDE_P, '29ccd257-68b1-427f-ae5f-6524b7cb6f20/subagents/agent-a2271d1.jsonl'), 'x/29ccd257-68b1-427f-ae5f-6524b7cb6f20/subagents/agent-a2271d1.jsonl');
		expect(c).toMatchObject({ kind: 'subagent', sessionId: '29ccd257-68b1-427f-ae5f-6524b7cb6f20', agentId: 'a2271d1' });
	});

	it('inline-sidechain session (1.0.x) is a main transcript', () => {
		const c = clsFile(join(INLINE, 'fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'), 'sample-project/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl');
		expect(c.kind).toBe('transcript');
	});

	it('files with // comment headers, a 1 MB first line, edge cases', () => {
		expect(clsFile(join(CORPUS, 'session-share/session-viewer/test/INTEGRATION/fixtures/images-in-tool-results.jsonl'), 'f/images-in-tool-results.jsonl').kind).toBe('transcript');
		expect(clsFile(join(CORPUS, 'claude-code-log/test/test_data/edge_cases.jsonl'), 'edge_cases.jsonl')).toMatchObject({ kind: 'transcript', sessionId: 'edge_cases' });
		expect(clsFile(join(CORPUS, 'claude-code-log/test/test_data/real_projects/-Users-dain-workspace-claude-code-log-sample/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl'), 'p/0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl').kind).toBe('transcript');
	});

	it('the web JSON export and the licence', () => {
		expect(clsFile(join(CORPUS, 'claude-code-transcripts/tests/sample_session.json'), 't/sample_session.json')).toMatchObject({ kind: 'transcript', format: 'web-json' });
		expect(clsFile(join(CORPUS, 'claude-code-transcripts/LICENSE'), 't/LICENSE').kind).toBe('unknown');
	});
});
