// `npm run bench:browser`: the browser benchmark of issue 3 (and the timeline draw of issue 5),
// in Debian's Chromium through Playwright, all figures from one run:
//   baseline  the page reads the 100 MB session in a worker and JSON.parses every line;
//   load      the real file input → html[data-state=ready] (parse worker, chat index, timeline),
//             timed by the page from the start of load() to ready (window.__loupe.stats().loadMs);
//   reopen    reload, then "Recent sessions" → ready again, from IndexedDB;
//   longtask  the longest main-thread task during the load (PerformanceObserver 'longtask');
//   scroll    frame times while the chat of that session scrolls for two seconds;
//   timeline  layout + first draw of 5,000 synthetic segments (the /bench/timeline page);
//   usage     the worker's accounting + chart data for that session (its own clock), then the
//             usage panel opened: click → charts drawn, and the longest main-thread task meanwhile.
//   search    on the open session: building its searchable text (the field's focus does it;
//             the heap it adds is measured in Node by scripts/bench-search-memory.ts),
//             then 20 queries of 1–3 common words typed into the field: time from the input
//             event to the first hit drawn and to the complete count; a one-hit string likewise.
//   export    Markdown / one-file HTML of the open session through the dialog (Export → Download,
//             the dialog's default redaction), made in the worker, each cold (no redacted copy
//             kept), with the longest main-thread task from the click to the download.
//   live      following the session's folder copied into the origin-private file system: 1 KB
//             appends to the 100 MB transcript, timed from the write being committed to the new
//             row on screen (and from the poll that saw it), with the worst frame gap during each
//             update (main-thread cost) and long tasks.
//   projects  (issue 9) a generated ~/.claude/projects tree (gen-project.mjs --mb 400 --sessions
//             1500 --seed 1 --orphans 0.15, 1 GB in 3,500 files) dropped as a real folder drop (CDP
//             Input.dispatchDragEvent, the page walks its File System Access handles), --runs times,
//             each into a fresh context: drop → the session list shown and the newest session open
//             (data-state=ready), against a worker reading every file and JSON.parsing every line; the
//             longest main-thread task from the drop to ready (and, informational, in the 3 s after);
//             peak PSS of all renderer processes (/proc, sampled every 200 ms, first run); every
//             session listed; opening a ~1 MB session from the list; a second drop of the same tree
//             (its scans reused from the scan index, ≤ 0.5× the first); once through the folder input
//             (<input webkitdirectory>: Chromium builds its FileList in one long task first), whose
//             files the floor then reads. --profile adds a CPU profile of each drop and names the
//             functions run in its tasks over 50 ms.
//   history   (issues 21, 22; also in projects) the same tree, cold: drop → history().ready; then at
//             once the first report (by day, UTC), timed from the drop, against the floor, with
//             `ccusage daily --json --offline -z UTC` timed on the same tree in the same run (before
//             the browser starts) and the totals compared; every report (day … harness, in the page's
//             zone, America/New_York, and in UTC) through window.__loupe.historyUsage; the dashboard's
//             first draw (real clicks: Usage, then its History tab → charts and tables drawn, waited
//             on as locators) and its long tasks (--profile names their functions); then a reload
//             and the same drop (from the stored index), and a 1 KB append to a followed session.
//             --projects-mb N / --projects-sessions N: a smaller tree to develop against.
// Targets: load ≤ 3× baseline, no long task over 100 ms, reopen ≤ 0.5× load (issue 9: from the persisted row index), timeline < 100 ms,
// usage compute ≤ 10 % of load, usage panel main-thread task ≤ 50 ms,
// search first hits ≤ 50 ms (p95), complete ≤ 200 ms (p95), one-hit ≤ 50 ms, text build ≤ 10 % of load,
// search memory ≤ 0.5× the searchable text, Markdown export ≤ 2 s, HTML export ≤ 4 s,
// live append → row ≤ 100 ms, main thread < 16 ms per update (no frame gap beyond two frames);
// projects: ready ≤ 0.5× its floor, no task over 50 ms, peak renderer PSS ≤ 1 GB, open ≤ 300 ms;
// history usage: first complete report ≤ 1.0× the floor, every report ≤ 100 ms, dashboard first draw no task over 50 ms.
// Misses print MISS; the process still exits 0. The last line is one JSON object.
//
//   npm run bench:browser [-- --mb 100 --seed 1 --runs 3 --case all|session|projects|history|history-view|timeline|boot --port 4179] [-- --live-only] [-- --profile]
//   (--case history-view: the history view after a reload, scripts/lib/bench-history-view.mjs)
//   (--history-only with --case projects: one drop, then the history-search lines only)
//   (--case timeline: only the timeline page, each run in a fresh page; no session generated)
//   (--case boot: the cold start, scripts/lib/bench-boot.mjs; no session generated; --inspector: in a Playwright page)
//   (--case remote: the projects tree opened from nginx on loopback, scripts/lib/bench-remote.mjs)
//   (--case scale: the history case on a generated 5 GB tree; its own case, not in the default run)
//   (the port also comes from BENCH_PORT or PW_PORT)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { bootCase, printBoot } from './lib/bench-boot.mjs';
import { printRemote, remoteCase } from './lib/bench-remote.mjs';
import { historyViewCase, printHistoryView } from './lib/bench-history-view.mjs';
import { runCcusage } from './lib/ccusage.mjs';
import { browserFloors, Verdicts } from './lib/floors.mjs';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const MB = arg('mb', 100);
const SEED = arg('seed', 1);
const RUNS = arg('runs', 3);
// --port, BENCH_PORT or PW_PORT: checkouts benchmarking side by side
const PORT = arg('port', Number(process.env.BENCH_PORT ?? process.env.PW_PORT ?? 4179));
const LIVE_ONLY = process.argv.includes('--live-only');
// --profile (projects and session cases): a CPU profile of each drop or pick, the functions run
// in tasks over 50 ms (the app is built unminified so their names read; the session case then
// stops after its loads).
const PROFILE = process.argv.includes('--profile');
// --history-only (projects case): one drop, then only the history-search lines (historySearchCase).
const HISTORY_ONLY = process.argv.includes('--history-only');
const PROFILE_MS = arg('profile-ms', 50);
// --throttle N (history case): the dashboard's first draw with the CPU slowed N× (CDP).
const THROTTLE = arg('throttle', 1);
const CASE = (() => {
  const i = process.argv.indexOf('--case');
  return i < 0 ? 'all' : process.argv[i + 1];
})();
// --orphans: the main transcripts of 15 % of the sessions with subagents are gone, as in real trees:
// each such folder must still list as one session of its project.
// --case scale: the history case on a 5 GB tree (gen-project --mb 2000 --sessions 7500 --seed 5,
// 4.9 GB): memory must not grow with the tree. Not in the default run (the tree alone takes
// minutes to write and 5 GB of disk).
const PROJECT_ARGS = CASE === 'scale' ? { mb: 2000, sessions: 7500, seed: 5, orphans: 0.15 } : { mb: 400, sessions: 1500, seed: 1, orphans: 0.15 };
// --projects-mb / --projects-sessions: a smaller tree to develop against (kept in the system's
// temporary folder, not in .bench-cache, which may be a cache shared between checkouts).
const SMALL_TREE = process.argv.includes('--projects-mb') || process.argv.includes('--projects-sessions');
if (SMALL_TREE) Object.assign(PROJECT_ARGS, { mb: arg('projects-mb', PROJECT_ARGS.mb), sessions: arg('projects-sessions', PROJECT_ARGS.sessions) });

function generate() {
  const dir = join(REPO, '.bench-cache', `session-${MB}mb-seed${SEED}`);
  const marker = join(dir, 'generated.json');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    console.log(`generating a ${MB} MB session in ${dir} …`);
    const r = spawnSync(process.execPath, ['../shared/bench/gen-session.mjs', '--mb', String(MB), '--seed', String(SEED), '--out', dir], { cwd: REPO, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`generator failed: ${r.stderr}`);
    writeFileSync(marker, r.stdout.trim());
  }
  const { sessionId } = JSON.parse(readFileSync(marker, 'utf8'));
  return { dir, main: join(dir, `${sessionId}.jsonl`), sessionId };
}

function generateProjects() {
  const { mb, sessions, seed, orphans } = PROJECT_ARGS;
  const dir = join(SMALL_TREE ? join(tmpdir(), 'loupe-bench') : join(REPO, '.bench-cache'), `projects-${mb}mb-${sessions}s-seed${seed}-orphans${orphans}`);
  const marker = join(dir, 'generated.json');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    console.log(`generating a projects tree (${mb} MB budget, ${sessions} sessions) in ${dir} …`);
    const r = spawnSync(process.execPath, ['../shared/bench/gen-project.mjs', '--mb', String(mb), '--sessions', String(sessions), '--seed', String(seed), '--orphans', String(orphans), '--out', join(dir, 'projects')], { cwd: REPO, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`generator failed: ${r.stderr}`);
    writeFileSync(marker, r.stdout.trim());
  }
  return { tree: join(dir, 'projects'), totals: JSON.parse(readFileSync(marker, 'utf8')) };
}

/** Pids of every renderer process under the browser whose command line carries `marker`. */
function rendererPids(marker) {
  const procs = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      const ppid = Number(/^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1]);
      procs.set(Number(name), { cmd, ppid });
    } catch { /* gone */ }
  }
  const root = [...procs].find(([, p]) => p.cmd.includes(marker) && !p.cmd.includes('--type='))?.[0];
  if (!root) return [];
  const under = (pid) => { for (let p = pid, i = 0; p > 1 && i < 20; p = procs.get(p)?.ppid ?? 0, i++) if (p === root) return true; return false; };
  return [...procs].filter(([pid, p]) => p.cmd.includes('--type=renderer') && under(pid)).map(([pid]) => pid);
}

/** PSS (bytes) of the renderer processes. */
function rendererPss(marker) {
  let total = 0;
  for (const pid of rendererPids(marker)) {
    try {
      const kb = Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
      total += kb * 1024;
    } catch { /* gone */ }
  }
  return total;
}

/** CPU seconds (user + system) the renderer processes used so far: on a shared machine the wall
 *  time of a step depends on what else runs, its CPU time much less. */
function rendererCpuSeconds(marker) {
  let ticks = 0;
  for (const pid of rendererPids(marker)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch { /* gone */ }
  }
  return ticks / 100;
}

/** [busy, idle] CPU seconds of the whole machine so far (/proc/stat): over a step, busy / wall is
 *  how many cores were at work (the renderer's own share is rendererCpuSeconds; the rest is mostly
 *  the browser process serving file reads). */
function machineCpuSeconds() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3] + f[4];
  return [f.reduce((a, b) => a + b, 0) / 100 - idle / 100, idle / 100];
}

/** A real folder drop (CDP Input.dispatchDragEvent, as the OS would deliver it): the page gets
 *  directory entries and File System Access handles, no FileList built up front. The page listens
 *  for drops on the whole window. */
async function dropFolder(page, dir) {
  // The app's drop handler is attached once it has started (data-state is in the served HTML).
  await page.waitForFunction(() => !!window.__loupe);
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  // A page that has had no mouse event yet may ignore the drag (a fresh context's page): move
  // first, and drag again (elsewhere) if the page saw no drop.
  for (let attempt = 0; attempt < 4; attempt++) {
    const at = 300 + 20 * attempt;
    await page.mouse.move(at, at);
    const cdp = await page.context().newCDPSession(page);
    for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: at, y: at, data });
    await cdp.detach();
    if (await page.waitForFunction(() => window.__dropAt !== undefined, null, { timeout: 5000 }).then(() => true, () => false)) return;
    console.log(`  (the page saw no drop; dragging again, attempt ${attempt + 2})`);
  }
  throw new Error('the page never received the folder drop');
}

