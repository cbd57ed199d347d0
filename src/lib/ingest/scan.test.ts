import { describe, expect, it } from 'vitest';
import { fileIdentity, groupScans, scanFile, scanInputs, storedScans, SCAN_HEAD, SCAN_TAIL } from './scan.ts';
import { enc, jsonl } from './test-helpers.ts';

const at = (min: number) => new Date(Date.UTC(2026, 6, 1, 8, min)).toISOString();
const user = (uuid: string, text: string, min: number, sid = 'S1', extra: Record<string, unknown> = {}) => ({
	type: 'user', uuid, parentUuid: null, sessionId: sid, cwd: '/home/me/work/api', timestamp: at(min), message: { role: 'user', content: text }, ...extra
});
const assistant = (uuid: string, min: number, sid = 'S1', extra: Record<string, unknown> = {}) => ({
	type: 'assistant', uuid, parentUuid: null, sessionId: sid, timestamp: at(min), message: { role: 'assistant', model: 'claude-opus-4-7', content: [{ type: 'text', text: 'ok' }] }, ...extra
});
const whole = (path: string, rows: unknown[]) => {
	const b = enc(jsonl(rows));
	return scanFile(path, b, new Uint8Array(0), b.length);
};
/** A file bigger than head + tail: the middle is filler the scan must not need. */
function bigFile(head: unknown[], middle: unknown, middleCount: number, tail: unknown[]): Uint8Array {
	return enc(jsonl([...head, ...Array.from({ length: middleCount }, () => middle), ...tail]));
}
const split = (b: Uint8Array) => [b.subarray(0, SCAN_HEAD), b.subarray(b.length - SCAN_TAIL)] as const;

describe('scanFile', () => {
	it('reads title, times, model and cwd of a whole small file', () => {
		const s = whole('proj/S1.jsonl', [user('u1', '/clear', 0), user('u2', 'Fix the flaky parser test', 1), assistant('a1', 5), { type: 'ai-title', aiTitle: 'Parser flake' }]);
		expect(s.kind).toBe('transcript');
		expect(s.firstMs).toBe(Date.parse(at(0)));
		expect(s.lastMs).toBe(Date.parse(at(5)));
		expect(s.model).toBe('claude-opus-4-7');
		expect(s.cwd).toBe('/home/me/work/api');
		expect(s.firstPrompt).toBe('Fix the flaky parser test');
		expect(s.aiTitle).toBe('Parser flake');
		expect(s.whole).toBe(true);
		expect(s.prompts).toBe(1);
	});

	it('takes the last time and a late custom title from the tail of a big file, skipping the cut line', () => {
		const filler = assistant('m', 30, 'S1', { message: { role: 'assistant', content: [{ type: 'text', text: 'x'.repeat(500) }] } });
		const b = bigFile([user('u1', 'Start here', 0)], filler, 400, [assistant('z', 59), { type: 'custom-title', customTitle: 'Mine' }]);
		expect(b.length).toBeGreaterThan(SCAN_HEAD + SCAN_TAIL);
		const [h, t] = split(b);
		const s = scanFile('proj/S1.jsonl', h, t, b.length);
		expect(s.whole).toBe(false);
		expect(s.lastMs).toBe(Date.parse(at(59)));
		expect(s.firstMs).toBe(Date.parse(at(0)));
		expect(s.customTitle).toBe('Mine');
		expect(s.firstPrompt).toBe('Start here');
		// One prompt at the start of a big file is one turn, not one per head-sized slice.
		expect(groupScans([s]).sessions[0]).toMatchObject({ turnsEst: 1, exact: false });
	});

	it('a whole small file with more lines than the head sniff parses still ends at its last line', () => {
		const rows = [user('u1', 'Start', 0), ...Array.from({ length: 300 }, (_, i) => ({ type: 'progress', uuid: `p${i}`, sessionId: 'S1', timestamp: at(1) })), assistant('z', 42), { type: 'custom-title', customTitle: 'Late' }];
		const s = whole('proj/S1.jsonl', rows);
		expect(s.whole).toBe(true);
		expect(s.lastMs).toBe(Date.parse(at(42)));
		expect(s.customTitle).toBe('Late');
	});

	it('notes the other session ids on the head (a resume link)', () => {
		const s = whole('proj/S2.jsonl', [user('u1', 'old prompt', 0, 'S1'), user('u2', 'go on', 9, 'S2')]);
		expect(s.linked).toEqual(['S1']);
	});
});

