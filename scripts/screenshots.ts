// `npm run screenshots`: the README's pictures, taken from the built app the way the end-to-end
// tests see it (same Chromium, same launch options). Builds, serves with `vite preview`, opens
// `?sample` and writes docs/screenshot.png (chat and timeline) and docs/screenshot-usage.png.
// `--no-build` reuses build/; `SHOT_PORT` moves the server off 4183.
import { spawn, spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import config from '../playwright.config.ts';

const PORT = process.env.SHOT_PORT ?? '4183';
const base = `http://localhost:${PORT}`;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const server = spawn('npx', ['vite', 'preview', '--port', PORT, '--strictPort'], { stdio: 'ignore', detached: true });
const stop = () => { try { process.kill(-server.pid!); } catch { /* already gone */ } };

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try { if ((await fetch(base)).ok) return; } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`vite preview did not answer on ${base}`);
}

try {
  await waitForServer();
  const browser = await chromium.launch(config.use?.launchOptions);
  // 1280 × 800 at 1× keeps each PNG well under 300 KB and readable on GitHub.
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  await page.goto(`${base}/?sample`);
  await page.waitForSelector('html[data-state="ready"]');
  await page.waitForSelector('[data-md="plain"]', { state: 'detached' }).catch(() => {});
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshot.png' });

  await page.click('[data-action=usage]');
  await page.waitForSelector('[data-usage-panel] [data-chart="context"]');
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'docs/screenshot-usage.png' });
  await browser.close();
  console.log('wrote docs/screenshot.png and docs/screenshot-usage.png');
} finally {
  stop();
}
