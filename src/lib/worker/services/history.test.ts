// The history service inside the engine: a big drop indexed in the background from its listing,
// exactly what opening each session shows; a re-drop of the same tree reads nothing; an append,
// a truncation and a deleted file read only the sessions they changed; a full disk leaves the
// index working in memory, marked partial; an open preempts it. Lanes run in-process here (Node
// has no nested workers; the e2e history spec drives real ones).
import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { scanInputs } from '../../ingest/scan.ts';
import { filesUnder } from '../../../../scripts/lib/files.ts';
import { openHistoryStore } from '../../store/history-index.ts';
import { loadSessions } from '../../ingest/load-files.ts';
import { billedCalls } from '../../view/history/calls.ts';
import { digestOf } from '../../view/history/digest.ts';
import { LocalHistoryLane, type HistoryJob, type HistoryLane, type HistoryResult } from '../../view/history/lane.ts';
import { Engine } from '../engine.ts';
import { WHOLE_MAX } from '../../view/history/file-pass.ts';
import { dedupeCalls, usageReport } from '../../view/history/reports.ts';
import { openDB } from 'idb';
import { historyUsage } from './history-usage.ts';
import type { BilledCall, SessionDigest, UsageQuery, UsageReport } from '../../view/history/types.ts';

/** A report with its costs rounded (sums over the same calls in another order differ in the last bits). */
const rounded = (r: UsageReport | null | undefined) => r && JSON.parse(JSON.stringify(r, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1e9) / 1e9 : v)));

let root = '';
let files: { path: string; blob: Blob }[] = [];
let db = 0;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loupe-history-'));
  const tree = join(root, 'projects');
  execFileSync('node', [join(__dirname, '../../../../../shared/bench/gen-project.mjs'), '--mb', '1', '--sessions', '30', '--projects', '3', '--seed', '7', '--out', tree]);
  files = filesUnder(tree).map((p) => ({ path: relative(root, p), blob: new File([readFileSync(p)], p.split('/').at(-1)!, { lastModified: 1_700_000_000_000 }) }));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});
const realPut = IDBObjectStore.prototype.put;
afterEach(() => {
  IDBObjectStore.prototype.put = realPut;
});

/** An in-process lane that records what it indexed (and, with a gate, waits to be let go). */
class CountingLane implements HistoryLane {
  inner = new LocalHistoryLane();
  ran: string[] = [];
  onStart: (key: string) => void = () => {};
  gate: Promise<void> | null = null;
  /** Sessions the usage pass read (its calls only), apart from those indexed (`ran`). */
  priced: string[] = [];
  /** The files of each session the usage pass read. */
  pricedFiles: string[][] = [];
  async index(job: HistoryJob): Promise<HistoryResult> {
    (job.usageOnly ? this.priced : this.ran).push(job.listed.key);
    if (job.usageOnly) this.pricedFiles.push([...job.listed.files]);
    this.onStart(job.listed.key);
    if (this.gate) await this.gate;
    return this.inner.index(job);
  }
}

async function engine(dbName: string, lane = new CountingLane()) {
  return { engine: new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName }), historyLanes: () => [lane] }), lane };
}

async function loaded(dbName: string, given: { path: string; blob: Blob }[], lane?: CountingLane) {
  const e = await engine(dbName, lane);
  const out = await e.engine.load(1, { files: given });
  if (!out.ok || !out.scanned) throw new Error('expected a listed (scanned) drop');
  return { ...e, out };
}

