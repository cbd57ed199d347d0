// One calls rule for every path: the billed calls of a session read from its transcripts' text
// (callsOfFiles: the history's usage pass, the index's lanes, verify:usage) equal the calls of the
// same session built by the model (billedCalls: a followed session, the session's own panels), on
// every fixture and corpus folder and on generated trees with resumed copies, rewinds, orphaned
// subagent folders and subagents whose progress records sit in the main transcript; and read file
// by file, as a big drop's scan reads them (file-pass.ts, merged by mergeFileCalls). The paths
// themselves (usage pass, index, verify:usage, full load) are compared in worker/engine-calls.test.ts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder } from '../../../../scripts/lib/files.ts';
import { loadSessions } from '../../ingest/load-files.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import { billedCalls, callsOfFiles, mergeFileCalls, onPathIds } from './calls.ts';
import { scanWhole } from './file-pass.ts';

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
    // A big drop's scan reads each file on its own (file-pass.ts), the usage pass merges them: the
    // same calls (no onPath before the index has built the session), and the same problems.
    const wholes = await Promise.all(texts.map((t) => scanWhole({ path: t.path, blob: new Blob([]), bytes: t.bytes }, t.path)));
    const perFile = wholes.map((w) => ('calls' in w && w.calls) || { calls: [], problems: [] });
    expect(wholes.every((w) => 'calls' in w && w.calls), `${dir}: every Claude Code transcript priced`).toBe(true);
    expect(mergeFileCalls(perFile, where), `${dir}: ${loaded.key} file by file`).toEqual(callsOfFiles(texts, where));
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

