// `npm run bench:browser -- --case boot` (issue 25): the cold start as a phone sees it. For
// `?sample` and for a `#z=` link (the sample's own, made once through Copy link), at 1× and 4×
// CPU throttling (CDP Emulation.setCPUThrottlingRate), from a cold cache (a fresh context) and
// from the service worker (the same context after a first visit installed it): navigation →
// the first chat row on screen, the longest main-thread task before it, and the JavaScript the
// page had loaded by then (main thread; the workers' scripts apart), decoded bytes.
// Targets: ?sample first row ≤ 1,000 ms at 4× cold; longest boot task ≤ 100 ms at 4× (aim 50);
// JS before the first row ≤ 250 KB.
// Each boot runs in a bare CDP session (barePage) that leaves the Runtime domain off, as a browser
// without DevTools: `--inspector` measures in a Playwright page instead (see barePage).
// The floor, measured the same way in the same run: a navigation to a page of one static row and
// no script. Its one long task is the browser's own (committing the navigation, making the
// window's JS context); no page boots faster than it on this machine.

/** In the page, before any script: long tasks and the moment the first chat row appears. */
function watchBoot() {
  const w = window;
  let shown;
  w.__boot = { tasks: [], firstRow: 0, shown: new Promise((r) => (shown = r)) };
  new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__boot.tasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  const mo = new MutationObserver(() => {
    if (!w.__boot.firstRow && document.querySelector('main [data-row-kind]')) {
      w.__boot.firstRow = performance.now();
      mo.disconnect();
      shown();
    }
  });
  mo.observe(document, { childList: true, subtree: true });
}

/** In the page, once the row is there: what was measured, with the scripts loaded by then. */
function collect() {
  const b = window.__boot;
  const js = performance.getEntriesByType('resource').filter((r) => /\.m?js(\?|$)/.test(r.name) && r.responseEnd <= b.firstRow);
  const bytes = (rs) => rs.reduce((n, r) => n + (r.decodedBodySize || r.encodedBodySize || 0), 0);
  const main = js.filter((r) => !r.name.includes('/workers/'));
  const before = b.tasks.filter(([s]) => s <= b.firstRow);
  return {
    firstRowMs: b.firstRow,
    // The three longest tasks before the row, [start, duration] in ms, to say which one it is.
    topTasks: [...before].sort((x, y) => y[1] - x[1]).slice(0, 3).map(([s, d]) => [Math.round(s), Math.round(d)]),
    longestTaskMs: Math.max(0, ...before.map(([, d]) => d)),
    jsKb: bytes(main) / 1024,
    workerJsKb: bytes(js.filter((r) => r.name.includes('/workers/'))) / 1024,
    scripts: main.length
  };
}