describe('history service', () => {
  it('indexes every listed session once; its digests are the opened sessions\' exact turns; a re-drop reads nothing', async () => {
    const name = `h-${++db}`;
    const { engine: e, lane, out } = await loaded(name, files);
    const status = await e.history.start();
    expect(status.listed).toBe(out.list.length);
    expect(status.ready).toBe(true);
    expect(status.indexed + status.failed).toBe(status.listed);
    expect(status.failed).toBe(0);
    expect(status.bytesStored).toBeGreaterThan(0);
    expect(status.calls).toBeGreaterThan(out.list.length);
    // The calls page in list order, together every indexed session's.
    const all = await e.history.calls(0, status.calls);
    expect(all.total).toBe(status.calls);
    expect(all.calls.length).toBe(status.calls);
    const page = await e.history.calls(5, 17);
    expect(page.calls).toEqual(all.calls.slice(5, 17));
    expect(new Set(all.calls.map((c) => c.sessionKey)).size).toBe(out.list.length);
    expect(new Set(lane.ran).size).toBe(lane.ran.length);
    expect(lane.ran.length).toBe(out.list.length);
    const { rows } = e.history.digests(0);
    expect(rows.length).toBe(out.list.length);
    for (const row of rows.slice(0, 6)) {
      const opened = await e.open(row.key);
      expect(row.turns).toBe(opened?.turns);
    }
    // The same tree again (another page): every entry comes from the store.
    const again = await loaded(name, files);
    const st2 = await again.engine.history.start();
    expect(again.lane.ran).toEqual([]);
    expect(st2.read).toBe(0);
    expect(status.read).toBe(status.listed);
    expect(st2).toMatchObject({ listed: status.listed, indexed: status.indexed, ready: true, bytesStored: status.bytesStored, calls: status.calls });
    expect((await again.engine.history.calls(0, status.calls)).calls).toEqual(all.calls);
    expect(again.engine.history.digests(0).rows.map((r) => [r.key, r.turns, r.costUsd]).sort()).toEqual(rows.map((r) => [r.key, r.turns, r.costUsd]).sort());
    // Each entry carries its session's search index, to history search, from the store too.
    expect(e.historySearch.status().indexed).toBe(out.list.length);
    expect(again.engine.historySearch.status().indexed).toBe(out.list.length);
    const req = { query: 'parser', ids: true };
    const [scan, fromIndex] = [await again.engine.search(1, req, []), await again.engine.search(2, { ...req, history: true }, [])];
    expect(fromIndex.ok && fromIndex.history).toMatchObject({ indexed: out.list.length, scanned: 0 });
    expect(fromIndex.ok && scan.ok && [fromIndex.total, fromIndex.ids]).toEqual(scan.ok && [scan.total, scan.ids]);
  });

  it('after a reload with no files, the stored history is the index: rows, calls, usage and search from the store; one root clears alone', async () => {
    const name = `h-${++db}`;
    const { engine: e, out } = await loaded(name, files);
    const status = await e.history.start();
    const req = { query: 'parser', ids: true };
    const scan = await e.search(1, req, []);
    // Another page, nothing dropped: the start page's rows come from the heads, the rest on open.
    const page = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }), historyLanes: () => [new CountingLane()] });
    const heads = await page.history.kept.rows();
    expect(heads.stale).toBe(0);
    expect(heads.rows.length).toBe(out.list.length);
    expect(heads.rows.every((r) => r.root === 'projects' && r.title.length > 0)).toBe(true);
    expect(page.history.status().ready).toBe(false);
    expect(await page.history.kept.openStored()).toEqual({ stale: 0 });
    expect(page.history.status()).toMatchObject({ listed: out.list.length, indexed: out.list.length, ready: true, calls: status.calls });
    expect((await page.history.calls(0, status.calls)).calls.length).toBe(status.calls);
    const day = await historyUsage(page.history, { by: 'day', timezone: 'UTC' });
    const dayBefore = await historyUsage(e.history, { by: 'day', timezone: 'UTC' });
    expect(day?.total.costUsd).toBeCloseTo(dayBefore?.total.costUsd ?? -1, 9);
    const stored = await page.search(1, { ...req, history: true }, []);
    expect(stored.ok && scan.ok && [stored.total, stored.ids?.map((x) => x.sessionKey).sort()]).toEqual(scan.ok && [scan.total, scan.ids?.map((x) => x.sessionKey).sort()]);
    expect(page.historySearch.status().indexed).toBe(out.list.length);
    // A second tree's entries under another root: clearing it leaves the first alone.
    const other = files.slice(0, 8).map((f) => ({ ...f, path: f.path.replace(/^projects\//, 'laptop/') }));
    const second = await engine(name);
    await second.engine.load(1, { files: other });
    expect((await second.engine.history.start()).ready).toBe(true);
    const both = await page.history.kept.rows();
    expect(new Set(both.rows.map((r) => r.root))).toEqual(new Set(['projects']));
    const fresh = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }) });
    const all = await fresh.history.kept.rows();
    const laptop = all.rows.filter((r) => r.root === 'laptop').length;
    expect(laptop).toBeGreaterThan(0);
    // With a tree loaded, the stored sessions of the other join the index beside it (the history view).
    await second.engine.history.kept.openStored();
    expect(second.engine.history.status()).toMatchObject({ listed: all.rows.length, indexed: all.rows.length, ready: true });
    expect((await second.engine.history.kept.rows()).rows.length).toBe(all.rows.length);
    expect(await fresh.history.kept.clearRoot('laptop')).toBe(laptop);
    const left = await fresh.history.kept.rows();
    expect(left.rows.length).toBe(all.rows.length - laptop);
    expect(left.rows.every((r) => r.root === 'projects')).toBe(true);
  });

  it('a reload\'s history view reads one summary record: rows and usage as the stored calls give them, no head or body read; a change drops it, clearing a root writes it anew', async () => {
    const name = `h-${++db}`;
    const { engine: e } = await loaded(name, files);
    const status = await e.history.start();
    expect(e.history.status().summarized).toBe(true);
    // Another page: every read of the entries themselves is counted.
    const reads: string[] = [];
    const counted = async () => {
      const s = await openHistoryStore<SessionDigest, BilledCall>({ dbName: name });
      return s && { ...s, all: () => (reads.push('all'), s.all()), bodies: (k: readonly string[]) => (reads.push('bodies'), s.bodies(k)), heads: (w: ReadonlyMap<string, string>) => (reads.push('heads'), s.heads(w)) };
    };
    const page = new Engine({ searchPool: () => null, historyStore: counted });
    const rows = await page.history.kept.rows();
    expect(rows.rows.length).toBe(status.listed);
    const some = rows.rows[0];
    const queries: UsageQuery[] = [{ by: 'day', timezone: 'America/New_York', split: 'model' }, { by: 'block' }, { by: 'session' }, { by: 'project' }, { by: 'model', project: some.project }, { by: 'day', timezone: 'UTC', since: '2000-01-01', until: '2100-01-01', split: 'project' }];
    const fromSummary = await Promise.all(queries.map((q) => historyUsage(page.history, q)));
    expect(reads).toEqual([]);
    // The same reports from the stored calls themselves (what the page did before a summary existed).
    const calls = await e.history.allCalls();
    fromSummary.forEach((r, i) => expect(rounded(r)).toEqual(rounded(usageReport(calls, queries[i]))));
    expect(fromSummary[2]?.rows.length).toBeGreaterThan(5);
    // An export from the view before the stored history joined behind it: every call, joined first.
    const exporting = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }) });
    expect((await exporting.history.calls(0, status.calls)).calls.length).toBe(status.calls);

    // A second tree stored beside it changes the entries: that page's summary covers both trees.
    const other = files.slice(0, 8).map((f) => ({ ...f, path: f.path.replace(/^projects\//, 'laptop/') }));
    const second = await engine(name);
    await second.engine.load(1, { files: other });
    await second.engine.history.start();
    const both = new Engine({ searchPool: () => null, historyStore: counted });
    reads.length = 0;
    const bothRows = await both.history.kept.rows();
    expect(new Set(bothRows.rows.map((r) => r.root))).toEqual(new Set(['projects', 'laptop']));
    const byProject = await historyUsage(both.history, { by: 'project' });
    expect(reads).toEqual([]);
    expect(byProject?.rows.some((r) => r.key.startsWith('laptop/'))).toBe(true);

    // Clearing a root: the summary is written again, without it.
    expect(await both.history.kept.clearRoot('laptop')).toBeGreaterThan(0);
    expect(await both.history.summaries.write()).toBe(true);
    const after = new Engine({ searchPool: () => null, historyStore: counted });
    reads.length = 0;
    expect((await after.history.kept.rows()).rows.every((r) => r.root === 'projects')).toBe(true);
    const afterSessions = await historyUsage(after.history, { by: 'session' });
    expect(reads).toEqual([]);
    // What the entries left give when read one by one (the laptop copies shared some sessions' keys).
    const check = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }) });
    await check.history.kept.openStored();
    expect(rounded(afterSessions)).toEqual(rounded(usageReport(await check.history.allCalls(), { by: 'session' })));
    expect(afterSessions?.rows.length).toBeGreaterThan(5);
  });

  it('a store without a summary (an older Loupe\'s): the view reads the entries, and the summary is written once they are read', async () => {
    const name = `h-${++db}`;
    const { engine: e } = await loaded(name, files);
    await e.history.start();
    const expected = await historyUsage(e.history, { by: 'day', timezone: 'UTC' });
    // As version 2 left it: no summary record.
    const raw = await openDB(name);
    await raw.delete('meta', 'summary');
    raw.close();
    const page = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }) });
    expect(await page.history.storedColumns()).toBeNull();
    expect(rounded(await historyUsage(page.history, { by: 'day', timezone: 'UTC' }))).toEqual(rounded(expected));
    expect(await page.history.summaries.write()).toBe(true);
    const next = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: name }) });
    expect(await next.history.storedColumns()).not.toBeNull();
    expect(rounded(await historyUsage(next.history, { by: 'day', timezone: 'UTC' }))).toEqual(rounded(expected));
  });

  it('the stored history is read back without its search texts: a rare string reads the few its filters keep, and answers as before', async () => {
    const name = `h-${++db}`;
    const { engine: e, out } = await loaded(name, files);
    await e.history.start();
    // A run of words from one session's first prompt.
    const texts = await Promise.all(files.filter((f) => f.path.endsWith('.jsonl') && !f.path.includes('/subagents/')).map((f) => f.blob.text()));
    const rare = texts.map((t) => /[a-z ]{60,}/.exec(/"role":"user","content":"([^"]+)"/.exec(t)?.[1] ?? '')?.[0]).find(Boolean)!.slice(5, 45).trim();
    const wanted = [{ query: rare, history: true, ids: true }, { query: 'the', history: true, ids: true }];
    const before = await Promise.all(wanted.map((q, i) => e.search(10 + i, q, [])));
    const read: string[] = [];
    const counted = () => openHistoryStore<SessionDigest, BilledCall>({ dbName: name }).then((s) => s && { ...s, texts: (keys: readonly string[]) => (read.push(...keys), s.texts(keys)) });
    const page = new Engine({ searchPool: () => null, historyStore: counted, historyLanes: () => [new CountingLane()] });
    await page.history.kept.openStored();
    expect(read).toEqual([]);
    const once = await page.search(1, wanted[0], []);
    expect(once.ok && before[0].ok && [once.total, once.ids?.map((x) => x.sessionKey)]).toEqual(before[0].ok && [before[0].total, before[0].ids?.map((x) => x.sessionKey)]);
    expect(once.ok && once.total).toBeGreaterThan(0);
    expect(read.length).toBeLessThanOrEqual(3);
    const broad = await page.search(2, wanted[1], []);
    expect(broad.ok && before[1].ok && broad.total).toBe(before[1].ok && before[1].total);
    expect(new Set(read).size).toBeGreaterThan(out.list.length / 2);
  });

  it('history usage reads the indexed calls from memory: no store read once indexed, nor after a re-drop', async () => {
    const name = `h-${++db}`;
    const reads: string[][] = [];
    const counted = () => openHistoryStore<SessionDigest, BilledCall>({ dbName: name }).then((s) => s && { ...s, bodies: (keys: readonly string[]) => (reads.push([...keys]), s.bodies(keys)) });
    const first = new Engine({ searchPool: () => null, historyStore: counted, historyLanes: () => [new CountingLane()] });
    await first.load(1, { files });
    const status = await first.history.start();
    expect(status).toMatchObject({ ready: true, failed: 0 });
    expect(status.bytesStored).toBeGreaterThan(0); // every entry is in the store, and still its calls are not read from it
    const day = await historyUsage(first.history, { by: 'day', timezone: 'UTC' });
    expect(reads).toEqual([]);
    expect(day?.total.messages).toBe(dedupeCalls(await first.history.allCalls()).length);
    // Another page, the same tree: the calls come from the store once, with the search indexes as it starts.
    const again = new Engine({ searchPool: () => null, historyStore: counted, historyLanes: () => [new CountingLane()] });
    await again.load(1, { files });
    expect(await again.history.start()).toMatchObject({ ready: true, read: 0 });
    const atStart = reads.flat();
    expect(atStart.length).toBe(status.indexed);
    const stored = await historyUsage(again.history, { by: 'day', timezone: 'UTC' });
    expect(stored).toEqual(day);
    const order = (xs: { id: string; sessionKey: string }[]) => xs.map((c) => `${c.sessionKey} ${c.id}`).sort();
    expect(order(await again.history.allCalls())).toEqual(order(await first.history.allCalls()));
    expect(reads.flat()).toEqual(atStart);
  });

  it('a second load of the same drop (after ready, or mid-run) keeps what is indexed: nothing read twice, indexed never back to 0', async () => {
    const name = `h-${++db}`;
    const lane = new CountingLane();
    const { engine: e } = await engine(name, lane);
    const first = await e.load(1, { files });
    expect(first.ok).toBe(true);
    const ready = await e.history.start();
    expect(ready).toMatchObject({ ready: true, failed: 0 });
    expect(ready.bytesStored).toBeGreaterThan(0);
    const ran = lane.ran.length;
    expect(ran).toBe(ready.listed);
    // The same files again (the page's second load of one drop): the listing changes, its sessions do not.
    await e.load(2, { files });
    expect(e.history.status().indexed).toBe(ready.indexed);
    const again = await e.history.start();
    expect(lane.ran.length).toBe(ran);
    expect(again).toMatchObject({ listed: ready.listed, indexed: ready.indexed, ready: true, bytesStored: ready.bytesStored, calls: ready.calls });

    // Mid-run: a few sessions read (their entries not written yet), then the same drop again.
    const name2 = `h-${++db}`;
    const lane2 = new CountingLane();
    const { engine: e2 } = await engine(name2, lane2);
    await e2.load(1, { files });
    let release: () => void = () => {};
    // The first two sessions go through; the third and every later one wait in the lane.
    lane2.onStart = () => {
      if (lane2.ran.length === 3) lane2.gate = new Promise((r) => (release = r));
    };
    const run = e2.history.start();
    await vi.waitFor(() => expect(e2.history.status().indexed).toBeGreaterThanOrEqual(2));
    const before = e2.history.status().indexed;
    const readBefore = e2.history.digests(0).rows.map((r) => r.key);
    await e2.load(2, { files });
    expect(e2.history.status().indexed).toBeGreaterThanOrEqual(before);
    lane2.gate = null;
    release();
    await run;
    const done = await e2.history.start();
    expect(done).toMatchObject({ listed: ready.listed, indexed: ready.indexed, ready: true, failed: 0 });
    // The sessions read before the change are not read again (only jobs in flight then, their results dropped, are).
    expect(readBefore.length).toBeGreaterThanOrEqual(2);
    for (const key of readBefore) expect(lane2.ran.filter((k) => k === key)).toHaveLength(1);
    expect(lane2.ran.length).toBeLessThan(2 * ready.listed);
    expect(new Set(lane2.ran).size).toBe(ready.listed);
    expect(done.bytesStored).toBe(ready.bytesStored);
  });

  it('after an append, a truncation and a deleted file, re-reads only the sessions they changed', async () => {
    const name = `h-${++db}`;
    const first = await loaded(name, files);
    await first.engine.history.start();
    // Three sessions of one file each (no resumed ancestor, no subagent): what changes is theirs alone.
    const { listing } = await scanInputs(files);
    const single = listing.sessions.filter((s) => s.files.length === 1).map((s) => files.find((f) => f.path === s.files[0])!);
    const [grown, cut, gone] = single;
    const text = async (b: Blob) => new TextDecoder().decode(await b.arrayBuffer());
    const lines = (await text(grown.blob)).trimEnd().split('\n');
    const last = JSON.parse(lines.at(-1)!);
    const appended = { ...last, uuid: 'appended-0001', parentUuid: last.uuid, timestamp: new Date(Date.parse(last.timestamp) + 1000).toISOString() };
    const cutLines = (await text(cut.blob)).trimEnd().split('\n');
    const changed = files
      .filter((f) => f !== gone)
      .map((f) => f === grown
        ? { path: f.path, blob: new File([`${lines.join('\n')}\n${JSON.stringify(appended)}\n`], 'g', { lastModified: 1_700_000_100_000 }) }
        : f === cut
          ? { path: f.path, blob: new File([`${cutLines.slice(0, Math.ceil(cutLines.length / 2)).join('\n')}\n`], 'c', { lastModified: 1_700_000_100_000 }) }
          : f);
    const second = await loaded(name, changed);
    const st = await second.engine.history.start();
    expect(st.ready).toBe(true);
    expect(st.listed).toBe(second.out.list.length);
    expect(st.listed).toBe(first.out.list.length - 1);
    // Only the grown and the truncated sessions were read.
    expect(second.lane.ran.length).toBe(2);
    const stem = (p: string) => p.split('/').at(-1)!.replace(/\.jsonl$/, '');
    expect(second.lane.ran.map((k) => k.slice(0, stem(grown.path).length)).sort()).toEqual([stem(grown.path), stem(cut.path)].sort());
    for (const key of second.lane.ran) expect(second.engine.history.digest(key)?.turns).toBe((await second.engine.open(key))?.turns);
  });

  it('a full disk: every session still indexed in memory, the figures marked partial, the viewer working', async () => {
    const name = `h-${++db}`;
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    } as IDBObjectStore['put'];
    const { engine: e, out } = await loaded(name, files);
    const st = await e.history.start();
    expect(st).toMatchObject({ listed: out.list.length, indexed: out.list.length, ready: true, partial: true, bytesStored: 0 });
    expect(e.history.status().notice).toMatch(/no room/);
    expect(e.history.digests(0).rows.length).toBe(out.list.length);
    const first = out.list[0].key;
    expect((await e.open(first))?.turns).toBe(e.history.digest(first)?.turns);
    expect((await e.chatIndex(first))?.rows.length).toBeGreaterThan(0);
  });

  it('an open preempts it: no session starts indexing while the open is in flight', async () => {
    const name = `h-${++db}`;
    const lane = new CountingLane();
    let release!: () => void;
    lane.gate = new Promise((r) => (release = r));
    const { engine: e, out } = await loaded(name, files, lane);
    const started = e.history.start();
    // The scan read the transcripts up to WHOLE_MAX whole: the usage pass prices a session from
    // those reads, and in a lane only one with a bigger file (the tree has a few); the first two
    // jobs wait in the lane.
    const big = new Set(files.filter((f) => f.path.endsWith('.jsonl') && f.blob.size > WHOLE_MAX).map((f) => f.path));
    expect(big.size).toBeGreaterThan(1);
    await vi.waitFor(() => expect(lane.priced.length + lane.ran.length).toBe(2));
    // Every session either pass starts after the open was asked for starts once the opened one is built.
    const target = out.list.at(-1)!.key;
    const during: boolean[] = [];
    lane.onStart = () => during.push(e.builtKeys().includes(target));
    const open = e.open(target);
    release();
    lane.gate = null;
    expect((await open)?.key).toBe(target);
    const st = await started;
    expect(st.ready).toBe(true);
    // Priced in a lane: exactly the sessions holding a big file.
    expect(lane.pricedFiles.every((paths) => paths.some((p) => big.has(p)))).toBe(true);
    expect([...big].every((p) => lane.pricedFiles.some((paths) => paths.includes(p)))).toBe(true);
    expect(lane.priced.length).toBeLessThan(out.list.length);
    expect(during.length).toBe(lane.priced.length + out.list.length - 2);
    expect(during.every(Boolean)).toBe(true);
  });

  it('a followed folder: each append updates the session\'s digest and calls to what a full build of its bytes gives', async () => {
    const { engine: e } = await engine(`h-${++db}`);
    const file = files.find((f) => f.path.endsWith('.jsonl') && !f.path.includes('/subagents/'))!;
    const bytes = new Uint8Array(await file.blob.arrayBuffer());
    const ends: number[] = [];
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) ends.push(i + 1);
    e.followStart(1);
    let at = 0;
    for (const to of [ends[Math.floor(ends.length / 2)], ends[Math.floor(ends.length / 2) + 1], bytes.length]) {
      const out = e.followAppend(1, [{ path: file.path, bytes: bytes.subarray(at, to) }]);
      at = to;
      const key = out!.sessions[0].key;
      const digest = e.history.digest(key)!;
      const full = (await loadSessions([{ path: file.path, blob: new Blob([bytes.slice(0, to)]) }])).sessions[0];
      expect(digest.turns).toBe(full.result.session.turns.length);
      expect(digest).toEqual(digestOf(full, { key, project: digest.project, harness: 'claude-code', bytes: digest.bytes }));
      const calls = await e.history.calls(0, 1e9);
      expect(calls.calls).toEqual(billedCalls(full, { sessionKey: key, project: digest.project, harness: 'claude-code' }).map((c) => ({ ...c, sessionKey: key })));
      expect(e.history.status()).toMatchObject({ listed: 1, indexed: 1, ready: true, calls: calls.total });
    }
  });

  it('a remote tree\'s files are read once: no usage pass of its own, its usage comes with its index', async () => {
    // Files as a remote tree's reader hands them over (worker/remote/http.ts): readable, not Blobs.
    const remote = (b: Blob) => ({ size: b.size, type: '', slice: (from?: number, to?: number) => b.slice(from, to), arrayBuffer: () => b.arrayBuffer(), text: () => b.text(), stream: () => b.stream() }) as unknown as Blob;
    const local = await loaded(`h-${++db}`, files);
    const before = await local.engine.history.start();
    const { engine: e, lane, out } = await loaded(`h-${++db}`, files.map((f) => ({ path: f.path, blob: remote(f.blob) })));
    const st = await e.history.start();
    expect(st).toMatchObject({ listed: out.list.length, indexed: out.list.length, ready: true, usageReady: true, calls: before.calls });
    expect(lane.priced).toEqual([]);
    expect(lane.ran.length).toBe(out.list.length);
    expect((await historyUsage(e.history, { by: 'day', timezone: 'UTC' }))?.total).toEqual((await historyUsage(local.engine.history, { by: 'day', timezone: 'UTC' }))?.total);
  });

  it('a session whose file cannot be read is counted and listed with the reason; foreign files are listed as not indexed', async () => {
    const unreadable = files.find((f) => f.path.endsWith('.jsonl') && !f.path.includes('/subagents/'))!;
    // The scan reads heads and tails (slices); the whole read fails, as a file moved since the drop does.
    const broken = Object.assign(new File([await unreadable.blob.arrayBuffer()], 'x', { lastModified: 1 }), {
      arrayBuffer: () => Promise.reject(new DOMException('gone', 'NotReadableError')),
      stream: () => { throw new DOMException('gone', 'NotReadableError'); }
    });
    const given = [...files.filter((f) => f !== unreadable), { path: unreadable.path, blob: broken }, { path: 'projects/notes/readme.txt', blob: new File(['just notes'], 'readme.txt') }];
    const { engine: e, out } = await loaded(`h-${++db}`, given);
    const st = await e.history.start();
    expect(st).toMatchObject({ listed: out.list.length, indexed: out.list.length - 1, failed: 1, ready: true });
    const { sessions, files: notIndexed } = e.history.failures();
    expect(sessions).toHaveLength(1);
    expect(sessions[0].reason).toContain(unreadable.path);
    expect(sessions[0].reason).toContain('NotReadableError');
    expect(notIndexed.map((f) => f.path)).toContain('projects/notes/readme.txt');
    expect(notIndexed.find((f) => f.path === 'projects/notes/readme.txt')?.reason).toBeTruthy();
    expect(st.filesNotIndexed).toBe(notIndexed.length + 1);
  });
});