/** data-state=ready, or a clear failure with the page's error line. */
async function waitReady(page) {
  await page.waitForSelector('html[data-state=ready], html[data-state=error]', { timeout: 600_000 });
  const error = await page.evaluate(() => (document.documentElement.dataset.state === 'error' ? document.querySelector('[role=alert]')?.textContent ?? 'error' : null));
  if (error) throw new Error(`the drop failed: ${error}`);
}

/** Long tasks of the load just watched: the longest from the drop (or the input's change) to ready,
 *  from load() start to ready, and in the `afterMs` after ready (prefetch, list, scan-index writes). */
async function loadTasks(page, afterMs = 3000) {
  await page.waitForFunction((ms) => performance.now() >= window.__readyAt + ms, afterMs, { timeout: afterMs + 60_000 });
  return page.evaluate((ms) => {
    const t = window.__longtasks;
    const max = (xs) => Math.round(Math.max(0, ...xs.map(([, d]) => d)));
    const from = window.__dropAt ?? window.__loadStart;
    return {
      readyMs: Math.round(window.__readyAt - from),
      longest: max(t.filter(([s, d]) => s + d >= from && s <= window.__readyAt)),
      longestLoupe: max(t.filter(([s]) => s >= window.__loadingAt && s <= window.__readyAt)),
      longestAfter: max(t.filter(([s]) => s > window.__readyAt && s <= window.__readyAt + ms)),
      tasks: t.filter(([s, d]) => s + d >= from && s <= window.__readyAt + ms).map(([s, d]) => [Math.round(s - from), Math.round(d)])
    };
  }, afterMs);
}

/** --profile: a sampled CPU profile of the page's main thread from just before the drop to a few
 *  seconds after ready, and the functions that ran during each task over 50 ms. */
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  // The profile's clock (µs, monotonic) against the page's performance.now().
  const at = await page.evaluate(() => performance.now());
  return { cdp, at };
}

async function stopProfile({ cdp, at }, page, watched = () => ({ tasks: window.__longtasks, origin: window.__dropAt ?? window.__loadStart })) {
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.detach();
  const t = await page.evaluate(watched);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`;
  // Sample times in ms since the profile started; the first sample is close to the page's `at`.
  const times = [];
  let clock = 0;
  for (const d of profile.timeDeltas) times.push((clock += d) / 1000);
  const start0 = times[0] ?? 0;
  const out = [];
  for (const [s, d] of t.tasks.filter(([s, d]) => d > PROFILE_MS && s + d >= t.origin)) {
    const self = new Map();
    const incl = new Map();
    let n = 0;
    profile.samples.forEach((id, i) => {
      const ms = times[i] - start0 + at;
      if (ms < s || ms > s + d) return;
      n++;
      const top = nodes.get(id);
      self.set(label(top), (self.get(label(top)) ?? 0) + 1);
      const seen = new Set();
      for (let x = id; x !== undefined; x = parent.get(x)) {
        const l = label(nodes.get(x));
        if (!seen.has(l)) incl.set(l, (incl.get(l) ?? 0) + 1);
        seen.add(l);
      }
    });
    const top = (m, k) => [...m].sort((a, b) => b[1] - a[1]).slice(0, k).map(([l, c]) => `${l} ${((100 * c) / Math.max(1, n)).toFixed(0)}%`);
    out.push({ at: Math.round(s - t.origin), ms: Math.round(d), samples: n, self: top(self, 8), inclusive: top(incl, Number(process.env.PROFILE_INCL ?? 14)) });
  }
  return out;
}

/** Chromium with a marker on its command line, so its renderers' memory and CPU can be read from /proc. */
async function markedBrowser() {
  const marker = `--loupe-bench-${process.pid}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', marker]
  });
  return { browser, marker };
}

async function projectsCase(base) {
  const { tree, totals } = generateProjects();
  const { browser, marker } = await markedBrowser();
  if (HISTORY_ONLY) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(base);
    await page.evaluate(watchLoadInPage);
    await dropFolder(page, tree);
    await waitReady(page);
    const historySearch = await historySearchCase(page, tree, marker, null);
    await browser.close();
    return { projectsTotals: totals, projectsRuns: 0, historySearch };
  }
  // Each run drops the tree into a fresh context (no scan index yet), as a real folder drop.
  const drops = [];
  let page = null;
  let peak = 0;
  const profiles = [];
  const floors = [];
  let floorCpuS = 0;
  let floorMachineBusyS = 0;
  for (let run = 0; run < RUNS; run++) {
    if (page) await page.context().close();
    // The floors in fresh contexts before each drop (floor, run, floor, run): nothing of Loupe runs.
    const cpu0 = rendererCpuSeconds(marker);
    const machine0 = machineCpuSeconds();
    floors.push(await browserFloors(browser, base, tree));
    if (run === 0) [floorCpuS, floorMachineBusyS] = [rendererCpuSeconds(marker) - cpu0, machineCpuSeconds()[0] - machine0[0]];
    page = await (await browser.newContext()).newPage();
    await page.goto(base);
    await page.evaluate(watchLoadInPage);
    let sampling = run === 0;
    const sampler = (async () => { while (sampling) { peak = Math.max(peak, rendererPss(marker)); await new Promise((r) => setTimeout(r, 200)); } })();
    const prof = PROFILE ? await startProfile(page) : null;
    await dropFolder(page, tree);
    await waitReady(page);
    const tasks = await loadTasks(page);
    if (prof) profiles.push(...(await stopProfile(prof, page)));
    const stats = await page.evaluate(() => window.__loupe.stats());
    const scan = await page.evaluate(() => window.__loupe.scanStats());
    let open = null;
    let search = null;
    if (run === 0) {
      // Opening a ~1 MB session from the list: built in the worker, its chat index and timeline back.
      open = await page.evaluate(async () => {
        const list = window.__loupe.list();
        const pick = list.filter((e) => e.bytes > 0.8e6 && e.bytes < 1.3e6).at(-1) ?? list.at(-1);
        const t0 = performance.now();
        await window.__loupe.open(pick.key);
        return { ms: performance.now() - t0, bytes: pick.bytes };
      });
      sampling = false;
      await sampler;
      // Search across every listed session (issue 10): most are not built, so the worker parses them
      // on the search's way; hits stream back. The page must stay responsive.
      // The renderer's memory during the search too: the search workers hold their text caches and one build each.
      let searchPeak = 0;
      let searching = true;
      const searchCpu0 = rendererCpuSeconds(marker);
      const searchMachine0 = machineCpuSeconds();
      const benchCpu0 = process.cpuUsage();
      const searchSampler = (async () => { while (searching) { searchPeak = Math.max(searchPeak, rendererPss(marker)); await new Promise((r) => setTimeout(r, 500)); } })();
      search = await page.evaluate(async () => {
        window.__longtasks = [];
        const t0 = performance.now();
        const r = await window.__loupe.search('parser', { scope: 'loaded' });
        const end = performance.now();
        return { firstMs: r.firstMs, ms: r.ms, wallMs: end - t0, total: r.total, pooled: r.pooled, pooledMs: r.pooledMs, longest: Math.max(0, ...window.__longtasks.filter(([s]) => s >= t0).map(([, d]) => d)) };
      });
      searching = false;
      await searchSampler;
      const searchMachine1 = machineCpuSeconds();
      const benchCpu = process.cpuUsage(benchCpu0);
      Object.assign(search, { peak: searchPeak, cpuS: rendererCpuSeconds(marker) - searchCpu0, machineBusyS: searchMachine1[0] - searchMachine0[0], machineIdleS: searchMachine1[1] - searchMachine0[1], benchS: (benchCpu.user + benchCpu.system) / 1e6 });
      // A second query over the same tree: the lanes kept part of the text (their budget), the rest is built again.
      search.again = await page.evaluate(async () => {
        const t0 = performance.now();
        const r = await window.__loupe.search('thread', { scope: 'loaded' });
        return { ms: performance.now() - t0, total: r.total };
      });
      search.history = await historySearchCase(page, tree, marker, search.total);
    }
    drops.push({ ...tasks, scanMs: Math.round(scan.ms), stats, open, search });
  }
  // The same drop again in the last run's context: its scans come from the scan index, kept in the
  // background after ready.
  await page.waitForFunction(() => window.__loupe.scansKept() > 0, null, { timeout: 120_000 }).catch(() => undefined);
  await page.goto(base);
  await page.evaluate(watchLoadInPage);
  await dropFolder(page, tree);
  await waitReady(page);
  const second = await loadTasks(page);
  second.scan = await page.evaluate(() => window.__loupe.scanStats());
  // The folder input, once, cold: Chromium builds its FileList of every file in one task before
  // the page's change handler runs; then the floor reads the same files from that input.
  await page.context().close();
  page = await (await browser.newContext()).newPage();
  await page.goto(base);
  await page.evaluate(watchLoadInPage);
  await page.locator('input[type=file][webkitdirectory]').setInputFiles(tree);
  await page.waitForSelector('html[data-state=ready]', { timeout: 600_000 });
  const input = await loadTasks(page);
  input.readyMs = await page.evaluate(() => window.__loupe.stats().loadMs);
  await page.context().close();
  const floorMs = median(floors.map((f) => f.parseMs));
  const readFloorMs = median(floors.map((f) => f.readMs));
  // The history index: its own fresh contexts after everything above, its floors taken beside it.
  const hist = await benchHistory(browser, base, tree, marker);
  await browser.close();
  const first = drops[0];
  const readies = drops.map((d) => d.readyMs);
  return {
    projectsTotals: totals,
    projectsRuns: drops.length,
    projectsFloorMs: Math.round(floorMs),
    projectsReadFloorMs: Math.round(readFloorMs),
    projectsFloorsAll: floors,
    projectsReadyMs: median(readies),
    projectsReadyAllMs: readies,
    projectsReadyRatio: +(median(readies) / floorMs).toFixed(2),
    projectsScanMs: first.scanMs,
    projectsSecondDropMs: second.readyMs,
    projectsSecondDropReused: second.scan.reused,
    projectsLongestTaskMs: Math.max(...drops.map((d) => d.longest)),
    projectsLongestTaskAllMs: drops.map((d) => d.longest),
    projectsLongestTaskAfterReadyMs: Math.max(...drops.map((d) => d.longestAfter)),
    projectsSecondDropLongestTaskMs: second.longest,
    projectsInputReadyMs: input.readyMs,
    projectsInputLongestTaskMs: input.longest,
    projectsInputLongestTaskAfterLoadStartMs: input.longestLoupe,
    projectsPeakPssMB: Math.round(peak / 1048576),
    projectsListed: first.stats.sessions,
    projectsProjects: first.stats.projects,
    projectsOpen1MbMs: Math.round(first.open.ms),
    projectsOpenBytes: first.open.bytes,
    projectsSearchFirstMs: Math.round(first.search.firstMs),
    projectsSearchMs: Math.round(first.search.wallMs),
    projectsSearchHits: first.search.total,
    projectsSearchLongestTaskMs: Math.round(first.search.longest),
    projectsSearchPooled: first.search.pooled,
    projectsSearchParallel: +(first.search.pooledMs / first.search.wallMs).toFixed(2),
    projectsSearchRatio: +(first.search.wallMs / floorMs).toFixed(2),
    projectsSearchPeakPssMB: Math.round(first.search.peak / 1048576),
    projectsSearchCpuS: +first.search.cpuS.toFixed(1),
    projectsSearchAgainMs: Math.round(first.search.again.ms),
    projectsSearchAgainHits: first.search.again.total,
    projectsFloorCpuS: +floorCpuS.toFixed(1),
    projectsFloorMachineBusyS: +floorMachineBusyS.toFixed(1),
    projectsSearchMachineBusyS: +first.search.machineBusyS.toFixed(1),
    projectsSearchMachineIdleS: +first.search.machineIdleS.toFixed(1),
    projectsSearchBenchCpuS: +first.search.benchS.toFixed(1),
    historySearch: first.search.history,
    // Every long task of each drop ([ms from the drop, duration]), to the 3 s after ready.
    projectsTasks: drops.map((d) => d.tasks),
    ...historyFields(hist, totals),
    ...(PROFILE ? { projectsProfile: profiles } : {})
  };
}