async function shareLinkOfSample(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/?sample`);
  await page.waitForSelector('html[data-state=ready]');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.locator('[data-dialog="share"] [data-action="copy-link"]:not([disabled])').click();
  const link = await page.locator('input.link').inputValue();
  await context.close();
  return link.replace(/^https?:\/\/[^/]+/, '');
}

/** A page of one row and no script, served by the harness (Playwright's route) at the app's origin. */
const FLOOR_PATH = '/__boot-floor';
const INSPECTOR = process.argv.includes('--inspector');
const FLOOR_HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><main><div data-row-kind="prompt">floor</div></main></body></html>';

/** A page in its own browser context, driven over a bare CDP session (Target.sendMessageToTarget)
 *  that never enables the Runtime domain. Playwright's pages enable it, and with it the inspector
 *  has V8 record a detailed stack trace for every Error created: SvelteKit's and Svelte's boot
 *  code create three while the boot chunk's top level runs (a sessionStorage read that throws on
 *  a fresh visit, an abort reason made in advance), and each such trace made V8 parse the whole
 *  chunk again for its source positions, 60–100 ms of main thread at 4× that no visitor without
 *  DevTools pays (a trace shows V8.CollectSourcePositions → V8.ParseProgram in the evaluation;
 *  with the three errors patched out the boot ran ~100 ms faster under Playwright and no faster
 *  in such a bare session). `--inspector` measures the Playwright way instead. */
async function barePage(bcdp, browserContextId) {
  const { targetId } = await bcdp.send('Target.createTarget', { url: 'about:blank', browserContextId });
  const { sessionId } = await bcdp.send('Target.attachToTarget', { targetId, flatten: false });
  let next = 0;
  const pending = new Map();
  const handlers = new Map();
  const onMessage = (e) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message);
    if (m.id === undefined) return void handlers.get(m.method)?.(m.params);
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p.reject(new Error(`${m.error.message} (${p.method})`));
    else p.resolve(m.result);
  };
  bcdp.on('Target.receivedMessageFromTarget', onMessage);
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject, method });
      bcdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  const evaluate = async (expression) => {
    const r = await call('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  /** Navigates and resolves once the new document has loaded. */
  const goto = async (url) => {
    const loaded = new Promise((r) => handlers.set('Page.loadEventFired', r));
    await call('Page.navigate', { url });
    await loaded;
  };
  await call('Page.enable');
  const close = async () => {
    bcdp.off('Target.receivedMessageFromTarget', onMessage);
    await bcdp.send('Target.closeTarget', { targetId }).catch(() => undefined);
  };
  return { call, evaluate, goto, on: (method, f) => handlers.set(method, f), close };
}

async function once(browser, base, path, rate, fromSw) {
  if (INSPECTOR) return onceInspected(browser, base, path, rate, fromSw);
  const bcdp = await browser.newBrowserCDPSession();
  const { browserContextId } = await bcdp.send('Target.createBrowserContext');
  try {
    if (fromSw) {
      // A first visit installs the service worker and precaches the build; the measured
      // navigation is then served by it.
      const first = await barePage(bcdp, browserContextId);
      await first.goto(base);
      await first.evaluate('navigator.serviceWorker.ready.then(() => true)');
      await first.close();
    }
    const page = await barePage(bcdp, browserContextId);
    if (path === FLOOR_PATH) {
      page.on('Fetch.requestPaused', (e) => void page.call('Fetch.fulfillRequest', { requestId: e.requestId, responseCode: 200, responseHeaders: [{ name: 'content-type', value: 'text/html' }], body: Buffer.from(FLOOR_HTML).toString('base64') }));
      await page.call('Fetch.enable', { patterns: [{ urlPattern: `*${FLOOR_PATH}` }] });
    }
    await page.call('Emulation.setCPUThrottlingRate', { rate });
    await page.call('Page.addScriptToEvaluateOnNewDocument', { source: `(${watchBoot})()` });
    await page.goto(base + path);
    await page.evaluate('window.__boot.shown.then(() => true)');
    const r = await page.evaluate(`(${collect})()`);
    if (fromSw) r.controlled = await page.evaluate('!!navigator.serviceWorker.controller');
    await page.close();
    return r;
  } finally {
    await bcdp.send('Target.disposeBrowserContext', { browserContextId }).catch(() => undefined);
    await bcdp.detach().catch(() => undefined);
  }
}

/** The boot measured in a Playwright page (Runtime domain enabled, as with DevTools open). */
async function onceInspected(browser, base, path, rate, fromSw) {
  const context = await browser.newContext();
  if (path === FLOOR_PATH) await context.route(base + FLOOR_PATH, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: FLOOR_HTML }));
  if (fromSw) {
    const first = await context.newPage();
    await first.goto(base);
    await first.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await first.close();
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  await page.addInitScript(watchBoot);
  await page.goto(base + path);
  // Waited on over bare CDP: Playwright's own waitForFunction first injects its utility script
  // into the page, a 45–50 ms task at 4× that is the harness's, not the app's.
  await cdp.send('Runtime.evaluate', { expression: 'window.__boot.shown', awaitPromise: true });
  const r = await page.evaluate(collect);
  if (fromSw) r.controlled = await page.evaluate(() => !!navigator.serviceWorker.controller);
  await context.close();
  return r;
}

/** One line of the report: medians of the runs, the worst task, each run's first row and top tasks. */
function summarize(rs, median) {
  return {
    firstRowMs: Math.round(median(rs.map((r) => r.firstRowMs))),
    longestTaskMs: Math.round(median(rs.map((r) => r.longestTaskMs))),
    worstTaskMs: Math.round(Math.max(...rs.map((r) => r.longestTaskMs))),
    jsKb: Math.round(median(rs.map((r) => r.jsKb))),
    workerJsKb: Math.round(median(rs.map((r) => r.workerJsKb))),
    firstRowAllMs: rs.map((r) => Math.round(r.firstRowMs)),
    topTasks: rs.map((r) => r.topTasks)
  };
}

export async function bootCase(browser, base, runs, median) {
  const zLink = await shareLinkOfSample(browser, base);
  const out = {};
  for (const [target, path] of [['sample', '/?sample'], ['zlink', zLink]]) {
    for (const rate of [1, 4]) {
      for (const cache of ['cold', 'sw']) {
        const rs = [];
        for (let i = 0; i < runs; i++) rs.push(await once(browser, base, path, rate, cache === 'sw'));
        if (cache === 'sw' && rs.some((r) => !r.controlled)) throw new Error('the service worker did not serve the page');
        out[`${target}_${rate}x_${cache}`] = summarize(rs, median);
      }
    }
  }
  for (const rate of [1, 4]) {
    const rs = [];
    for (let i = 0; i < runs; i++) rs.push(await once(browser, base, FLOOR_PATH, rate, false));
    out[`floor_${rate}x_cold`] = summarize(rs, median);
  }
  return { boot: out, runs, session: INSPECTOR ? 'playwright-page' : 'bare-cdp' };
}

export function printBoot(r, verdict) {
  console.log(`\nboot, median of ${r.runs} fresh contexts per line, Chromium (navigation → first chat row; ${r.session === 'bare-cdp' ? 'bare CDP session, no Runtime domain' : 'Playwright page, Runtime domain on'})`);
  for (const [k, v] of Object.entries(r.boot)) {
    const [target, rate, cache] = k.split('_');
    if (target === 'floor') continue;
    const row = `  ${target.padEnd(6)} ${rate} ${cache.padEnd(4)}  first row ${String(v.firstRowMs).padStart(5)} ms (${v.firstRowAllMs.join(', ')})  longest task ${String(v.longestTaskMs).padStart(4)} ms (worst ${v.worstTaskMs})  JS ${v.jsKb} KB (+ workers ${v.workerJsKb} KB)`;
    const checks = [];
    if (target === 'sample' && rate === '4x' && cache === 'cold') checks.push(v.firstRowMs <= 1000);
    if (rate === '4x') checks.push(v.longestTaskMs <= 100);
    checks.push(v.jsKb <= 250);
    console.log(`${row}   ${verdict(checks.every(Boolean))}`);
  }
  for (const rate of ['1x', '4x']) {
    const f = r.boot[`floor_${rate}_cold`];
    const app = r.boot[`sample_${rate}_cold`];
    if (!f) continue;
    const ratio = f.longestTaskMs > 0 ? ` (?sample cold's: ${(app.longestTaskMs / f.longestTaskMs).toFixed(2)}× the floor's)` : '';
    console.log(`  floor  ${rate} cold  first row ${String(f.firstRowMs).padStart(5)} ms (${f.firstRowAllMs.join(', ')})  longest task ${String(f.longestTaskMs).padStart(4)} ms (worst ${f.worstTaskMs})${ratio}   a page of one row, no script`);
  }
  console.log('  targets: ?sample 4× cold ≤ 1,000 ms; longest task at 4× ≤ 100 ms (aim 50); JS before the first row ≤ 250 KB');
}
