// End-to-end tests: the built app served by `vite preview`, driven in Debian's Chromium.
import { defineConfig } from '@playwright/test';

// PW_PORT lets several checkouts run their end-to-end tests side by side on one machine.
const PORT = Number(process.env.PW_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  workers: 2,
  // One retry in CI: a few layout-timing tests (the live edge, row positions) can lose a race on a
  // loaded 2-core machine. A test that passes only on its retry is reported as flaky in the run's
  // output, so it stays visible; a test that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.PW_JSON ? [['list'], ['json', { outputFile: process.env.PW_JSON }]] : 'list',
  webServer: {
    command: `npx vite build && npx vite preview --port ${PORT} --strictPort`,
    port: PORT,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI
  },
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox', '--headless', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'
      ]
    }
  }
});