/** Each report's times (ms) over the rounds, by `by@zone`. */
function reportTimes(reports) {
  const out = {};
  for (const r of reports) (out[`${r.by}@${r.timezone}`] ??= []).push(Math.round(r.ms));
  return out;
}

const historyFields = (hist, totals) => ({
  historyParseFloorMs: hist.floor.parseMs,
  historyReadFloorMs: hist.floor.readMs,
  historyFloors: hist.floor.all,
  historyReadyMs: hist.cold.ms,
  historyReadyRatio: +(hist.cold.ms / hist.floor.parseMs).toFixed(2),
  historyLongestTaskMs: hist.cold.longest,
  historyPeakPssMB: Math.round(hist.peak / 1048576),
  historyBytesStored: hist.cold.status.bytesStored,
  historyBytesRatio: +(hist.cold.status.bytesStored / totals.bytes).toFixed(3),
  historyStatus: hist.cold.status,
  historyAgainMs: hist.again.ms,
  historyAgainRatio: +(hist.again.ms / hist.floor.parseMs).toFixed(2),
  historyAgainRead: hist.again.status.read,
  historyAppendMs: hist.append.ms,
  historyAppendFromPollMs: hist.append.fromPoll,
  // The usage pass: drop → every call in (usageReady), and the first complete report then.
  historyUsageCompleteMs: hist.cold.usage?.ms ?? null,
  historyUsageCompleteRatio: hist.cold.usage ? +(hist.cold.usage.ms / hist.floor.readMs).toFixed(2) : null,
  historyUsageCompleteReportMs: hist.cold.usage?.reportMs ?? null,
  historyUsagePassMs: hist.cold.usage?.passMs ?? null,
  historyUsageCompleteLongestTaskMs: hist.cold.usage?.longest ?? null,
  historyUsageCompleteTotal: hist.cold.usage?.total ?? null,
  historyUsageFirstReportMs: hist.cold.report.ms,
  historyUsageFirstReportRatio: +(hist.cold.report.ms / hist.floor.parseMs).toFixed(2),
  historyUsageFirstReportAfterReadyMs: hist.cold.report.afterReadyMs,
  historyUsageFirstReportTotal: hist.cold.report.total,
  historyUsageCcusageMs: hist.ccusage.ms,
  historyUsageCcusageRatio: +(hist.ccusage.ms / hist.floor.readMs).toFixed(2),
  historyUsageCcusage: hist.ccusage,
  historyUsageTokensMatchCcusage: ['input', 'output', 'cacheRead', 'cacheWrite'].every((k) => hist.cold.report.total[k] === hist.ccusage[k]),
  historyUsageEarlyTokensMatchCcusage: !!hist.cold.usage && ['input', 'output', 'cacheRead', 'cacheWrite'].every((k) => hist.cold.usage.total[k] === hist.ccusage[k]),
  // Per report (by@zone): its three times; the first round's worst, and the worst median.
  historyUsageReportsMs: reportTimes(hist.reports.reports),
  historyUsageReportFirstMaxMs: Math.round(Math.max(...hist.reports.reports.filter((r) => r.round === 0).map((r) => r.ms))),
  historyUsageReportMaxMs: Math.max(...Object.values(reportTimes(hist.reports.reports)).map((xs) => median(xs))),
  historyUsageReportsLongestTaskMs: hist.reports.longest,
  historyUsageDashboardMs: hist.dashboard.ms,
  historyUsageDashboardLongestTaskMs: hist.dashboard.longest,
  historyUsageDashboardLongestTaskAfterMs: hist.dashboard.longestAfter,
  historyUsageDashboardTasks: hist.dashboard.tasks,
  historyUsageDashboardDays: hist.dashboard.days,
  historyUsageDashboardBlocks: hist.dashboard.blocks,
  ...(hist.dashboard.profile ? { historyUsageDashboardProfile: hist.dashboard.profile } : {})
});

/** The history index lines of the projects case (and of --case history). */
function printHistory(r) {
  const v = VERDICTS;
  const money = (x) => `$${x.toFixed(2)}`;
  const toks = (t) => `${t.input}/${t.output}/${t.cacheRead}/${t.cacheWrite}`;
  console.log(`  floors (fresh contexts, before and after the cold run): read ${r.historyReadFloorMs} ms (two workers, arrayBuffer), parse ${r.historyParseFloorMs} ms (one worker, text + split + JSON.parse); each: ${r.historyFloors.map((f) => `read ${f.readMs} / parse ${f.parseMs}`).join(', ')}`);
  const cc = r.historyUsageCcusage;
  console.log(`  ccusage daily --json --offline -z UTC, same tree, same run  ${r.historyUsageCcusageMs} ms = ${r.historyUsageCcusageRatio}× the read floor; totals ${toks(cc)} tokens, ${money(cc.costUsd)}`);
  if (r.historyUsageCompleteMs !== null) {
    const t = r.historyUsageCompleteTotal;
    console.log(`  history usage: drop → usage complete (every call in)  ${r.historyUsageCompleteMs} ms = ${r.historyUsageCompleteRatio}× the read floor (target ≤ 1.5, aim 1.1)   ${verdict(r.historyUsageCompleteRatio <= 1.5)}; the pass itself ${r.historyUsagePassMs} ms; first complete report ${r.historyUsageCompleteReportMs} ms from the drop; Loupe / ccusage ${(r.historyUsageCompleteMs / r.historyUsageCcusageMs).toFixed(2)}×`);
    console.log(`  … its totals ${toks(t)} tokens, ${money(t.costUsd)}   tokens as ccusage ${verdict(r.historyUsageEarlyTokensMatchCcusage)}; longest main-thread task until then ${r.historyUsageCompleteLongestTaskMs} ms`);
    v.add('drop → usage complete / read floor (1 GB)', `${r.historyUsageCompleteRatio}× (${r.historyUsageCompleteMs} / ${r.historyReadFloorMs} ms)`, '≤ 1.5× (aim 1.1)', r.historyUsageCompleteRatio <= 1.5);
    v.add('usage-pass tokens vs ccusage (totals)', r.historyUsageEarlyTokensMatchCcusage ? 'identical' : 'differ', 'identical', r.historyUsageEarlyTokensMatchCcusage);
  } else {
    console.log('  history usage: the page never said usageReady before ready   MISS');
    v.add('drop → usage complete / read floor (1 GB)', 'never reported', '≤ 1.5×', false);
  }
  console.log(`  history index: drop → history().ready, cold   ${r.historyReadyMs} ms = ${r.historyReadyRatio}× the parse floor (target ≤ 1.5)   ${verdict(r.historyReadyRatio <= 1.5)}   (${r.historyStatus.indexed} indexed, ${r.historyStatus.failed} failed, ${r.historyStatus.calls} calls)`);
  v.add('drop → history index ready / parse floor', `${r.historyReadyRatio}× (${r.historyReadyMs} / ${r.historyParseFloorMs} ms)`, '≤ 1.5×', r.historyReadyRatio <= 1.5);
  const st = r.historyStatus;
  if (st.laneMs) console.log(`  … the pass: ${Math.round(st.ms)} ms from its start to ready; its lanes read ${st.read} sessions in ${st.laneMs} ms summed over the lanes (informational: busy ${(st.laneMs / st.ms).toFixed(2)} lanes on average)`);
  console.log(`  … longest main-thread task, drop → ready  ${r.historyLongestTaskMs} ms (target ≤ 50)   ${verdict(r.historyLongestTaskMs <= 50)}`);
  v.add('longest main-thread task, drop → index ready', `${r.historyLongestTaskMs} ms`, '≤ 50 ms', r.historyLongestTaskMs <= 50);
  console.log(`  … peak renderer PSS while indexing    ${r.historyPeakPssMB} MB (target ≤ 1024)   ${verdict(r.historyPeakPssMB > 0 && r.historyPeakPssMB <= 1024)}`);
  v.add('peak renderer memory while indexing', `${r.historyPeakPssMB} MB`, '≤ 1024 MB', r.historyPeakPssMB > 0 && r.historyPeakPssMB <= 1024);
  console.log(`  … index bytes stored                  ${(r.historyBytesStored / 1e6).toFixed(1)} MB, ${r.historyBytesRatio}× the tree (target ≤ 0.2)   ${verdict(r.historyBytesRatio <= 0.2)}`);
  v.add('stored index / tree bytes', `${r.historyBytesRatio}×`, '≤ 0.2×', r.historyBytesRatio <= 0.2);
  console.log(`  … same tree again after a reload → ready  ${r.historyAgainMs} ms = ${r.historyAgainRatio}× the parse floor (target ≤ 0.25), ${r.historyAgainRead} sessions read   ${verdict(r.historyAgainRatio <= 0.25)}`);
  console.log(`  … 1 KB append to a followed session → its calls in the index  ${r.historyAppendMs} ms (${r.historyAppendFromPollMs} ms from the poll that saw it) (target ≤ 200)   ${verdict(r.historyAppendMs <= 200)}`);
  const tot = r.historyUsageFirstReportTotal;
  console.log(`  … first report after ready (by day, UTC)  ${r.historyUsageFirstReportMs} ms from the drop (${r.historyUsageFirstReportAfterReadyMs} ms after ready); totals ${toks(tot)}, ${money(tot.costUsd)}   tokens as ccusage ${verdict(r.historyUsageTokensMatchCcusage)}`);
  v.add('index tokens vs ccusage (totals)', r.historyUsageTokensMatchCcusage ? 'identical' : 'differ', 'identical', r.historyUsageTokensMatchCcusage);
  const slowest = Object.entries(r.historyUsageReportsMs).sort((a, b) => median(b[1]) - median(a[1]));
  console.log(`  … every report once complete (${HISTORY_BY.join(', ')}; ${HISTORY_ZONE} and UTC; 3 rounds)  slowest median ${r.historyUsageReportMaxMs} ms (${slowest[0][0]}) (target ≤ 20 each)   ${verdict(r.historyUsageReportMaxMs <= 20)}; slowest single run of the first round ${r.historyUsageReportFirstMaxMs} ms; longest main-thread task meanwhile ${r.historyUsageReportsLongestTaskMs} ms`);
  v.add('slowest report once complete (median)', `${r.historyUsageReportMaxMs} ms`, '≤ 20 ms', r.historyUsageReportMaxMs <= 20);
  console.log(`    ${slowest.map(([k, x]) => `${k} ${x.join('/')}`).join(', ')}`);
  console.log(`  … dashboard first draw${THROTTLE > 1 ? ` (CPU throttled ${THROTTLE}×)` : ''} (click on the History tab → ${r.historyUsageDashboardDays} day bars, ${r.historyUsageDashboardBlocks} blocks, tables)  ${r.historyUsageDashboardMs} ms, longest main-thread task ${r.historyUsageDashboardLongestTaskMs} ms (target ≤ 50)   ${verdict(r.historyUsageDashboardLongestTaskMs <= 50)}; in the 1 s after ${r.historyUsageDashboardLongestTaskAfterMs} ms`);
  for (const p of r.historyUsageDashboardProfile ?? []) console.log(`    --profile: at ${p.at} ms from the click, ${p.ms} ms (${p.samples} samples)\n      self: ${p.self.join(' | ')}\n      incl: ${p.inclusive.join(' | ')}`);
}