describe('groupScans', () => {
	const main = whole('p/S1.jsonl', [user('u1', 'First', 0), assistant('a1', 3)]);
	const other = whole('p/S3.jsonl', [user('v1', 'Later one', 10), assistant('b1', 20, 'S3')].map((r) => ({ ...r, sessionId: 'S3' })));
	const sub = whole('p/S1/subagents/agent-x1.jsonl', [user('s1', 'sub task', 1, 'S1', { isSidechain: true, agentId: 'x1' })]);
	const meta = scanFile('p/S1/subagents/agent-x1.meta.json', enc('{"agentType":"general"}'), new Uint8Array(0), 23);
	const side = scanFile('p/S1/tool-results/t.txt', enc('output\n'), new Uint8Array(0), 7);

	it('lists one session per transcript, newest first, with its subagents and sidecars', () => {
		const { sessions, unused } = groupScans([main, sub, meta, other, side]);
		expect(sessions.map((s) => s.id)).toEqual(['S3', 'S1']);
		const s1 = sessions[1];
		expect(s1.subagents).toBe(1);
		expect(s1.files).toEqual(['p/S1.jsonl', 'p/S1/subagents/agent-x1.jsonl', 'p/S1/subagents/agent-x1.meta.json']);
		expect(s1.project).toBe('p');
		expect(s1.title).toBe('First');
		expect(s1.harness).toBe('claude-code');
		// tool-results side files are expected next to a session: not reported.
		expect(unused).toEqual([]);
		const stray = scanFile('p/notes.txt', enc('hello\n'), new Uint8Array(0), 6);
		expect(groupScans([main, stray]).unused.map((u) => u.path)).toEqual(['p/notes.txt']);
	});

	it('a resumed session takes its ancestor in, which is then not listed on its own', () => {
		const resumed = whole('p/S2.jsonl', [user('u1', 'First', 0, 'S1'), user('w1', 'continue', 30, 'S2')]);
		const { sessions } = groupScans([main, resumed]);
		expect(sessions.map((s) => s.id)).toEqual(['S2']);
		expect(sessions[0].files).toEqual(['p/S1.jsonl', 'p/S2.jsonl']);
		expect(sessions[0].startedAt).toBe(Date.parse(at(0)));
	});

	it("a resumed session takes in its ancestor's subagents and sidecars too (their calls are the session's)", () => {
		const resumed = whole('p/S2.jsonl', [user('u1', 'First', 0, 'S1'), user('w1', 'continue', 30, 'S2')]);
		const again = whole('p/S4.jsonl', [user('w1', 'continue', 30, 'S2'), user('z1', 'more', 50, 'S4')]);
		const { sessions, unused } = groupScans([main, sub, meta, resumed, again]);
		expect(sessions.map((s) => s.id)).toEqual(['S4']);
		expect(sessions[0].files).toEqual(['p/S1.jsonl', 'p/S2.jsonl', 'p/S4.jsonl', 'p/S1/subagents/agent-x1.jsonl', 'p/S1/subagents/agent-x1.meta.json']);
		expect(sessions[0].subagents).toBe(1);
		expect(unused).toEqual([]);
	});

	it('a subagent folder without its main transcript is one session of its project, except in a partial listing', () => {
		expect(groupScans([sub, meta]).sessions.map((s) => [s.id, s.project, s.mainMissing, s.files.length])).toEqual([['S1', 'p', true, 2]]);
		expect(groupScans([sub], { partial: true }).sessions).toEqual([]);
		// A subagent file outside any <sid>/subagents/ folder is still listed on its own.
		const loose = whole('agent-x1.jsonl', [user('s1', 'sub task', 1, 'S1', { isSidechain: true, agentId: 'x1' })]);
		expect(groupScans([loose]).sessions.map((s) => [s.id, s.mainMissing])).toEqual([['agent-x1', undefined]]);
	});

	it('keys are stable for the same bytes and change when the leaf grows', () => {
		const again = whole('p/S1.jsonl', [user('u1', 'First', 0), assistant('a1', 3)]);
		const grown = whole('p/S1.jsonl', [user('u1', 'First', 0), assistant('a1', 3), assistant('a2', 4)]);
		expect(groupScans([again]).sessions[0].key).toBe(groupScans([main]).sessions[0].key);
		expect(groupScans([grown]).sessions[0].key).not.toBe(groupScans([main]).sessions[0].key);
	});
});

