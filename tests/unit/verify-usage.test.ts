// The exactness check against ccusage 20.0.24 as a test: a generated projects tree
// (../shared/bench/gen-project.mjs: subagents, side files) joined with the history fixture's
// projects (a rewound branch, a resumed copy, a subagent file and an inline sidechain) must give
// identical token counts by day, session and block, and costs within 0.5 % or explained.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatVerification, verifyUsage } from '../../scripts/lib/verify-usage.ts';

const REPO = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'loupe-verify-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('verify:usage against ccusage', () => {
  it('counts every token ccusage counts on a tree with rewinds, resumed copies and subagents', async () => {
    const projects = join(tmp, 'claude', 'projects');
    const gen = spawnSync(process.execPath, ['../shared/bench/gen-project.mjs', '--mb', '2', '--sessions', '20', '--projects', '2', '--seed', '3', '--out', projects], { cwd: REPO, encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    cpSync(join(REPO, 'fixtures/history/claude/projects'), projects, { recursive: true });
    const v = await verifyUsage(projects);
    const table = formatVerification(v);
    expect(v.tokenMismatches, table).toBe(0);
    expect(v.unexplainedCost, table).toBe(0);
    expect(v.sessions).toBeGreaterThanOrEqual(23);
    // The rewound session: its abandoned branch counted (the active path alone has 165 / 950).
    const rewind = v.rows.find((r) => r.report === 'session' && r.key.endsWith('re01'))!;
    expect(rewind.loupe).toMatchObject({ input: 235, output: 2550 });
    expect(rewind.tokensEqual).toBe(true);
    for (const report of ['daily', 'session', 'blocks'] as const) {
      const total = v.totals.find((t) => t.report === report)!;
      expect(total.tokensEqual, table).toBe(true);
      expect(Math.abs(total.costDelta)).toBeLessThanOrEqual(0.005);
    }
  });
});