async function historyCase(base) {
  const { tree, totals } = generateProjects();
  const { browser, marker } = await markedBrowser();
  const hist = await benchHistory(browser, base, tree, marker);
  await browser.close();
  return { projectsTotals: totals, projectsFloorMs: hist.floor.parseMs, ...historyFields(hist, totals) };
}

/** Issue 23: history search over the dropped tree. Waits for the history index (issue 21, whose
 *  lanes build each session's search index in the same pass), then times history-scoped queries from the page: a string that occurs
 *  once (cut from one session's prompt), "parser" (its total against the scan's, when given), a
 *  regex with a literal, one without; the longest main-thread task during them; the index's
 *  share of the tree's bytes. */
async function historySearchCase(page, tree, marker, scanParserTotal) {
  let peak = 0;
  let sampling = true;
  const sampler = (async () => { while (sampling) { peak = Math.max(peak, rendererPss(marker)); await new Promise((r) => setTimeout(r, 500)); } })();
  const index = await page.evaluate(async () => {
    const t0 = performance.now();
    const s = await window.__loupe.historySearchIndex();
    return { ...s, wallMs: performance.now() - t0 };
  });
  sampling = false;
  await sampler;
  const once = onceString(tree);
  const beforePss = rendererPss(marker);
  const run = (query, options = {}) =>
    page.evaluate(async ([query, options]) => {
      window.__longtasks = [];
      const t0 = performance.now();
      const r = await window.__loupe.search(query, { ...options, scope: 'history' });
      const end = performance.now();
      return { query, ms: end - t0, firstMs: r.firstMs, total: r.total, pooled: r.pooled, pooledMs: r.pooledMs, longest: Math.max(0, ...window.__longtasks.filter(([s]) => s >= t0).map(([, d]) => d)) };
    }, [query, options]);
  const queries = [];
  for (const [q, o] of [[once, {}], ['parser', {}], ['timeout after \\d+ms', { regex: true }], ['rows\\d+ = parse\\(', { regex: true }], ['\\d{4}\\)', { regex: true }]]) {
    const cold = await run(q, o); // the first run of each decodes what the lanes do not keep yet
    queries.push({ ...(await run(q, o)), coldMs: cold.ms, coldPooled: cold.pooled, coldPooledMs: cold.pooledMs });
  }
  // What the page holds once the lanes keep the history's decoded text (after every query ran twice).
  const afterPss = rendererPss(marker);
  const typed = await typedHistoryQuery(page.context().browser(), `${new URL(page.url()).origin}/`, tree, queries[1].total);
  return { index, indexPeakPss: peak, beforePss, afterPss, queries, scanParserTotal, typed };
}

/** "parser" as a person asks it, in a fresh context (the lanes keep nothing yet): the tree dropped,
 *  the history indexed, then the search field focused, the history scope chosen (both start the
 *  lanes decoding the history: Search.prepare) and the word typed at 8 keys a second. The time
 *  from the last key to the field's complete count (`total`, no "searching…"). */
async function typedHistoryQuery(browser, url, tree, total) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(watchLoadInPage);
  await dropFolder(page, tree);
  await waitReady(page);
  await page.evaluate(() => window.__loupe.historySearchIndex());
  await page.evaluate(() => addEventListener('keydown', (e) => (window.__lastKeyAt = e.timeStamp), { capture: true }));
  const focusedAt = await page.evaluate(() => performance.now());
  await page.locator('input[type=search]').focus();
  await page.getByLabel('Search scope').selectOption('everything');
  await page.locator('input[type=search]').pressSequentially('parser', { delay: 125 });
  const shownAt = await page.waitForFunction((total) => {
    const text = document.querySelector('[data-search-count]')?.textContent ?? '';
    return text.startsWith(`${total.toLocaleString('en-US')} results`) && !text.includes('searching') && performance.now();
  }, total, { polling: 'raf', timeout: 60_000 }).then((h) => h.jsonValue());
  const lastKeyAt = await page.evaluate(() => window.__lastKeyAt);
  await context.close();
  return { afterLastKeyMs: shownAt - lastKeyAt, fromFocusMs: shownAt - focusedAt };
}

/** A run of words from the middle of one session's first prompt: it occurs once in the tree. */
function onceString(tree) {
  const files = [];
  const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) e.isDirectory() ? e.name !== 'subagents' && walk(join(d, e.name)) : e.name.endsWith('.jsonl') && files.push(join(d, e.name)); };
  walk(tree);
  const file = files.sort()[Math.floor(files.length / 2)];
  for (const line of readFileSync(file, 'utf8').split('\n').slice(0, 20)) {
    const m = /[a-z ]{60,}/.exec(/"role":"user","content":"([^"]+)"/.exec(line)?.[1] ?? '');
    if (m) return m[0].slice(5, 55).trim();
  }
  throw new Error(`no prompt text in ${file}`);
}