describe('scanInputs', () => {
	it('reads only slices, reports provisional listings, and ends with the full one', async () => {
		const files = Array.from({ length: 30 }, (_, i) => ({ path: `proj/S${i}.jsonl`, blob: new Blob([jsonl([user(`u${i}`, `prompt ${i}`, i, `S${i}`)])]) }));
		const batches: number[] = [];
		const { listing } = await scanInputs(files, { batchMs: 0, onBatch: (l) => batches.push(l.sessions.length) });
		expect(listing.sessions).toHaveLength(30);
		expect(listing.sessions[0].title).toBe('prompt 29');
		expect(batches.length).toBeGreaterThan(0);
		expect(Math.max(...batches)).toBeLessThanOrEqual(30);
	});

	it('reads no file for firstListPauseMs after its first provisional listing, then goes on', async () => {
		const events: [string, number][] = [];
		const files = Array.from({ length: 4 }, (_, i) => {
			const blob = new Blob([jsonl([user(`u${i}`, `prompt ${i}`, i, `S${i}`)])]);
			const slice = blob.slice.bind(blob);
			blob.slice = (...a: Parameters<Blob['slice']>) => {
				events.push(['read', performance.now()]);
				return slice(...a);
			};
			return { path: `proj/S${i}.jsonl`, blob };
		});
		const gapAfterFirstList = async (firstListPauseMs: number) => {
			events.length = 0;
			const { listing } = await scanInputs(files, { batchMs: 0, concurrency: 1, firstListPauseMs, onBatch: () => events.push(['list', performance.now()]) });
			expect(listing.sessions).toHaveLength(4);
			const at = events.findIndex(([kind]) => kind === 'list');
			expect(events.filter(([kind]) => kind === 'list')).toHaveLength(4);
			return events[at + 1][1] - events[at][1];
		};
		expect(await gapAfterFirstList(150)).toBeGreaterThanOrEqual(140);
		expect(await gapAfterFirstList(0)).toBeLessThan(140);
	});

	it('after its first listing, sends the next ones every laterBatchMs', async () => {
		const files = Array.from({ length: 6 }, (_, i) => ({ path: `proj/S${i}.jsonl`, blob: new Blob([jsonl([user(`u${i}`, `prompt ${i}`, i, `S${i}`)])]) }));
		let lists = 0;
		await scanInputs(files, { batchMs: 0, laterBatchMs: 60_000, concurrency: 1, onBatch: () => lists++ });
		expect(lists).toBe(1);
		lists = 0;
		await scanInputs(files, { batchMs: 0, concurrency: 1, onBatch: () => lists++ });
		expect(lists).toBe(6);
	});

	it('never reads the tool-results side files of a session, and reports none of them', async () => {
		const reads: string[] = [];
		const counted = (path: string, text: string) => {
			const blob = new Blob([text]);
			const slice = blob.slice.bind(blob);
			blob.slice = (...a: Parameters<Blob['slice']>) => {
				reads.push(path);
				return slice(...a);
			};
			return { path, blob };
		};
		const files = [
			counted('proj/S1.jsonl', jsonl([user('u1', 'prompt', 0, 'S1')])),
			...Array.from({ length: 5 }, (_, i) => counted(`proj/S1/tool-results/toolu_${i}.txt`, 'a long tool output\n'.repeat(50)))
		];
		const { listing } = await scanInputs(files);
		expect(reads).toEqual(['proj/S1.jsonl']);
		expect(listing.sessions.map((x) => x.title)).toEqual(['prompt']);
		expect(listing.unused).toEqual([]);
	});

	it('stops when aborted', async () => {
		const abort = new AbortController();
		abort.abort();
		await expect(scanInputs([{ path: 'a.jsonl', blob: new Blob(['{}']) }], { signal: abort.signal })).rejects.toThrow();
	});
});

