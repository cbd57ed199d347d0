// One calls rule on every path: the history's usage pass, its index, verify:usage's Node path and a
// full load count the same billed calls (view/history/calls-equivalence.test.ts holds the rule's
// two readings equal); here on a resumed file among 30 generated sessions, the shape whose
// subagent calls the listing path used to lose.
import 'fake-indexeddb/auto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { filesUnder } from '../../../scripts/lib/files.ts';
import { loadCalls } from '../../../scripts/lib/verify-usage.ts';
import { loadSessions } from '../ingest/load-files.ts';
import { openHistoryStore } from '../store/history-index.ts';
import { billedCalls } from '../view/history/calls.ts';
import { LocalHistoryLane, type HistoryJob, type HistoryResult } from '../view/history/lane.ts';
import { dedupeCalls } from '../view/history/reports.ts';
import type { BilledCall } from '../view/history/types.ts';
import { Engine } from './engine.ts';

const SHARED = resolve(__dirname, '../../../../shared');
const tmp = mkdtempSync(join(tmpdir(), 'loupe-engine-calls-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

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
