// `npm run bench:browser -- --case remote`: the generated projects tree opened by address from
// Debian's nginx on loopback (tests/servers/nginx.mjs, JSON autoindex, Range as nginx serves it),
// against the same tree dropped as a local folder. Bytes are nginx's own count (its access log's
// $bytes_sent: headers and bodies as sent) of the requests finished by then.
// Targets: the list plus the newest session ready after ≤ 5 % of the tree's bytes, in ≤ 1.5× the
// local drop's time (both the Viewer's loadMs: load() to ready); the history index over it in
// ≤ 2× the local drop's; a second visit (the scans kept from the first) ≤ 1 % of the bytes.
// Smaller trees to develop against: --projects-mb / --projects-sessions, as for --case projects.
import { chromium } from '@playwright/test';
import { dirname } from 'node:path';
import { startNginx } from '../../tests/servers/nginx.mjs';

const CHROMIUM_ARGS = ['--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The history index's time from the load's start, polled in the page. */
async function historyMs() {
  for (;;) {
    const status = await window.__loupe.history();
    if (status.ready) return Math.round(performance.now() - window.__remoteBenchStart);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until nginx's access log stops growing (the requests of a page just left finish). */
async function settled(nginx) {
  for (let n = -1; n !== nginx.log().length; ) {
    n = nginx.log().length;
    await new Promise((r) => setTimeout(r, 500));
  }
  return nginx.log().length;
}

const sent = (lines) => lines.reduce((n, l) => n + l.bytes, 0);

/**
 * @param {string} base the app's URL
 * @param {{ tree: string, totals: { bytes: number, sessions: number } }} projects generateProjects()
 * @param {{ dropFolder: Function, waitReady: Function, watchLoadInPage: Function }} steps the projects case's own steps
 */
export async function remoteCase(base, projects, { dropFolder, waitReady, watchLoadInPage }) {
  const nginx = await startNginx(dirname(projects.tree));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const src = `${nginx.origin}/json/projects/`;
  try {
    // The local drop, for the ratios.
    let context = await browser.newContext();
    let page = await context.newPage();
    await page.goto(base);
    await page.evaluate(watchLoadInPage);
    await page.evaluate(() => (window.__remoteBenchStart = performance.now()));
    await dropFolder(page, projects.tree);
    await waitReady(page);
    const local = { readyMs: await page.evaluate(() => window.__loupe.stats().loadMs), sessions: (await page.evaluate(() => window.__loupe.stats())).sessions };
    local.historyMs = await page.evaluate(historyMs);
    await context.close();

    // The first visit: "Open a URL" on the start page.
    context = await browser.newContext();
    page = await context.newPage();
    await page.goto(base);
    await page.waitForFunction(() => !!window.__loupe);
    const from = await settled(nginx);
    await page.evaluate(() => (window.__remoteBenchStart = performance.now()));
    await page.getByLabel('Open a URL').fill(src);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await waitReady(page);
    const atReady = nginx.log().slice(from);
    const first = {
      readyMs: await page.evaluate(() => window.__loupe.stats().loadMs),
      sessions: (await page.evaluate(() => window.__loupe.stats())).sessions,
      bytes: sent(atReady),
      requests: atReady.length,
      ranges: atReady.filter((l) => l.status === 206).length,
      worker: await page.evaluate(() => window.__loupe.remoteStats())
    };
    first.historyMs = await page.evaluate(historyMs);
    first.historyBytes = sent(nginx.log().slice(from));
    await page.waitForFunction(() => window.__loupe.scansKept() > 0, null, { timeout: 300_000 });

    // The second visit, in the same context (its scan index and HTTP cache): the address again.
    await page.goto('about:blank');
    const again = await settled(nginx);
    await page.goto(`${base}/?src=${encodeURIComponent(src)}`);
    await waitReady(page);
    const second = nginx.log().slice(again);
    const out = {
      treeBytes: projects.totals.bytes,
      treeSessions: projects.totals.sessions,
      local,
      first,
      second: { readyMs: await page.evaluate(() => window.__loupe.stats().loadMs), bytes: sent(second), requests: second.length, ranges: second.filter((l) => l.status === 206).length },
      firstShare: +(first.bytes / projects.totals.bytes).toFixed(4),
      readyRatio: +(first.readyMs / local.readyMs).toFixed(2),
      historyRatio: +(first.historyMs / local.historyMs).toFixed(2),
      secondShare: 0
    };
    out.secondShare = +(out.second.bytes / projects.totals.bytes).toFixed(4);
    await context.close();
    return out;
  } finally {
    await browser.close();
    await nginx.stop();
  }
}

export function printRemote(r, verdict) {
  const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
  console.log(`\nremote tree over nginx (loopback): ${mb(r.treeBytes)}, ${r.treeSessions} sessions generated; listed ${r.first.sessions} (local drop: ${r.local.sessions})`);
  console.log(`  list + newest ready: ${mb(r.first.bytes)} sent by nginx in ${r.first.requests} requests (${r.first.ranges} ranges) = ${(r.firstShare * 100).toFixed(2)} % of the tree (target ≤ 5 %) ${verdict(r.firstShare <= 0.05)}`);
  console.log(`  ready in ${r.first.readyMs} ms against the local drop's ${r.local.readyMs} ms: ${r.readyRatio}× (target ≤ 1.5×) ${verdict(r.readyRatio <= 1.5)}`);
  console.log(`  history index ready in ${r.first.historyMs} ms against the local drop's ${r.local.historyMs} ms: ${r.historyRatio}× (target ≤ 2×) ${verdict(r.historyRatio <= 2)}; ${mb(r.first.historyBytes)} sent by then`);
  console.log(`  second visit: ${mb(r.second.bytes)} in ${r.second.requests} requests (${r.second.ranges} ranges) = ${(r.secondShare * 100).toFixed(2)} % (target ≤ 1 %) ${verdict(r.secondShare <= 0.01)}, ready in ${r.second.readyMs} ms`);
}
