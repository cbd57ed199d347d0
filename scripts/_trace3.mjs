import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);
// Trace N loads of the 100 MB session; print main-thread tasks > 40ms after ready with breakdown + thread CPU.
import { chromium } from '@playwright/test';
import { writeFileSync } from 'node:fs';
const base = process.env.BASE ?? 'http://localhost:4190';
const file = '/work/main/.bench-cache/session-100mb-seed1/00040408-9dcc-4255-aef9-2c6f25b219f9.jsonl';
const N = Number(process.env.N ?? 4);
const cats = ['devtools.timeline','disabled-by-default-devtools.timeline','toplevel','blink','fonts','cc','viz','gpu','mojom','ipc','disabled-by-default-v8.gc','v8','sequence_manager','loading','benchmark'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--headless','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync', ...(process.env.EXTRA ? process.env.EXTRA.split(' ') : [])] });
for (let i = 0; i < N; i++) {
  const ctx = await browser.newContext(); const page = await ctx.newPage();
  await page.goto(base);
  await page.evaluate(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
    new MutationObserver(() => { if (document.documentElement.dataset.state === 'ready') window.__readyAt ??= performance.now(); }).observe(document.documentElement, { attributes: true }); });
  if (process.env.WARM) { await page.evaluate(`(${require('fs').readFileSync('/tmp/diag/warm.js','utf8')})()`); await page.waitForTimeout(500); }
  await browser.startTracing(page, { categories: cats });
  await page.locator('input[type=file]:not([webkitdirectory])').setInputFiles([file]);
  await page.waitForSelector('html[data-state=ready]', { timeout: 600000 });
  await page.waitForTimeout(3000);
  const buf = await browser.stopTracing();
  const lt = await page.evaluate(() => ({ lt: window.__lt.filter(([s]) => s > window.__readyAt).map(([s, d]) => [Math.round(s - window.__readyAt), Math.round(d)]) }));
  writeFileSync(`/tmp/diag/warm-${i}.json`, buf);
  console.log(`load ${i}: long tasks after ready`, JSON.stringify(lt.lt));
  await ctx.close();
}
await browser.close();