describe('reusing stored scans', () => {
	it('a file whose identity is known is not read at all; uuids are kept only where a summary names them', async () => {
		const rows = [{ type: 'summary', summary: 'Old title', leafUuid: 'u2' }, user('u1', 'hello', 0), user('u2', 'more', 1)];
		const f = new File([jsonl(rows)], 'S1.jsonl', { lastModified: 42 });
		const first = await scanInputs([{ path: 'p/S1.jsonl', blob: f }]);
		const stored = storedScans(first.scans, first.identities);
		expect(stored[0].uuids).toEqual(['u2']);
		expect(stored[0].identity).toBe(fileIdentity('p/S1.jsonl', f));
		// Same identity, unreadable bytes: the stored scan answers.
		const unreadable = new File(['x'.repeat(f.size)], 'S1.jsonl', { lastModified: 42 });
		unreadable.slice = () => {
			throw new Error('read');
		};
		const again = await scanInputs([{ path: 'p/S1.jsonl', blob: unreadable }], { known: new Map(stored.map((s) => [s.identity, s])) });
		expect(again.reused).toBe(1);
		expect(again.listing.sessions[0].title).toBe(first.listing.sessions[0].title);
		expect(again.listing.sessions[0].title).toBe('Old title');
	});

	it('a reused scan of a file whose uuids were trimmed is still a session; a summary-only file still is not', async () => {
		const files = [
			{ path: 'p/S1.jsonl', blob: new File([jsonl([user('u1', 'hello', 0)])], 'S1.jsonl', { lastModified: 7 }) },
			{ path: 'p/OLD.jsonl', blob: new File([jsonl([{ type: 'summary', summary: 'Gone', leafUuid: 'elsewhere' }])], 'OLD.jsonl', { lastModified: 7 }) }
		];
		const first = await scanInputs(files);
		const stored = storedScans(first.scans, first.identities);
		expect(stored.find((x) => x.path === 'p/S1.jsonl')?.uuids).toEqual([]);
		const again = await scanInputs(files, { known: new Map(stored.map((x) => [x.identity, x])) });
		expect(again.reused).toBe(2);
		for (const l of [first.listing, again.listing]) {
			expect(l.sessions.map((x) => x.id)).toEqual(['S1']);
			expect(l.unused.map((u) => u.path)).toEqual(['p/OLD.jsonl']);
		}
	});

	it('a Blob without a modification time has no identity and is never reused', () => {
		expect(fileIdentity('a.jsonl', new Blob(['x']))).toBeNull();
	});
});

describe('scanInputs: a file that reads its head and tail over the network (ScanReadHint)', () => {
	/** A Blob that records the ranges read and says how much a scan reads first. */
	const hinted = (bytes: Uint8Array, reads: [number, number][]) => {
		const blob = new Blob([bytes as Uint8Array<ArrayBuffer>]);
		const wrap = (from: number, to: number) => ({ size: to - from, arrayBuffer: () => (reads.push([from, to]), blob.slice(from, to).arrayBuffer()) });
		return { size: bytes.length, scanHead: 8192, scanTail: 4096, slice: (a: number, b: number) => wrap(a, b) } as unknown as Blob;
	};
	const filler = assistant('m', 30);

	it('reads the small head and tail only, when they hold whole lines', async () => {
		const reads: [number, number][] = [];
		const bytes = bigFile([user('u1', 'Short prompt', 0), assistant('a1', 1)], filler, 400, [assistant('z1', 59)]);
		const { listing } = await scanInputs([{ path: 'p/S1.jsonl', blob: hinted(bytes, reads) }]);
		expect(reads.sort((a, b) => a[0] - b[0])).toEqual([[0, 8192], [bytes.length - 4096, bytes.length]]);
		expect(listing.sessions[0]).toMatchObject({ title: 'Short prompt', endedAt: Date.parse(at(59)) });
	});

	it('reads a head or tail again at the usual size when its first read holds too few whole lines', async () => {
		const reads: [number, number][] = [];
		const long = 'x'.repeat(12_000);
		const bytes = bigFile([user('u1', `Long ${long}`, 0), assistant('a1', 1)], filler, 400, [assistant('z1', 58), user('z2', `end ${long}`, 59)]);
		const { listing } = await scanInputs([{ path: 'p/S1.jsonl', blob: hinted(bytes, reads) }]);
		expect(reads).toContainEqual([0, SCAN_HEAD]);
		expect(reads).toContainEqual([bytes.length - SCAN_TAIL, bytes.length]);
		expect(listing.sessions[0].title.startsWith('Long xxx')).toBe(true);
		expect(listing.sessions[0].endedAt).toBe(Date.parse(at(59)));
	});
});
