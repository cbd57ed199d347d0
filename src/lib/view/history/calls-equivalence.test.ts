// One calls rule for every path: the billed calls of a session read from its transcripts' text
// (callsOfFiles: the history's usage pass, the index's lanes, verify:usage) equal the calls of the
// same session built by the model (billedCalls: a followed session, the session's own panels), on
// every fixture and corpus folder and on generated trees with resumed copies, rewinds, orphaned
// subagent folders and subagents whose progress records sit in the main transcript; then through
// the engine (usage pass, index), verify:usage and a full load on a resumed file among 30 sessions.
import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { filesUnder } from '../../../../scripts/lib/files.ts';
import { loadCalls } from '../../../../scripts/lib/verify-usage.ts';
import { openHistoryStore } from '../../store/history-index.ts';
import { Engine } from '../../worker/engine.ts';
import { LocalHistoryLane, type HistoryJob, type HistoryResult } from './lane.ts';
import { dedupeCalls } from './reports.ts';
import type { BilledCall } from './types.ts';
import { loadSessions } from '../../ingest/load-files.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls, callsOfFiles, onPathIds } from './calls.ts';

const FIXTURES = resolve(__dirname, '../../../../fixtures');
const SHARED = resolve(FIXTURES, '../../shared');
const subdirs = (d: string) => filesUnder(d).map((p) => relative(d, p).split('/')[0]).filter((x, i, a) => a.indexOf(x) === i && statSync(join(d, x)).isDirectory());
const tmp = mkdtempSync(join(tmpdir(), 'loupe-calls-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A generated ~/.claude/projects tree (gen-project.mjs), small. */
function generated(seed: number, extra: string[]): string {
  const out = join(tmp, `gen-${seed}`);
  execFileSync(process.execPath, [join(SHARED, 'bench/gen-project.mjs'), '--mb', '3', '--sessions', '24', '--seed', String(seed), '--out', out, ...extra]);
  return out;
}

const FOLDERS = (): string[] => [
  ...subdirs(join(SHARED, 'corpus')).map((x) => join(SHARED, 'corpus', x)),
  ...subdirs(join(FIXTURES, 'conformance/romp')).map((x) => join(FIXTURES, 'conformance/romp', x)),
  ...['model', 'hostile', 'usage', 'history'].map((x) => join(FIXTURES, x))
];

async function sessionsOf(dir: string): Promise<{ loaded: LoadedSession; texts: { path: string; bytes: Uint8Array }[] }[]> {
  const base = resolve(dir, '..');
  const paths = filesUnder(dir);
  const bytes = new Map(paths.map((p) => [relative(base, p), readFileSync(p)]));
  const { sessions } = await loadSessions([...bytes].map(([path, b]) => ({ path, blob: new Blob([b]) })));
  return sessions
    .filter((s) => (s.meta.harness ?? 'claude-code') === 'claude-code')
    .map((loaded) => ({ loaded, texts: loaded.files.filter((f) => f.path.endsWith('.jsonl')).map((f) => ({ path: f.path, bytes: new Uint8Array(bytes.get(f.path)!) })) }));
}

async function compare(dir: string): Promise<number> {
  let calls = 0;
  for (const { loaded, texts } of await sessionsOf(dir)) {
    const where = { sessionKey: loaded.key, project: 'p', harness: 'claude-code' as const };
    const model = billedCalls(loaded, where);
    const files = callsOfFiles(texts, where, onPathIds(loaded)).calls;
    expect(files, `${dir}: ${loaded.key}`).toEqual(model);
    calls += model.length;
  }
  return calls;
}

describe('one calls rule', () => {
  it('the calls read from the files equal the built session\'s on every fixture and corpus folder', async () => {
    let calls = 0;
    for (const dir of FOLDERS()) calls += await compare(dir);
    expect(calls).toBeGreaterThan(100);
  });

  it('and on generated trees: resumed copies, orphaned subagents, progress records in the main transcript', async () => {
    let calls = 0;
    calls += await compare(generated(3, ['--orphans', '0.3', '--progress', '0.5']));
    calls += await compare(generated(4, ['--progress', '1']));
    expect(calls).toBeGreaterThan(500);
  });
});

/** Session A (a subagent, its progress records in the main transcript) and a later file B whose
 *  first line is one of A's (A's sessionId, parentUuid into A): a resumed conversation, among 30
 *  generated sessions so that a drop of it is listed (the big-drop path). */
function resumedTree(): { dir: string; subagentFile: string } {
  const out = join(tmp, 'resumed');
  const gen = join(SHARED, 'bench');
  execFileSync(process.execPath, [join(gen, 'gen-project.mjs'), '--mb', '2', '--sessions', '30', '--projects', '1', '--seed', '11', '--out', out]);
  const project = join(out, readdirSync(out)[0]);
  const session = (name: string, args: string[]) => {
    const dir = join(tmp, name);
    execFileSync(process.execPath, [join(gen, 'gen-session.mjs'), '--no-states', '--out', dir, ...args]);
    const id = readdirSync(dir).find((f) => f.endsWith('.jsonl'))!.slice(0, -6);
    return { dir, id };
  };
  const a = session('a', ['--mb', '1.5', '--seed', '5', '--subagents', '1', '--progress']);
  renameSync(join(a.dir, `${a.id}.jsonl`), join(project, `${a.id}.jsonl`));
  renameSync(join(a.dir, a.id), join(project, a.id));
  const aLines = readFileSync(join(project, `${a.id}.jsonl`), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const b = session('b', ['--mb', '0.2', '--seed', '6', '--subagents', '0', '--start', '2026-10-02T09:00:00Z']);
  const first = { type: 'user', sessionId: a.id, parentUuid: aLines.filter((l) => l.uuid).at(-1)!.uuid, uuid: '00000000-0000-4000-8000-00000000b001', timestamp: '2026-10-02T08:59:00.000Z', cwd: aLines[0].cwd, message: { role: 'user', content: 'continue' } };
  writeFileSync(join(project, `${b.id}.jsonl`), JSON.stringify(first) + '\n' + readFileSync(join(b.dir, `${b.id}.jsonl`), 'utf8'));
  const subagents = join(project, a.id, 'subagents');
  return { dir: out, subagentFile: readdirSync(subagents).find((f) => f.endsWith('.jsonl'))! };
}

/** The fields every path must agree on (sessionKey and onPath depend on how a path groups and builds). */
const counted = (calls: BilledCall[]) => calls.map(({ sessionKey: _k, onPath: _p, project: _j, ...c }) => c).sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));

describe('one calls rule on every path', () => {
  it('the usage pass, the history index, verify:usage and a full load count the same calls; a resumed file loses no subagent', async () => {
    const { dir, subagentFile } = resumedTree();
    const base = resolve(dir, '..');
    const files = filesUnder(dir).map((p) => ({ path: relative(base, p), blob: new File([readFileSync(p)], p.split('/').at(-1)!) }));
    // The index's second pass waits until the first pass's answer has been read.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const lane = { inner: new LocalHistoryLane(), async index(job: HistoryJob): Promise<HistoryResult> { if (!job.usageOnly) await gate; return this.inner.index(job); } };
    const engine = new Engine({ searchPool: () => null, historyStore: () => openHistoryStore({ dbName: 'calls-equivalence' }), historyLanes: () => [lane] });
    const out = await engine.load(1, { files });
    expect(out.ok && out.scanned).toBe(true);
    const run = engine.history.start();
    await vi.waitFor(() => expect(engine.history.status().usageReady).toBe(true), { timeout: 60_000 });
    expect(engine.history.status().ready).toBe(false);
    const early = await engine.history.allCalls();
    release();
    const status = await run;
    expect(status).toMatchObject({ ready: true, usageReady: true, failed: 0 });
    const indexed = await engine.history.allCalls();
    const node = (await loadCalls(dir)).calls;
    const full = (await loadSessions(files)).sessions.flatMap((s) => billedCalls(s, { sessionKey: s.key, project: 'p', harness: 'claude-code' }));
    expect(counted(dedupeCalls(early))).toEqual(counted(dedupeCalls(indexed)));
    expect(counted(dedupeCalls(indexed))).toEqual(counted(dedupeCalls(node)));
    expect(counted(dedupeCalls(node))).toEqual(counted(dedupeCalls(full)));
    // The resumed-from session's subagent is counted, every one of its calls.
    const fromSubagent = indexed.filter((c) => c.file?.endsWith(subagentFile));
    expect(fromSubagent.length).toBeGreaterThan(3);
    expect(fromSubagent.every((c) => c.subagent)).toBe(true);
  }, 120_000);
});
