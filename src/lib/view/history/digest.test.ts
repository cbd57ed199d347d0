// The history lane's entry (digest and billed calls) equals a full build's: every session of every corpus and fixture
// folder is listed by the scan (as a big drop lists it), indexed by the lane from its listed
// files, and its digest compared with digestOf over the session a full load of the whole folder
// builds (the path a small drop takes). The digest's figures are then held to the built
// session itself (turns, cost), so neither side can drift from what opening the session shows.
import { readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../../../scripts/lib/files.ts';
import { loadSessions } from '../../ingest/load-files.ts';
import { scanInputs } from '../../ingest/scan.ts';
import { stemOf } from '../../ingest/paths.ts';
import type { InputFile } from '../../ingest/types.ts';
import { sessionUsage } from '../usage/accounting.ts';
import { billedCalls } from './calls.ts';
import { digestOf } from './digest.ts';
import { indexSession } from './lane.ts';

const FIXTURES = resolve(__dirname, '../../../../fixtures');
const CORPUS = resolve(FIXTURES, '../../shared/corpus');
const subdirs = (d: string) => filesUnder(d).map((p) => relative(d, p).split('/')[0]).filter((x, i, a) => a.indexOf(x) === i && statSync(join(d, x)).isDirectory());

/** One folder a test drops whole: the shared corpus's projects, each harness sample, each conformance case, the other fixture folders. */
const FOLDERS: string[] = [
  ...subdirs(CORPUS).map((x) => join(CORPUS, x)),
  ...subdirs(join(FIXTURES, 'harnesses')).map((x) => join(FIXTURES, 'harnesses', x)),
  ...subdirs(join(FIXTURES, 'conformance/romp')).map((x) => join(FIXTURES, 'conformance/romp', x)),
  ...['model', 'hostile', 'usage'].map((x) => join(FIXTURES, x))
];

function drop(dir: string): InputFile[] {
  const base = resolve(dir, '..');
  return filesUnder(dir).map((p) => ({ path: relative(base, p), blob: new Blob([readFileSync(p)]) }));
}

describe('history digest', () => {
  it('the lane digest of every listed corpus and fixture session equals digestOf over a full build of the same files', async () => {
    let compared = 0;
    let fromFull = 0;
    let calls = 0;
    for (const dir of FOLDERS) {
      const files = drop(dir);
      const { listing } = await scanInputs(files);
      const full = await loadSessions(files);
      for (const listed of listing.sessions) {
        const own = files.filter((f) => listed.files.includes(f.path));
        const result = await indexSession({ listed, files: own });
        if (!result.ok || !('entry' in result)) throw new Error(`${dir}: ${listed.key} not indexed: ${result.ok ? 'no entry' : result.reason}`);
        const leaf = listed.harness === 'claude-code' ? listed.files.find((p) => stemOf(p) === listed.id) : listed.files[0];
        const built = full.sessions.find((s) => s.files.some((f) => f.path === leaf));
        // A session the full load groups with others is compared with the build of its own files.
        const reference = built && built.files.every((f) => listed.files.includes(f.path)) && built.files.length === own.length ? built : (await loadSessions(own)).sessions.find((s) => s.files.some((f) => f.path === leaf));
        expect(reference, `${dir}: ${listed.key}`).toBeTruthy();
        if (reference === built) fromFull++;
        const expected = digestOf(reference!, listed);
        expect(result.entry.digest, `${dir}: ${listed.key}`).toEqual(expected);
        expect(result.entry.calls, `${dir}: ${listed.key} calls`).toEqual(billedCalls(reference!, { sessionKey: listed.key, project: listed.project, harness: listed.harness }));
        calls += result.entry.calls.length;
        expect(result.entry.digest.turns).toBe(reference!.result.session.turns.length);
        expect(result.entry.digest.costUsd).toBeCloseTo(sessionUsage(reference!).total.costUsd, 9);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
    expect(calls).toBeGreaterThan(100);
    // Most sessions are held to the whole-folder build, not to a build of their own files.
    expect(fromFull).toBeGreaterThan(compared * 0.8);
  });

  it('counts prompts, tools with failures, files edited, compactions and subagents', async () => {
    const dir = join(FIXTURES, 'usage/project');
    const files = drop(dir);
    const out = await loadSessions(files);
    const withTools = out.sessions.map((s) => digestOf(s, { key: s.key, project: 'p', harness: 'claude-code' }));
    const tools = withTools.flatMap((d) => Object.entries(d.tools));
    expect(tools.length).toBeGreaterThan(0);
    for (const d of withTools) {
      expect(d.prompts).toBeGreaterThan(0);
      expect(d.prompts).toBeGreaterThanOrEqual(d.turns > 0 ? 1 : 0);
      const s = out.sessions.find((x) => x.key === d.key)!;
      expect(d.subagents).toBe(Object.keys(s.children).length + s.unattached.length);
      expect(d.costUsd).toBeCloseTo(sessionUsage(s).total.costUsd, 9);
    }
  });
});
