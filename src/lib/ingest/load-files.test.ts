import { describe, expect, it } from 'vitest';
import { loadSessions, loadText, readFileRecords } from './load-files.ts';
import { CORPUS, dropFolder, enc, jsonl, WORKTREES } from './test-helpers.ts';
import type { InputFile, LoadProgress } from './types.ts';

const row = (uuid: string, parentUuid: string | null, ts: string, type = 'user', sessionId = 'S') => ({
	type,
	uuid,
	parentUuid,
	sessionId,
	timestamp: ts,
	message:
		type === 'user'
			? { role: 'user', content: `prompt ${uuid}` }
			: { id: `m-${uuid}`, role: 'assistant', model: 'x', stop_reason: 'end_turn', content: [{ type: 'text', text: `reply ${uuid}` }] }
});
const file = (path: string, text: string | Uint8Array): InputFile => ({ path, blob: new Blob([(typeof text === 'string' ? enc(text) : text) as BlobPart]) });

describe('loadSessions over the whole corpus', () => {
	it('every data file opens into a session; only README/LICENSE files are unknown; nothing fails', async () => {
		const files = dropFolder(CORPUS);
		const out = await loadSessions(files);
		expect(out.unknown.map((u) => u.name).sort()).toEqual(['LICENSE', 'LICENSE', 'LICENSE', 'LICENSE', 'README.md']);
		for (const u of out.unknown) expect(u.reason).toMatch(/not JSON/);
		const kinds = new Set(out.issues.map((i) => i.kind));
		for (const bad of ['parse-failed', 'unattached-subagent', 'empty-file', 'binary']) expect(kinds.has(bad)).toBe(false);
		// Every non-unknown file belongs to a session.
		const inSessions = new Set(out.sessions.flatMap((s) => s.files.map((f) => f.path)));
		const data = files.map((f) => f.path).filter((p) => !/(LICENSE|README\.md)$/.test(p));
		expect(data.filter((p) => !inSessions.has(p))).toEqual([]);
		expect(out.sessions).toHaveLength(11);
		for (const s of out.sessions) {
			expect(s.result.accounting.atoms).toBeGreaterThan(0);
			expect(s.title.length).toBeGreaterThan(0);
			expect(s.title.length).toBeLessThanOrEqual(80);
		}
		// Newest first.
		const when = out.sessions.map((s) => s.endedAt ?? s.startedAt ?? -Infinity);
		expect([...when].sort((a, b) => b - a)).toEqual(when);
		// Subagents: 6 (new layout) + 1 (2.1.17 folder) + 1 (legacy root) + 5 (inline) attached.
		const attached = Object.fromEntries(out.sessions.map((s) => [s.key.replace(/-[0-9a-z]+$/, ''), Object.keys(s.children).length]));
		expect(attached).toMatchObject({
			'ef958aa1-0e93-49f0-bb71-150f63befcd1': 6,
			'29ccd257-68b1-427f-ae5f-6524b7cb6f20': 1,
			'a7da6a22-facc-4fcd-8bab-f83c87862004': 1,
			'fe5e1c67-53e7-4862-81ae-d0e013e3270b': 5
		});
		const web = out.sessions.find((s) => s.key.startsWith('sample_session-'));
		expect(web?.title).toBe('Create a simple Python function to add two numbers');
	});

	it('the project folder keeps its session title and counts', async () => {
		const out = await loadSessions(dropFolder(WORKTREES));
		expect(out.sessions).toHaveLength(1);
		const [s] = out.sessions;
		expect(s.title).toMatch(/^OK, we're going to make a little experiment here\./);
		expect(s.meta.turns).toBe(s.result.session.turns.length);
		expect(s.meta.subagents).toBe(6);
		expect(s.files).toHaveLength(13);
		expect(s.bytes).toBe(s.files.reduce((n, f) => n + f.bytes, 0));
		expect(s.startedAt).toBeLessThan(s.endedAt as number);
	});
});

describe('loadSessions: bad files next to good ones', () => {
	it('empty, binary and JSON-document files are listed with reasons; the session still loads', async () => {
		const good = file('p/S.jsonl', jsonl([row('u1', null, '2026-01-01T00:00:00Z'), row('a1', 'u1', '2026-01-01T00:00:05Z', 'assistant')]));
		const out = await loadSessions([
			file('p/empty.jsonl', ''),
			file('p/image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
			file('p/doc.json', '{\n  "a": 1\n}\n'),
			good
		]);
		expect(out.sessions).toHaveLength(1);
		expect(out.sessions[0].title).toBe('prompt u1');
		expect(out.unknown.map((u) => [u.name, u.reason])).toEqual([
			['empty.jsonl', 'empty file (0 bytes)'],
			['image.png', 'binary file (contains NUL bytes)'],
			['doc.json', 'a JSON document, not JSON lines (one record per line)']
		]);
		expect(out.issues.filter((i) => i.line === null).map((i) => i.kind)).toEqual(['empty-file', 'binary', 'unknown-file']);
	});

	it('a file that fails while streaming becomes unknown with the error; the rest loads', async () => {
		const good = file('p/S.jsonl', jsonl([row('u1', null, '2026-01-01T00:00:00Z')]));
		const real = new Blob([enc(jsonl([row('x1', null, '2026-01-01T00:00:00Z', 'user', 'X')]))]);
		const failing = {
			size: real.size,
			slice: (a?: number, b?: number) => real.slice(a, b),
			stream: () =>
				new ReadableStream<Uint8Array>({
					pull(c) {
						c.error(new Error('the file was moved'));
					}
				})
		} as unknown as Blob;
		const out = await loadSessions([{ path: 'p/X.jsonl', blob: failing }, good]);
		expect(out.sessions.map((s) => s.key.split('-')[0])).toEqual(['S']);
		expect(out.unknown.map((u) => [u.path, u.reason])).toEqual([['p/X.jsonl', 'could not be read: the file was moved']]);
	});

	it('a state log joins its session and a resume chain loads as one session', async () => {
		const a = file('p/A.jsonl', jsonl([row('a1', null, '2026-01-01T00:00:00Z', 'user', 'A'), row('a2', 'a1', '2026-01-01T00:00:05Z', 'assistant', 'A')]));
		const b = file('p/B.jsonl', jsonl([row('b1', 'a2', '2026-01-02T00:00:00Z', 'user', 'B'), row('b2', 'b1', '2026-01-02T00:00:05Z', 'assistant', 'B')]));
		const st = file('states/B.jsonl', jsonl([{ t: Date.parse('2026-01-02T00:00:01Z') / 1000, state: 'idle' }, { t: Date.parse('2026-01-02T00:00:03Z') / 1000, state: 'working' }]));
		const out = await loadSessions([b, st, a]);
		expect(out.sessions).toHaveLength(1);
		const [s] = out.sessions;
		expect(s.key).toMatch(/^B-[0-9a-z]+$/);
		expect(s.files.map((f) => f.path)).toEqual(['p/A.jsonl', 'p/B.jsonl', 'states/B.jsonl']);
		const blobs = [a.blob, b.blob, st.blob];
		s.inputs.forEach((x, i) => expect(x.blob).toBe(blobs[i]));
		expect(s.inputs).toHaveLength(3);
		expect(s.result.session.leafFsid).toBe('B');
		const atoms = s.result.session.turns.flatMap((t) => t.atoms);
		expect(atoms.filter((x) => x.uuid).map((x) => x.fsid)).toEqual(['A', 'A', 'B', 'B']);
		expect(atoms.some((x) => x.type === 'idle')).toBe(true);
		expect(s.title).toBe('prompt a1');
	});
});

describe('keys, progress, abort, paste', () => {
	const text = jsonl([row('u1', null, '2026-01-01T00:00:00Z'), row('a1', 'u1', '2026-01-01T00:00:05Z', 'assistant')]);

	it('the key is stable for the same bytes and changes when the file grows', async () => {
		const k1 = (await loadText('S.jsonl', text)).sessions[0].key;
		const k2 = (await loadSessions([file('elsewhere/S.jsonl', text)])).sessions[0].key;
		const k3 = (await loadText('S.jsonl', text + jsonl([row('u2', 'a1', '2026-01-01T00:01:00Z')]))).sessions[0].key;
		expect(k1).toMatch(/^S-[0-9a-z]+$/);
		expect(k2).toBe(k1);
		expect(k3).not.toBe(k1);
	});

	it('pasted text gets a .jsonl name and loads; onSession sees it', async () => {
		const built: string[] = [];
		const out = await loadText('pasted', text, { onSession: (s) => built.push(s.key) });
		expect(built).toEqual([out.sessions[0].key]);
		expect(out.sessions[0].files[0].path).toBe('pasted.jsonl');
		expect(out.sessions[0].result.accounting.atoms).toBe(2);
	});

	it('reports progress per chunk up to the file size, with line counts', async () => {
		const big = jsonl(Array.from({ length: 3000 }, (_, i) => row(`u${i}`, i ? `u${i - 1}` : null, '2026-01-01T00:00:00Z')));
		const all: LoadProgress[] = [];
		const state = file('states/S.jsonl', jsonl([{ t: 1, state: 'idle' }]));
		await loadSessions([file('p/S.jsonl', big), state], { chunkBytes: 16384, onProgress: (p) => all.push(p) });
		const seen = all.filter((p) => p.file === 'p/S.jsonl' && p.phase === 'read');
		const n = enc(big).length;
		const total = n + state.blob.size;
		expect(seen.length).toBe(Math.ceil(n / 16384));
		for (let i = 1; i < seen.length; i++) expect(seen[i].bytesRead).toBeGreaterThan(seen[i - 1].bytesRead);
		expect(seen.at(-1)).toEqual({ file: 'p/S.jsonl', bytesRead: n, bytesTotal: n, lines: 3000, phase: 'read', overallRead: n, overallTotal: total });
		const reads = all.filter((p) => p.phase === 'read');
		expect(reads.at(-1)).toMatchObject({ file: 'states/S.jsonl', overallRead: total, overallTotal: total });
		expect(all.at(-1)).toMatchObject({ phase: 'build', file: 'p/S.jsonl', bytesTotal: n });
	});

	it('an abort between chunks rejects with AbortError', async () => {
		const big = jsonl(Array.from({ length: 3000 }, (_, i) => row(`u${i}`, null, '2026-01-01T00:00:00Z')));
		const ac = new AbortController();
		const run = loadSessions([file('p/S.jsonl', big)], { chunkBytes: 16384, signal: ac.signal, onProgress: () => ac.abort() });
		await expect(run).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('files whose bytes were read already load as their blobs do, and the blobs are not read again', async () => {
		const main = jsonl([row('u1', null, '2026-01-01T00:00:00Z'), row('a1', 'u1', '2026-01-01T00:00:01Z', 'assistant')]);
		const meta = JSON.stringify({ agentType: 'Explore', description: 'look' });
		const agent = jsonl([{ ...row('x1', null, '2026-01-01T00:00:02Z'), isSidechain: true, agentId: 'abc' }]);
		const given = [file('p/S.jsonl', main), file('p/S/subagents/agent-abc.meta.json', meta), file('p/S/subagents/agent-abc.jsonl', agent)];
		const unreadable = {
			size: 0,
			stream: () => {
				throw new Error('stream() must not be used');
			},
			text: () => Promise.reject(new Error('text() must not be used')),
			arrayBuffer: () => Promise.reject(new Error('arrayBuffer() must not be used')),
			slice: () => {
				throw new Error('slice() must not be used');
			}
		};
		const preread = given.map((f, i) => ({ path: f.path, blob: { ...unreadable, size: f.blob.size } as unknown as Blob, bytes: enc([main, meta, agent][i]) }));
		const [a, b] = [await loadSessions(given), await loadSessions(preread)];
		expect(b.issues).toEqual(a.issues);
		expect(b.sessions.map((s) => s.key)).toEqual(a.sessions.map((s) => s.key));
		expect(b.sessions[0].result.session).toEqual(a.sessions[0].result.session);
		expect(b.sessions[0].children).toEqual(a.sessions[0].children);
	});

	it('reads a file only through its stream, never as one string', async () => {
		const blob = new Blob([enc(text)]);
		const streamOnly = {
			size: blob.size,
			stream: () => blob.stream(),
			text: () => Promise.reject(new Error('text() must not be used')),
			arrayBuffer: () => Promise.reject(new Error('arrayBuffer() must not be used')),
			slice: () => {
				throw new Error('slice() must not be used');
			}
		} as unknown as Blob;
		const fr = await readFileRecords('p/S.jsonl', streamOnly);
		expect(fr.records).toHaveLength(2);
		expect(fr.bytes).toBe(blob.size);
	});
});
