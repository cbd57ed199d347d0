// Runs every suite (Vitest unit tests, svelte-check, Playwright end-to-end tests in Chromium, the
// Firefox smoke) and prints
// one closing line, "N passed, N failed", with the totals of all suites. Exits non-zero if
// any suite failed or a suite ran no test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';

mkdirSync('.tmp', { recursive: true });
let passed = 0;
let failed = 0;
let broken = false;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

// 1. Unit tests (Vitest, JSON report for the counts).
rmSync('.tmp/vitest.json', { force: true });
const unitCode = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=.tmp/vitest.json']);
if (existsSync('.tmp/vitest.json')) {
  const r = JSON.parse(readFileSync('.tmp/vitest.json', 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  if (r.numTotalTests === 0) broken = true;
  console.log(`unit: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
} else broken = true;
if (unitCode !== 0 && failed === 0) { failed += 1; console.log('unit: the run failed outside a test'); }

// 2. Type check (counts as one test).
const checkCode = run('npx', ['svelte-kit', 'sync']) || run('npx', ['svelte-check', '--tsconfig', './tsconfig.json', '--threshold', 'error']);
if (checkCode === 0) passed += 1; else { failed += 1; console.log('svelte-check: failed'); }

// 3. End-to-end tests (Playwright in Debian's Chromium).
rmSync('.tmp/playwright.json', { force: true });
const e2eCode = run('npx', ['playwright', 'test'], { PW_JSON: '.tmp/playwright.json' });
if (existsSync('.tmp/playwright.json')) {
  const s = JSON.parse(readFileSync('.tmp/playwright.json', 'utf8')).stats;
  const p = s.expected + (s.flaky ?? 0);
  const f = s.unexpected;
  passed += p;
  failed += f;
  if (p + f === 0) broken = true;
  console.log(`e2e: ${p} passed, ${f} failed${s.skipped ? `, ${s.skipped} skipped` : ''}${s.flaky ? ` (${s.flaky} passed only on a retry: flaky)` : ''}`);
} else broken = true;
if (e2eCode !== 0 && failed === 0) { failed += 1; console.log('e2e: the run failed outside a test'); }

// 4. The Firefox smoke (node:test driving Debian's firefox-esr over WebDriver BiDi with
// puppeteer-core; TAP report for the counts). It serves the build the end-to-end run just made.
rmSync('.tmp/firefox.tap', { force: true });
const ffCode = run(
  'npx',
  ['tsx', '--test', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', '--test-reporter-destination=.tmp/firefox.tap', 'tests/firefox/smoke.ff.ts'],
  { FF_REUSE_BUILD: existsSync('build/index.html') ? '1' : '' }
);
if (existsSync('.tmp/firefox.tap')) {
  const tap = readFileSync('.tmp/firefox.tap', 'utf8');
  const count = (word) => Number(tap.match(new RegExp(`^# ${word} (\\d+)$`, 'm'))?.[1] ?? 0);
  const p = count('pass');
  const f = count('fail') + count('cancelled');
  passed += p;
  failed += f;
  if (p + f === 0) broken = true;
  console.log(`firefox: ${p} passed, ${f} failed`);
} else broken = true;
if (ffCode !== 0 && failed === 0) { failed += 1; console.log('firefox: the run failed outside a test'); }

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