function printHistorySearch(h) {
  if (!h) return;
  const { index: ix, queries } = h;
  console.log(`\nhistory search (issue 23): ${ix.indexed} of ${ix.listed} sessions have a search index, the history index ready in ${(ix.wallMs / 1000).toFixed(1)} s from the drop being ready; peak renderer PSS while it indexed ${Math.round(h.indexPeakPss / 1048576)} MB`);
  console.log(`  index bytes ${(ix.indexBytes / 1e6).toFixed(1)} MB = ${((100 * ix.indexBytes) / ix.treeBytes).toFixed(1)} % of the tree's ${(ix.treeBytes / 1e9).toFixed(2)} GB (search's share of the history budget, ≤ 25 % with the rest)   ${verdict(ix.indexBytes <= 0.25 * ix.treeBytes)}`);
  const [once, parser, regexLit, regexUsed, regexNone] = queries;
  const longest = Math.round(Math.max(...queries.map((q) => q.longest)));
  console.log(`  a string that occurs once ("${once.query}")   complete ${Math.round(once.ms)} ms, ${once.total} hit(s) (target ≤ 100)   ${verdict(once.ms <= 100)}`);
  console.log(`  "parser"   first batch ${Math.round(parser.firstMs)} ms (target: first 100 hits ≤ 100)   ${verdict(parser.firstMs <= 100)}; complete ${Math.round(parser.ms)} ms, ${parser.total} hits (target ≤ 1000)   ${verdict(parser.ms <= 1000)}${h.scanParserTotal === null ? '' : `; the scan's total ${h.scanParserTotal}   ${verdict(h.scanParserTotal === parser.total)}`}`);
  console.log(`    its first run, the first query after ready (the lanes decode the history) ${Math.round(parser.coldMs)} ms (target ≤ 1000)   ${verdict(parser.coldMs <= 1000)} (${parser.coldPooled} sessions in the lanes, ${Math.round(parser.coldPooledMs)} ms summed over them)`);
  if (h.typed) console.log(`    typed in the field at history scope after the index is ready (a fresh context: focus, scope, 8 keys/s)   complete count shown ${Math.round(h.typed.afterLastKeyMs)} ms after the last key (target ≤ 1000)   ${verdict(h.typed.afterLastKeyMs <= 1000)}; ${Math.round(h.typed.fromFocusMs)} ms from the focus`);
  console.log(`  regex with a literal /${regexLit.query}/   ${Math.round(regexLit.ms)} ms, ${regexLit.total} hits (target ≤ 1000)   ${verdict(regexLit.ms <= 1000)}; /${regexUsed.query}/ ${Math.round(regexUsed.ms)} ms, ${regexUsed.total} hits   ${verdict(regexUsed.ms <= 1000)}`);
  console.log(`  regex with no literal /${regexNone.query}/ (scans every session, and says so)   ${Math.round(regexNone.ms)} ms, ${regexNone.total} hits (informational)`);
  console.log(`  longest main-thread task during these queries ${longest} ms (target ≤ 50)   ${verdict(longest <= 50)}`);
  console.log(`  renderer PSS before these queries ${Math.round(h.beforePss / 1048576)} MB, after them (the lanes keep the decoded text) ${Math.round(h.afterPss / 1048576)} MB (informational)`);
}

/** Runs in the page after a drop: polls window.__loupe.history() until ready; the time from the
 *  drop and the longest main-thread task in between. `report`: then at once the first report
 *  (by day, UTC: what `ccusage daily` answers), timed from the drop too (issue 22: the first
 *  complete report from a cold drop), with its totals. */
async function historyReadyInPage(report = false) {
  const from = window.__dropAt ?? window.__loadStart;
  let usage = null;
  for (;;) {
    const status = await window.__loupe.history();
    // The usage pass: every listed session's calls are in; the first complete report at once.
    if (report && !usage && status.usageReady) {
      const at = performance.now();
      const r = await window.__loupe.historyUsage({ by: 'day', timezone: 'UTC' });
      const longest = Math.round(Math.max(0, ...window.__longtasks.filter(([t, d]) => t + d >= from && t <= at).map(([, d]) => d)));
      usage = { ms: Math.round(at - from), reportMs: Math.round(performance.now() - from), passMs: status.usageMs, days: r.rows.length, total: r.total, longest };
    }
    if (status.ready) {
      const now = performance.now();
      const longest = Math.round(Math.max(0, ...window.__longtasks.filter(([t, d]) => t + d >= from && t <= now).map(([, d]) => d)));
      if (!report) return { ms: Math.round(now - from), longest, status };
      const r = await window.__loupe.historyUsage({ by: 'day', timezone: 'UTC' });
      const end = performance.now();
      return { ms: Math.round(now - from), longest, status, usage, report: { ms: Math.round(end - from), afterReadyMs: Math.round(end - now), days: r.rows.length, total: r.total } };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The time zone of the history bench's pages: not UTC (the machine's), so "the browser's zone"
 *  and UTC are two different reports; one with daylight saving time. */
const HISTORY_ZONE = 'America/New_York';
const HISTORY_BY = ['day', 'week', 'month', 'session', 'block', 'project', 'model', 'harness'];

/** Runs in the page once history().ready: every report (each `by`, in the browser's zone and in
 *  UTC) through window.__loupe.historyUsage, each timed from the call to its answer in the page;
 *  the longest main-thread task meanwhile. */
async function historyReportsInPage(bys) {
  const out = [];
  const t0 = performance.now();
  // Three rounds: on a shared machine one run of a report can meet another process's burst.
  for (let round = 0; round < 3; round++) {
    for (const timezone of [undefined, 'UTC']) {
      for (const by of bys) {
        const t = performance.now();
        const r = await window.__loupe.historyUsage(timezone ? { by, timezone } : { by });
        out.push({ round, by, timezone: timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, ms: performance.now() - t, rows: r.rows.length, messages: r.total.messages });
      }
    }
  }
  const longest = Math.max(0, ...window.__longtasks.filter(([s, d]) => s + d >= t0).map(([, d]) => d));
  return { reports: out, longest: Math.round(longest) };
}

/** What the dashboard's first draw waits for: both charts of bars, the running total, the top
 *  lists, the blocks table, and the dashboard saying its last step is drawn (data-drawn). */
const DASHBOARD_DRAWN = [...['[data-chart=history-cost-by-day] rect', '[data-chart=history-blocks] rect', '[data-chart=history-cumulative] path.main', '[data-chart=history-top-sessions] li', '[data-table=history-blocks] tbody tr'].map((x) => `[data-history-usage] ${x}`), '[data-history-usage][data-drawn]'];

/** Issue 22: the history dashboard's first draw. The usage panel is opened (a real click), then
 *  the real click on its History tab; the page notes the click's time stamp, and the frame after
 *  every DASHBOARD_DRAWN part is in the document (Playwright waits on those locators); the long
 *  tasks from the click to 1 s after that frame. */
async function historyDashboard(page) {
  await page.locator('[data-action=usage]').click();
  await page.locator('[data-usage-panel]').waitFor();
  await page.evaluate((drawn) => {
    const d = (window.__dash = { tasks: [], clickAt: undefined, drawnAt: undefined });
    new PerformanceObserver((l) => { for (const e of l.getEntries()) d.tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
    addEventListener('click', (e) => { if (e.target instanceof Element && e.target.closest('[data-action=history-usage]')) d.clickAt ??= e.timeStamp; }, { capture: true });
    const check = () => {
      if (d.clickAt !== undefined && drawn.every((x) => document.querySelector(x))) requestAnimationFrame(() => setTimeout(() => (d.drawnAt = performance.now()), 0));
      else requestAnimationFrame(check);
    };
    check();
  }, DASHBOARD_DRAWN);
  const profiling = PROFILE ? await startProfile(page) : null;
  // --throttle N: the CPU slowed N× for the draw (a slower machine; what is heavy shows in --profile).
  const throttle = THROTTLE > 1 ? await page.context().newCDPSession(page) : null;
  await throttle?.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.locator('[data-action=history-usage]').click();
  for (const x of DASHBOARD_DRAWN) await page.locator(x).first().waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => window.__dash.drawnAt !== undefined && performance.now() >= window.__dash.drawnAt + 1000, null, { timeout: 120_000 });
  await throttle?.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await throttle?.detach();
  const profile = profiling ? await stopProfile(profiling, page, () => ({ tasks: window.__dash.tasks, origin: window.__dash.clickAt })) : undefined;
  const r = await page.evaluate(() => {
    const d = window.__dash;
    const within = (a, b) => Math.round(Math.max(0, ...d.tasks.filter(([s, t]) => s + t >= a && s <= b).map(([, t]) => t)));
    return { ms: Math.round(d.drawnAt - d.clickAt), longest: within(d.clickAt, d.drawnAt), longestAfter: within(d.drawnAt, d.drawnAt + 1000), tasks: d.tasks.filter(([s, t]) => s + t >= d.clickAt).map(([s, t]) => [Math.round(s - d.clickAt), Math.round(t)]), days: document.querySelectorAll('[data-chart=history-cost-by-day] [data-day]').length, blocks: document.querySelectorAll('[data-chart=history-blocks] rect').length };
  });
  return { ...r, profile };
}

/** `ccusage daily` on the tree, timed (the anchor of issue 22's cold target), with its totals. */
function ccusageDaily(tree) {
  const { json, ms } = runCcusage(tree, 'daily');
  const t = json.totals ?? {};
  return { ms: Math.round(ms), days: (json.daily ?? []).length, input: t.inputTokens, output: t.outputTokens, cacheRead: t.cacheReadTokens, cacheWrite: t.cacheCreationTokens, costUsd: t.totalCost };
}

/** Issue 21: drop → history().ready cold (peak renderer PSS while it indexes), the same tree after
 *  a reload (read from the stored index), and a 1 KB append to a followed session → its calls. */
async function benchHistory(browser, base, tree, marker) {
  // ccusage first, while the browser is idle: the same files, warm in the page cache as for the drop.
  const ccusage = ccusageDaily(tree);
  // The floors in fresh contexts just before and just after the cold run (floor, run, floor).
  const before = await browserFloors(browser, base, tree);
  const context = await browser.newContext({ timezoneId: HISTORY_ZONE });
  const page = await context.newPage();
  await page.goto(base);
  await page.evaluate(watchLoadInPage);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => { while (sampling) { peak = Math.max(peak, rendererPss(marker)); await new Promise((r) => setTimeout(r, 200)); } })();
  await dropFolder(page, tree);
  await waitReady(page);
  const cold = await page.evaluate(historyReadyInPage, true);
  sampling = false;
  await sampler;
  const after = await browserFloors(browser, base, tree);
  const floor = { parseMs: Math.round((before.parseMs + after.parseMs) / 2), readMs: Math.round((before.readMs + after.readMs) / 2), all: [before, after] };
  const reports = await page.evaluate(historyReportsInPage, HISTORY_BY);
  const dashboard = await historyDashboard(page);
  await page.reload();
  await page.evaluate(watchLoadInPage);
  await dropFolder(page, tree);
  await waitReady(page);
  const again = await page.evaluate(historyReadyInPage);
  const append = await historyAppend(page, base, tree);
  await context.close();
  return { cold, again, append, peak, ccusage, reports, dashboard, floor };
}

/** One session of the tree copied into OPFS and followed; a 1 KB assistant line with usage appended
 *  to it; the time until the history index has its call (window.__loupe.history().calls grows). */
async function historyAppend(page, base, tree) {
  // A session of about 500 kB (one file, no subagents needed): what following one looks like.
  const project = readdirSync(tree).sort()[0];
  const sizes = readdirSync(join(tree, project)).filter((f) => f.endsWith('.jsonl')).map((f) => [f, statSync(join(tree, project, f)).size]);
  const file = sizes.sort((a, b) => Math.abs(a[1] - 5e5) - Math.abs(b[1] - 5e5))[0][0];
  const text = readFileSync(join(tree, project, file), 'utf8');
  await page.addInitScript(() => {
    window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('bench-history-live', { create: true });
  });
  await page.goto(base);
  await page.evaluate(async ([name, body]) => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('bench-history-live', { recursive: true }).catch(() => undefined);
    const top = await root.getDirectoryHandle('bench-history-live', { create: true });
    const w = await (await top.getFileHandle(name, { create: true })).createWritable();
    await w.write(body);
    await w.close();
  }, [file, text]);
  await page.locator('[data-action="follow"]').click();
  await page.waitForSelector('html[data-state=ready][data-live=on]', { timeout: 600_000 });
  await page.waitForFunction(async () => (await window.__loupe.history()).calls > 0, null, { timeout: 600_000, polling: 100 });
  const sessionId = file.replace(/\.jsonl$/, '');
  const r = await page.evaluate(async ([name, sid]) => {
    const before = (await window.__loupe.history()).calls;
    const d = await (await navigator.storage.getDirectory()).getDirectoryHandle('bench-history-live');
    const fh = await d.getFileHandle(name);
    const f = await fh.getFile();
    const tail = await f.slice(Math.max(0, f.size - 65536)).text();
    const parent = [...tail.matchAll(/"uuid":"([^"]+)"/g)].at(-1)?.[1] ?? null;
    const uuid = `bench-history-${Date.now()}`;
    const line = JSON.stringify({ type: 'assistant', uuid, parentUuid: parent, sessionId: sid, requestId: `req-${uuid}`, timestamp: new Date().toISOString(), message: { id: `msg-${uuid}`, role: 'assistant', model: 'claude-sonnet-4-5', stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 40, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 }, content: [{ type: 'text', text: 'History benchmark reply. '.repeat(36).slice(0, 700) }] } }) + '\n';
    const w = await fh.createWritable({ keepExistingData: true });
    await w.seek(f.size);
    await w.write(line);
    await w.close();
    const written = performance.now();
    for (;;) {
      const s = await window.__loupe.history();
      if (s.calls > before) break;
      await new Promise((res) => setTimeout(res, 5));
    }
    const done = performance.now();
    const pollAt = window.__loupe.live.stats().lastPollAt;
    return { ms: Math.round(done - written), fromPoll: Math.round(done - Math.max(pollAt, written)) };
  }, [file, sessionId]);
  return r;
}

function printProjects(r) {
  if (!r.projectsRuns) return printHistorySearch(r.historySearch);
  console.log(`\nprojects tree: ${(r.projectsTotals.bytes / 1e9).toFixed(2)} GB, ${r.projectsTotals.sessions} sessions, ${r.projectsTotals.projects} projects; ${r.projectsRuns} cold drops (real folder drops, CDP Input.dispatchDragEvent)`);
  console.log(`  floors, fresh contexts before each drop: parse ${r.projectsFloorMs} ms, read ${r.projectsReadFloorMs} ms (medians; each: ${r.projectsFloorsAll.map((f) => `${f.parseMs}/${f.readMs}`).join(', ')})`);
  console.log(`  drop → list + newest session ready   median ${r.projectsReadyMs} ms (${r.projectsReadyAllMs.join(', ')})   ratio ${r.projectsReadyRatio}× the parse floor (target ≤ 0.5)   ${verdict(r.projectsReadyRatio <= 0.5)}`);
  VERDICTS.add('1 GB drop → list + newest ready / parse floor', `${r.projectsReadyRatio}× (${r.projectsReadyMs} / ${r.projectsFloorMs} ms)`, '≤ 0.5×', r.projectsReadyRatio <= 0.5);
  VERDICTS.add('1 GB drop: longest task drop → ready', `${r.projectsLongestTaskMs} ms`, '≤ 50 ms', r.projectsLongestTaskMs <= 50);
  VERDICTS.add('search "parser", all sessions / parse floor', `${r.projectsSearchRatio}×`, '≤ 1×', r.projectsSearchMs <= r.projectsFloorMs);
  console.log(`  … of which the head/tail scan         ${r.projectsScanMs} ms`);
  console.log(`  same drop again (scan index)         ${r.projectsSecondDropMs} ms   ratio ${(r.projectsSecondDropMs / r.projectsReadyMs).toFixed(2)}× of the first (target ≤ 0.5), ${r.projectsSecondDropReused} scans reused   ${verdict(r.projectsSecondDropMs <= 0.5 * r.projectsReadyMs)}`);
  console.log(`  longest main-thread task, drop → ready  ${r.projectsLongestTaskMs} ms over ${r.projectsRuns} runs (${r.projectsLongestTaskAllMs.join(', ')}; second drop ${r.projectsSecondDropLongestTaskMs}) (target ≤ 50)   ${verdict(r.projectsLongestTaskMs <= 50 && r.projectsSecondDropLongestTaskMs <= 50)}`);
  console.log(`  … in the 3 s after ready (prefetch, list, scan index)  ${r.projectsLongestTaskAfterReadyMs} ms (informational)`);
  console.log(`  the folder input instead (<input webkitdirectory>, Chromium builds its FileList in one task): ready ${r.projectsInputReadyMs} ms from load(), longest task ${r.projectsInputLongestTaskMs} ms, from load() start ${r.projectsInputLongestTaskAfterLoadStartMs} ms (informational)`);
  console.log(`  peak renderer PSS                    ${r.projectsPeakPssMB} MB (target ≤ 1024)   ${verdict(r.projectsPeakPssMB > 0 && r.projectsPeakPssMB <= 1024)}`);
  console.log(`  sessions listed                      ${r.projectsListed} of ${r.projectsTotals.sessions}, ${r.projectsProjects} projects   ${verdict(r.projectsListed === r.projectsTotals.sessions && r.projectsProjects === r.projectsTotals.projects)}`);
  console.log(`  open a ${(r.projectsOpenBytes / 1e6).toFixed(1)} MB session from the list  ${r.projectsOpen1MbMs} ms (target ≤ 300)   ${verdict(r.projectsOpen1MbMs <= 300)}`);
  console.log(`  search "parser" in all ${r.projectsListed} sessions     first hit ${r.projectsSearchFirstMs} ms (target ≤ 1000)   ${verdict(r.projectsSearchFirstMs <= 1000)}; complete ${r.projectsSearchMs} ms, ${r.projectsSearchHits} hits (target ≤ 5000 and ≤ 1× floor)   ${verdict(r.projectsSearchMs <= 5000 && r.projectsSearchMs <= r.projectsFloorMs)}; longest main-thread task ${r.projectsSearchLongestTaskMs} ms`);
  console.log(`  … search / floor ${r.projectsSearchRatio}× (aim ≤ 0.6); ${r.projectsSearchPooled} sessions built by the search workers, ${r.projectsSearchParallel} of them at a time on average; peak renderer PSS during the search ${r.projectsSearchPeakPssMB} MB`);
  console.log(`  … CPU time of the renderer: search ${r.projectsSearchCpuS} s, floor ${r.projectsFloorCpuS} s (ratio ${(r.projectsSearchCpuS / r.projectsFloorCpuS).toFixed(2)}; the search's wall time is this over the cores it gets)`);
  console.log(`  … a second query ("thread", ${r.projectsSearchAgainHits} hits) right after: ${r.projectsSearchAgainMs} ms (the lanes keep part of the text; informational)`);
  console.log(`  … CPU time of the whole machine: search ${r.projectsSearchMachineBusyS} s busy, ${r.projectsSearchMachineIdleS} s idle (this bench's own memory sampling ${r.projectsSearchBenchCpuS} s of the busy); floor ${r.projectsFloorMachineBusyS} s busy`);
  printHistorySearch(r.historySearch);
  printHistory(r);
  if (r.projectsProfile) {
    console.log(`  --profile: tasks over ${PROFILE_MS} ms (ms from the drop), the functions sampled in them`);
    for (const p of r.projectsProfile) console.log(`    at ${p.at} ms, ${p.ms} ms (${p.samples} samples)\n      self: ${p.self.join(' | ')}\n      incl: ${p.inclusive.join(' | ')}`);
  }
}

/** Runs in the page before a load: long tasks from now on, and when data-state turns loading / ready. */
function watchLoadInPage() {
  window.__longtasks = [];
  window.__loadStart = performance.now();
  window.__dropAt = undefined;
  window.__loadingAt = undefined;
  window.__readyAt = undefined;
  // A drop's own time stamp: the clock of a dropped folder starts when the drop is delivered.
  addEventListener('drop', (e) => (window.__dropAt ??= e.timeStamp), { capture: true });
  // Likewise a picked file: its load starts at the input's change event. Playwright's
  // setInputFiles runs its own script in the page first (a 65 ms task in a trace of the 100 MB
  // load, none of it the viewer's), and that task dispatches the event.
  window.__pickAt = undefined;
  addEventListener('change', (e) => (window.__pickAt ??= e.timeStamp), { capture: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longtasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
  new MutationObserver(() => {
    if (document.documentElement.dataset.state === 'loading') window.__loadingAt ??= performance.now();
    if (document.documentElement.dataset.state === 'ready') window.__readyAt ??= performance.now();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-state'] });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
/** The table every run ends with (scripts/lib/floors.mjs): each case adds its targets. */
const VERDICTS = new Verdicts();
/** The verdict table, then the run's figures as the last line (one JSON object). */
function finish(result) {
  VERDICTS.print(`npm run bench:browser${CASE === 'all' ? '' : ` --case ${CASE}`}: verdicts (floors: scripts/lib/floors.mjs, fresh contexts, interleaved with the runs)`);
  console.log(JSON.stringify(result));
}

async function main() {
  const { main: mainFile, dir: sessionDir, sessionId } = ['projects', 'history', 'scale', 'history-view', 'timeline', 'boot', 'remote'].includes(CASE) ? { main: '', dir: '', sessionId: '' } : generate();
  console.log('building …');
  const b = spawnSync('npx', ['vite', 'build', ...(PROFILE ? ['--minify', 'false'] : [])], { cwd: REPO, stdio: 'ignore' });
  if (b.status !== 0) throw new Error('vite build failed');
  const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort'], { cwd: REPO, stdio: 'ignore', detached: true });
  const base = `http://localhost:${PORT}`;
  try {
    for (let i = 0; i < 100; i++) {
      try { if ((await fetch(base)).ok) break; } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 200));
    }
    if (CASE === 'history' || CASE === 'scale') {
      const r = await historyCase(base);
      console.log(`\nprojects tree: ${(r.projectsTotals.bytes / 1e9).toFixed(2)} GB, ${r.projectsTotals.sessions} sessions`);
      printHistory(r);
      finish(r);
      return;
    }
    if (CASE === 'remote') {
      const r = await remoteCase(base, generateProjects(), { dropFolder, waitReady, watchLoadInPage });
      printRemote(r, verdict);
      console.log(JSON.stringify(r));
      return;
    }
    if (CASE === 'history-view') {
      const { browser } = await markedBrowser();
      const r = await historyViewCase(browser, base, generateProjects().tree, { dropFolder, waitReady, watchLoad: watchLoadInPage, rareString: onceString });
      await browser.close();
      printHistoryView(r, verdict);
      console.log(JSON.stringify(r));
      return;
    }
    if (CASE === 'projects') {
      const r = await projectsCase(base);
      printProjects(r);
      finish(r);
      return;
    }
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
    });
    if (CASE === 'boot') {
      const r = await bootCase(browser, base, RUNS, median);
      await browser.close();
      printBoot(r, verdict);
      finish(r);
      return;
    }
    if (CASE === 'timeline') {
      const r = await timelineCase(browser, base);
      await browser.close();
      printTimeline(r);
      finish(r);
      return;
    }
    if (LIVE_ONLY) {
      const live = await benchLive(browser, base, sessionDir, sessionId);
      await browser.close();
      printLive(live);
      finish({ mb: MB, ...liveFields(live) });
      return;
    }
    let context = await browser.newContext();
    let page = await context.newPage();
    const loads = [];
    const baselines = [];
    let longest = 0;
    let longestAfter = 0;
    /** Each load's longest task [pick → ready, the 3 s after]: the line's verdict takes the worst. */
    const perLoad = [];
    /** Each load's font warm-up end, ms from the pick (null: not done 3 s after ready). */
    const fontsWarm = [];
    for (let run = 0; run < RUNS; run++) {
      if (run > 0 && run === RUNS - 1) {
        // The last load in a fresh context: the cached reopen below needs this page to persist the
        // row index, and a context that cached the session already keeps its index (no new write).
        await context.close();
        context = await browser.newContext();
        page = await context.newPage();
        await page.goto(base);
        await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 30_000))]).then(() => undefined));
      }
      await page.goto(base);
      // Long tasks are counted from the input's change event until 3 s after data-state=ready; the
      // page's own boot before that is not part of the load.
      await page.evaluate(watchLoadInPage);
      const prof = PROFILE ? await startProfile(page) : null;
      await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles([mainFile]);
      await page.waitForSelector('html[data-state=ready]', { timeout: 600_000 });
      // The page's own clock from load() to data-state=ready: Playwright's handing over of a
      // 100 MB file to the input (half a second here) is not the viewer's time.
      loads.push(await page.evaluate(() => window.__loupe.stats().loadMs));
      // From the input's change event (tasks that start after it) to ready, and on to 3 s after
      // ready (issue 25: the first render, the timeline and the row index write come then).
      const tasks = await page.evaluate(async () => {
        await new Promise((r) => setTimeout(r, 3000));
        const from = window.__pickAt ?? window.__loadStart;
        const after = window.__longtasks.filter(([start]) => start >= from);
        // When the font warm-up's last step ran (font-warmup.ts WARM_MARK), from the pick.
        const warm = performance.getEntriesByName('loupe:fonts-warm')[0];
        return { toReady: after.filter(([start]) => start <= window.__readyAt).map(([, d]) => d), after: after.filter(([start]) => start > window.__readyAt).map(([, d]) => d), warm: warm ? Math.round(warm.startTime - from) : null };
      });
      fontsWarm.push(tasks.warm);
      if (prof) {
        const watched = () => ({ tasks: window.__longtasks, origin: window.__pickAt ?? window.__loadStart });
        const ready = await page.evaluate(() => window.__readyAt - (window.__pickAt ?? window.__loadStart));
        console.log(`  --profile, load ${run + 1}: tasks over ${PROFILE_MS} ms (ms from the pick; ready at ${Math.round(ready)}), the functions sampled in them`);
        for (const p of await stopProfile(prof, page, watched)) console.log(`    at ${p.at} ms, ${p.ms} ms (${p.samples} samples)\n      self: ${p.self.join(' | ')}\n      incl: ${p.inclusive.join(' | ')}`);
      }
      longest = Math.max(longest, ...tasks.toReady, 0);
      longestAfter = Math.max(longestAfter, ...tasks.after, 0);
      perLoad.push([Math.round(Math.max(0, ...tasks.toReady)), Math.round(Math.max(0, ...tasks.after))]);
      // The parse floor of the same file in a fresh context, between this load and the next.
      baselines.push((await browserFloors(browser, base, [mainFile], ['parse'])).parseMs);
    }
    if (PROFILE) {
      // The build is unminified for the profile's names: the lines below would not be this app's.
      console.log(`longest main-thread task, pick → ready ${Math.round(longest)} ms, in the 3 s after ${Math.round(longestAfter)} ms (unminified build)`);
      await browser.close();
      return;
    }
    // Scrolling the chat of the open session (15,000+ atoms): step the list every frame for two
    // seconds and record frame times; a janky list shows long frames.
    const frames = await page.evaluate(async () => {
      const el = document.querySelector('main .chat-viewport');
      const deltas = [];
      let last = performance.now();
      const end = last + 2000;
      await new Promise((done) => {
        const step = (now) => {
          deltas.push(now - last);
          last = now;
          el.scrollBy(0, 120);
          if (now < end) requestAnimationFrame(step);
          else done();
        };
        requestAnimationFrame(step);
      });
      const sorted = deltas.slice(1).sort((a, b) => a - b);
      return { frames: sorted.length, p95: sorted[Math.floor(sorted.length * 0.95)], worst: sorted[sorted.length - 1], domNodes: el.querySelectorAll('*').length };
    });
    const search = await benchSearch(page, mainFile);
    const mem = searchMemory(mainFile);
    // Exports as a person makes them: Export → the dialog's scan → a format → Download, timed
    // from the click to the download, with the longest main-thread task in that window.
    const exp = {};
    await page.locator('[data-action="export"]').click();
    const dialog = page.locator('[data-dialog="share"]');
    await dialog.locator('[data-findings-count]').waitFor({ timeout: 600_000 });
    for (const format of ['markdown', 'html']) {
      // Evict the worker's redacted copy so each format pays for its own redaction.
      await page.evaluate(() => window.__loupe.exportText('markdown', { redact: false }).then(() => undefined));
      await dialog.locator(`input[name="export-format"][value="${format}"]`).check();
      const from = await page.evaluate(() => performance.now());
      const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), dialog.locator('[data-action="download"]').click()]);
      const to = await page.evaluate(() => performance.now());
      const long = await page.evaluate(([a, b]) => window.__longtasks.filter(([s, d]) => s + d >= a && s <= b).map(([, d]) => d), [from, to]);
      const { statSync } = await import('node:fs');
      exp[format] = { ms: to - from, mb: statSync(await download.path()).size / 1e6, longestTaskMs: Math.max(0, ...long) };
    }
    await dialog.locator('button.close').click();
    // Wait until the session is in the cache, then reload and reopen it from "Recent sessions".
    await page.waitForFunction(() => window.__loupe?.recentKeys?.().length > 0, null, { timeout: 600_000 });
    // …and its row index persisted by the worker (a reopen then shows it without parsing).
    await page.waitForFunction(() => !!window.__loupe?.indexWrite?.(), null, { timeout: 600_000 });
    const indexWrite = await page.evaluate(() => window.__loupe.indexWrite());
    // Usage (after caching, so its hashing is not counted): the worker's own clock for the
    // accounting, then the panel opened and drawn.
    const usageTiming = await page.evaluate(() => window.__loupe.usageTiming());
    // Opening the panel narrows the chat and the timeline, which redraw too; switching back from
    // the project tab to the session tab redraws the panel and its charts alone.
    const panel = await page.evaluate(timeUntilDrawn, ['[data-action=usage]', '[data-chart=context] path.main']);
    await page.evaluate(timeUntilDrawn, ['[data-usage-panel] [role=tab]:nth-child(2)', '[data-chart=sessions-by-cost]']);
    const charts = await page.evaluate(timeUntilDrawn, ['[data-usage-panel] [role=tab]:nth-child(1)', '[data-chart=context] path.main']);
    // Reload and reopen the session from "Recent sessions".
    const reopens = [];
    const restoredRuns = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto(base);
      const entry = page.locator('[data-recent-session] button.open').first();
      await entry.waitFor();
      await entry.click();
      await page.waitForSelector('html[data-state=ready]', { timeout: 600_000 });
      reopens.push(await page.evaluate(() => window.__loupe.stats().loadMs));
      restoredRuns.push(await page.evaluate(() => window.__loupe.restored()));
    }
    await page.goto(`${base}/bench/timeline`);
    await page.waitForSelector('[data-bench-done]', { timeout: 60_000 });
    const tl = JSON.parse(await page.locator('[data-bench-done]').getAttribute('data-bench-done'));
    const live = await benchLive(browser, base, sessionDir, sessionId);
    await browser.close();
    const projects = CASE === 'all' ? await projectsCase(base) : null;

    const load = median(loads);
    const baseline = median(baselines);
    const reopen = median(reopens);
    const result = {
      mb: MB,
      loadMs: load,
      baselineMs: Math.round(baseline),
      loadRatio: +(load / baseline).toFixed(2),
      longestTaskMs: Math.round(longest),
      longestTaskAfterReadyMs: Math.round(longestAfter),
      longestTaskPerLoadMs: perLoad,
      fontsWarmFromPickMs: fontsWarm,
      reopenMs: reopen,
      reopenRatio: +(reopen / load).toFixed(2),
      reopenRestored: restoredRuns.every(Boolean),
      indexWriteMs: Math.round(indexWrite.ms),
      indexWriteChunks: indexWrite.chunks,
      indexWriteLongestPutMs: +indexWrite.longestPutMs.toFixed(1),
      scrollFrameP95Ms: +frames.p95.toFixed(1),
      scrollWorstFrameMs: +frames.worst.toFixed(1),
      chatDomNodes: frames.domNodes,
      timeline5kLayoutMs: +tl.layoutMs.toFixed(1),
      timeline5kWarmLayoutMs: +tl.warmLayoutMs.toFixed(1),
      timeline5kDrawMs: +tl.drawMs.toFixed(1),
      usageComputeMs: Math.round(usageTiming.computeMs),
      usageRatio: +(usageTiming.computeMs / load).toFixed(3),
      usagePanelMs: Math.round(panel.ms),
      usagePanelLongestTaskMs: Math.round(panel.longest),
      usageChartsMs: Math.round(charts.ms),
      usageChartsLongestTaskMs: Math.round(charts.longest),
      searchBuildMs: Math.round(search.build.ms),
      searchBuildRatio: +(search.build.ms / load).toFixed(3),
      searchChars: search.build.chars,
      searchFields: search.build.fields,
      searchFirstP95Ms: +search.firstP95.toFixed(1),
      searchCompleteP95Ms: +search.completeP95.toFixed(1),
      searchFirstMedianMs: +search.firstMedian.toFixed(1),
      searchCompleteMedianMs: +search.completeMedian.toFixed(1),
      searchRareMs: +search.rare.complete.toFixed(1),
      searchRareFirstMs: +search.rare.first.toFixed(1),
      searchMemoryBytes: mem.addedBytes,
      searchMemoryRatio: +(mem.addedBytes / mem.chars).toFixed(2),
      exportMarkdownMs: Math.round(exp.markdown.ms),
      exportHtmlMs: Math.round(exp.html.ms),
      exportHtmlMb: +exp.html.mb.toFixed(1),
      exportLongestTaskMs: Math.round(Math.max(exp.markdown.longestTaskMs, exp.html.longestTaskMs)),
      ...liveFields(live),
      runs: RUNS,
      ...(projects ?? {})
    };
    console.log(`\n${MB} MB session, median of ${RUNS} runs, Chromium`);
    console.log(`  parse floor (fresh context: one worker, text + split + JSON.parse, between the loads) ${result.baselineMs} ms`);
    console.log(`  load until data-state=ready         ${load} ms   ratio ${result.loadRatio}× (target ≤ 3)   ${verdict(result.loadRatio <= 3)}`);
    VERDICTS.add('100 MB load / parse floor', `${result.loadRatio}× (${load} / ${result.baselineMs} ms)`, '≤ 3×', result.loadRatio <= 3);
    VERDICTS.add('100 MB load: longest task pick → ready', `${result.longestTaskMs} ms`, '≤ 100 ms', result.longestTaskMs <= 100);
    VERDICTS.add('reopen from cache / load', `${result.reopenRatio}×`, '≤ 0.5×', result.reopenRatio <= 0.5);
    console.log(`  longest main-thread task            ${result.longestTaskMs} ms (target ≤ 100)   ${verdict(result.longestTaskMs <= 100)}; in the 3 s after ready ${result.longestTaskAfterReadyMs} ms (per load, before / after ready: ${result.longestTaskPerLoadMs.map(([a, b]) => `${a} / ${b}`).join(', ')}); pick → ready + 3 s ${Math.max(result.longestTaskMs, result.longestTaskAfterReadyMs)} ms (issue 25: ≤ 50)   ${verdict(Math.max(result.longestTaskMs, result.longestTaskAfterReadyMs) <= 50)}`);
    console.log(`  … font warm-up done, ms from the pick, each load: ${result.fontsWarmFromPickMs.map((w) => (w === null ? 'not by ready + 3 s' : w)).join(', ')} (informational: what is not done by then, the first chat frame resolves)`);
    console.log(`  chat scroll, 2 s at 120 px/frame     p95 frame ${result.scrollFrameP95Ms} ms, worst ${result.scrollWorstFrameMs} ms, ${result.chatDomNodes} chat DOM nodes (< 2,000)   ${verdict(result.chatDomNodes < 2000)}`);
    console.log(`  reopen from cache after reload      ${reopen} ms   ratio ${result.reopenRatio}× of load (target ≤ 0.5, from the persisted row index: ${result.reopenRestored ? 'yes' : 'NO'})   ${verdict(result.reopenRatio <= 0.5)}`);
    console.log(`  row index persisted (worker)        ${result.indexWriteMs} ms in ${result.indexWriteChunks} chunks, longest put ${result.indexWriteLongestPutMs} ms (worker; the page never holds the rows)`);
    console.log(`  timeline, 5,000 segments, cold      layout ${result.timeline5kLayoutMs} ms + draw ${result.timeline5kDrawMs} ms (target < 100)   ${verdict(result.timeline5kLayoutMs + result.timeline5kDrawMs < 100)}`);
    console.log(`  timeline, 5,000 segments, warm      layout ${result.timeline5kWarmLayoutMs} ms + draw ${result.timeline5kDrawMs} ms (target < 100)   ${verdict(result.timeline5kWarmLayoutMs + result.timeline5kDrawMs < 100)}`);
    console.log(`  usage: accounting + chart data      ${result.usageComputeMs} ms in the worker = ${(100 * result.usageRatio).toFixed(1)} % of load (target ≤ 10 %)   ${verdict(result.usageRatio <= 0.1)}`);
    console.log(`  usage panel opened (chat reflows)   ${result.usagePanelMs} ms, longest main-thread task ${result.usagePanelLongestTaskMs} ms (informational)`);
    console.log(`  usage charts drawn (session tab)    ${result.usageChartsMs} ms click → drawn, longest main-thread task ${result.usageChartsLongestTaskMs} ms (target ≤ 50; ${usageTiming.contextPoints} context points)   ${verdict(result.usageChartsLongestTaskMs <= 50)}`);
    console.log(`  search text build (on field focus)  ${result.searchBuildMs} ms for ${result.searchFields} fields, ${(result.searchChars / 1e6).toFixed(1)} M chars = ${(result.searchBuildRatio * 100).toFixed(1)} % of load (target ≤ 10 %)   ${verdict(result.searchBuildRatio <= 0.1)}`);
    console.log(`  search, 20 common 1–3 word queries  first hit p95 ${result.searchFirstP95Ms} ms (target ≤ 50)   ${verdict(result.searchFirstP95Ms <= 50)}; complete count p95 ${result.searchCompleteP95Ms} ms (target ≤ 200)   ${verdict(result.searchCompleteP95Ms <= 200)}; medians ${result.searchFirstMedianMs} / ${result.searchCompleteMedianMs} ms`);
    console.log(`  search, a one-hit string            ${result.searchRareMs} ms to the complete count (target ≤ 50)   ${verdict(result.searchRareMs <= 50)}`);
    console.log(`  search memory (Node heap, one run)  ${(mem.addedBytes / 1e6).toFixed(1)} MB for ${(mem.chars / 1e6).toFixed(1)} M chars of text = ${result.searchMemoryRatio}× (target ≤ 0.5), ${(mem.addedBytes / mem.fileBytes).toFixed(2)}× the file   ${verdict(result.searchMemoryRatio <= 0.5)}`);
    console.log(`  export Markdown, redacted (worker)    ${result.exportMarkdownMs} ms (target ≤ 2000)   ${verdict(result.exportMarkdownMs <= 2000)}`);
    console.log(`  export one-file HTML, redacted       ${result.exportHtmlMs} ms, ${result.exportHtmlMb} MB (target ≤ 4000)   ${verdict(result.exportHtmlMs <= 4000)}`);
    console.log(`  longest main-thread task, exports    ${result.exportLongestTaskMs} ms (target ≤ 100)   ${verdict(result.exportLongestTaskMs <= 100)}`);
    printLive(live);
    if (projects) printProjects(projects);
    finish(result);
  } finally {
    try { process.kill(-server.pid); } catch { /* already gone */ }
  }
}

