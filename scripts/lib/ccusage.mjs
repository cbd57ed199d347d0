// Running the pinned ccusage 20.0.24 on a `~/.claude/projects`-like folder: shared by
// `npm run verify:usage` (scripts/lib/verify-usage.ts, the exactness check) and
// `npm run bench:browser -- --case history` (ccusage timed in the same run as Loupe, the anchor
// of issue 22's speed target). Plain JavaScript so the .mjs bench can import it too.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const REPO = resolve(fileURLToPath(import.meta.url), '../../..');

/** A CLAUDE_CONFIG_DIR whose projects/ is `dir` (a temporary link when dir is not called projects).
 *  @param {string} dir
 *  @returns {{ config: string, cleanup: () => void }} */
function configDirFor(dir) {
  const root = resolve(dir);
  if (basename(root) === 'projects') return { config: resolve(root, '..'), cleanup: () => {} };
  const tmp = mkdtempSync(join(tmpdir(), 'loupe-ccusage-'));
  symlinkSync(root, join(tmp, 'projects'), 'dir');
  return { config: tmp, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

/** The ccusage binary, made executable.
 *  @returns {string} */
export function ccusageBin() {
  // The Linux x64 build of ccusage 20.0.24, pinned on its own: the `ccusage` package's other
  // platform builds of that version are not on the registry, so npm ci could not lock it. Its
  // wrapper package set the execute bit; installed directly, the binary arrives without it.
  const bin = join(REPO, 'node_modules', '@ccusage', 'ccusage-linux-x64', 'bin', 'ccusage');
  if (!existsSync(bin)) throw new Error('ccusage is not installed (npm ci installs the pinned optional dependency @ccusage/ccusage-linux-x64@20.0.24 on Linux x64)');
  if (!(statSync(bin).mode & 0o111)) chmodSync(bin, 0o755);
  return bin;
}

/** ccusage's JSON for one report (`daily`, `session`, `blocks`) in UTC, and its wall time; HOME is
 *  an empty folder so no other agent's data is read.
 *  @param {string} dir
 *  @param {string} report
 *  @returns {{ json: Record<string, unknown>, ms: number }} */
export function runCcusage(dir, report) {
  const { config, cleanup } = configDirFor(dir);
  const home = mkdtempSync(join(tmpdir(), 'loupe-home-'));
  try {
    const t = performance.now();
    const r = spawnSync(ccusageBin(), [report, '--json', '--offline', '-z', 'UTC'], { encoding: 'utf8', env: { ...process.env, HOME: home, CLAUDE_CONFIG_DIR: config, NO_COLOR: '1' }, maxBuffer: 1 << 30 });
    const ms = performance.now() - t;
    if (r.status !== 0) throw new Error(`ccusage ${report} failed (${r.status}): ${r.stderr}`);
    return { json: JSON.parse(r.stdout), ms };
  } finally {
    cleanup();
    rmSync(home, { recursive: true, force: true });
  }
}