/**
 * The timeline page alone, once per run, each in a fresh context. As in the session case, the app
 * has booted first (its service worker installed: precaching the build on a fresh context's first
 * visit takes a core for a while, which is not the timeline's time); then the bench page is a
 * fresh document, so the layout code still runs cold.
 */
async function timelineCase(browser, base) {
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base);
    await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((r) => setTimeout(r, 30_000))]).then(() => undefined));
    await page.goto(`${base}/bench/timeline`);
    await page.waitForSelector('[data-bench-done]', { timeout: 60_000 });
    runs.push(JSON.parse(await page.locator('[data-bench-done]').getAttribute('data-bench-done')));
    await context.close();
  }
  const med = (key) => +median(runs.map((r) => r[key])).toFixed(1);
  return {
    timeline5kLayoutMs: med('layoutMs'),
    timeline5kWarmLayoutMs: med('warmLayoutMs'),
    timeline5kDrawMs: med('drawMs'),
    timeline5kColdTotalMs: med('totalMs'),
    timelineRuns: runs.map((r) => [+r.layoutMs.toFixed(1), +r.drawMs.toFixed(1)]),
    runs: RUNS
  };
}

function printTimeline(r) {
  console.log(`\ntimeline page, median of ${r.runs} fresh pages, Chromium`);
  console.log(`  timeline, 5,000 segments, cold      layout ${r.timeline5kLayoutMs} ms + draw ${r.timeline5kDrawMs} ms; cold total ${r.timeline5kColdTotalMs} ms (target < 100)   ${verdict(r.timeline5kColdTotalMs < 100)}`);
  console.log(`  timeline, 5,000 segments, warm      layout ${r.timeline5kWarmLayoutMs} ms + draw ${r.timeline5kDrawMs} ms (target < 100)   ${verdict(r.timeline5kWarmLayoutMs + r.timeline5kDrawMs < 100)}`);
  console.log(`  per run [cold layout, draw] ms      ${r.timelineRuns.map(([l, d]) => `[${l}, ${d}]`).join(' ')}`);
}

/** Runs in the page: clicks `click`, waits until `drawn` exists and a frame has painted; the wall
 *  time and the longest main-thread task meanwhile (0 when none passed 50 ms). */
async function timeUntilDrawn([click, drawn]) {
  const tasks = [];
  const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) tasks.push(e.duration); });
  obs.observe({ type: 'longtask' });
  const t0 = performance.now();
  document.querySelector(click).click();
  await new Promise((r) => { const check = () => (document.querySelector(drawn) ? r() : requestAnimationFrame(check)); check(); });
  await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 100));
  obs.disconnect();
  return { ms, longest: Math.max(0, ...tasks) };
}

/** The heap the search text adds, per character of text (bytes / char: ≥ 1 byte each as text). */
function searchMemory(mainFile) {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'scripts/bench-search-memory.ts', mainFile], { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`search memory bench failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const SEARCH_QUERIES = [
  'parse', 'thread', 'cache', 'fixture', 'worker', 'the parser', 'chunk', 'naïve', 'tree reads', 'keyed',
  'truncated', 'line', 'index', 'builds stays', 'hash line', 'group', 'transcript', 'the raw has', 'fails', 'stays thread naïve'
];

/** Search on the open session through the real field: time to the first hit drawn and to the complete count. */
async function benchSearch(page, mainFile) {
  const build = await page.evaluate(() => window.__loupe.prepareSearch('session'));
  const timeQuery = (q) =>
    page.evaluate(async (q) => {
      const input = document.querySelector('input[type=search]');
      const type = (v) => {
        input.value = v;
        input.dispatchEvent(new Event('input', { bubbles: true }));
      };
      type('');
      await new Promise((r) => requestAnimationFrame(() => r()));
      const done = () => {
        const c = document.querySelector('[data-search-count]')?.textContent ?? '';
        return /^\s*[\d,]+ results?/.test(c) && !c.includes('searching') ? Number(c.replace(/,/g, '').match(/\d+/)[0]) : null;
      };
      return new Promise((resolve) => {
        let first = null;
        const t0 = performance.now();
        const check = () => {
          const now = performance.now() - t0;
          if (first === null && document.querySelector('[data-search-hit]')) first = now;
          const total = done();
          if (total !== null) {
            obs.disconnect();
            resolve({ first: first ?? now, complete: now, total });
          }
        };
        const obs = new MutationObserver(check);
        obs.observe(document.querySelector('.app'), { childList: true, subtree: true, characterData: true });
        type(q);
      });
    }, q);
  await page.locator('input[type=search]').focus();
  const runs = [];
  for (const q of SEARCH_QUERIES) runs.push(await timeQuery(q));
  const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
  // A one-hit string: a slice of a prompt that the engine finds exactly once.
  const prompts = [];
  for (const line of readFileSync(mainFile, 'utf8').split('\n')) {
    if (!line.includes('"promptSource"')) continue;
    try {
      const c = JSON.parse(line).message?.content;
      if (typeof c === 'string' && c.length > 80) prompts.push(c);
    } catch { /* not a line to use */ }
    if (prompts.length > 400) break;
  }
  let rare = null;
  for (const p of prompts.slice(Math.floor(prompts.length / 2))) {
    const q = p.slice(20, 70).trim();
    const r = await page.evaluate((q) => window.__loupe.search(q), q);
    if (r.total === 1) {
      rare = await timeQuery(q);
      break;
    }
  }
  await page.evaluate(() => {
    const input = document.querySelector('input[type=search]');
    input.value = '';
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  return {
    build,
    firstP95: p95(runs.map((r) => r.first)),
    firstMedian: median(runs.map((r) => r.first)),
    completeMedian: median(runs.map((r) => r.complete)),
    completeP95: p95(runs.map((r) => r.complete)),
    totals: runs.map((r) => r.total),
    rare: rare ?? { first: NaN, complete: NaN, total: 0 }
  };
}

const liveFields = (live) => ({
  liveFollowMs: live.followMs,
  liveAppendToRowMs: live.appendToRowMs,
  livePollToRowMs: live.pollToRowMs,
  liveWorstFrameMs: live.worstFrameMs,
  liveLongTasks: live.longTasks
});

function printLive(live) {
  console.log(`  live: follow the folder (first read)  ${live.followMs} ms`);
  console.log(`  live: 1 KB append → row on screen    median ${live.appendToRowMs} ms (from the poll that saw it: ${live.pollToRowMs} ms) over ${live.appends} appends (target ≤ 100)   ${verdict(live.appendToRowMs <= 100)}`);
  console.log(`  live: main thread per update         worst frame gap ${live.worstFrameMs} ms, ${live.longTasks} long tasks (target < 16 ms of work: gap ≤ 33 ms)   ${verdict(live.worstFrameMs <= 33 && live.longTasks === 0)}`);
}

/** Follows a copy of the session folder in OPFS (the picker stubbed, as the e2e tests do) and
 *  times 1 KB appends to the main transcript until their row is on screen. */
async function benchLive(browser, base, dir, sessionId, appends = 5) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.showDirectoryPicker = async () => (await navigator.storage.getDirectory()).getDirectoryHandle('bench-live', { create: true });
  });
  await page.goto(base);
  // Copy the folder into OPFS through a file input of our own (not the app's).
  await page.evaluate(() => {
    const i = document.createElement('input');
    i.type = 'file';
    i.webkitdirectory = true;
    i.id = 'bench-src';
    i.style.display = 'none';
    document.body.append(i);
  });
  await page.locator('#bench-src').setInputFiles(dir);
  await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    await root.removeEntry('bench-live', { recursive: true }).catch(() => undefined);
    const top = await root.getDirectoryHandle('bench-live', { create: true });
    for (const f of document.querySelector('#bench-src').files) {
      if (!/\.jsonl?$/.test(f.name) || f.name === 'generated.json') continue;
      const parts = f.webkitRelativePath.split('/').slice(1);
      let d = top;
      for (const p of parts.slice(0, -1)) d = await d.getDirectoryHandle(p, { create: true });
      const w = await (await d.getFileHandle(parts.at(-1), { create: true })).createWritable();
      await w.write(f);
      await w.close();
    }
  });
  const t0 = Date.now();
  await page.locator('[data-action="follow"]').click();
  await page.waitForSelector('html[data-state=ready][data-live=on]', { timeout: 600_000 });
  await page.waitForFunction(() => window.__loupe.live.stats().updates >= 1, null, { timeout: 600_000 });
  const followMs = Date.now() - t0;
  const mainName = `${sessionId}.jsonl`;
  const toRow = [];
  const fromPoll = [];
  let worstFrameMs = 0;
  let longTasks = 0;
  for (let i = 0; i < appends; i++) {
    const r = await page.evaluate(async ([name, sid, n]) => {
      const d = await (await navigator.storage.getDirectory()).getDirectoryHandle('bench-live');
      const fh = await d.getFileHandle(name);
      const file = await fh.getFile();
      // The last uuid of the file: the new line continues the conversation.
      const tail = await file.slice(Math.max(0, file.size - 65536)).text();
      const parent = [...tail.matchAll(/"uuid":"([^"]+)"/g)].at(-1)?.[1] ?? null;
      const uuid = `bench-live-${n}-${Date.now()}`;
      const text = 'Live benchmark reply. '.repeat(40).slice(0, 800);
      const line = JSON.stringify({ type: 'assistant', uuid, parentUuid: parent, sessionId: sid, timestamp: new Date().toISOString(), message: { id: `msg-${uuid}`, role: 'assistant', model: 'claude-bench', stop_reason: null, content: [{ type: 'text', text }] } }) + '\n';
      // Copy-on-write: the browser copies the file for the writable; the clock starts once it is
      // committed, and only the page's work from then on (Loupe's update) is watched.
      const w = await fh.createWritable({ keepExistingData: true });
      await w.seek(file.size);
      await w.write(line);
      let tasks = 0;
      let worst = 0;
      let frames = true;
      await w.close();
      const written = performance.now();
      const lt = new PerformanceObserver((l) => (tasks += l.getEntries().filter((e) => e.startTime + e.duration >= written).length));
      lt.observe({ type: 'longtask' });
      let last = written;
      const frame = (now) => { worst = Math.max(worst, now - last); last = now; if (frames) requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
      const shown = await new Promise((done) => {
        const seen = () => document.querySelector(`[data-atom-uuid="${uuid}"]`);
        if (seen()) return done(performance.now());
        const mo = new MutationObserver(() => { if (seen()) { mo.disconnect(); done(performance.now()); } });
        mo.observe(document.body, { childList: true, subtree: true });
      });
      await new Promise((r) => setTimeout(r, 300));
      frames = false;
      lt.disconnect();
      const pollAt = window.__loupe.live.stats().lastPollAt;
      return { toRow: shown - written, fromPoll: shown - Math.max(pollAt, written), worst, tasks, bytes: line.length };
    }, [mainName, sessionId, i]);
    toRow.push(r.toRow);
    fromPoll.push(r.fromPoll);
    worstFrameMs = Math.max(worstFrameMs, r.worst);
    longTasks += r.tasks;
  }
  await context.close();
  return {
    followMs,
    appends,
    appendToRowMs: Math.round(median(toRow)),
    pollToRowMs: Math.round(median(fromPoll)),
    worstFrameMs: Math.round(worstFrameMs),
    longTasks
  };
}

main().catch((e) => { console.error(e); process.exit(1); });
