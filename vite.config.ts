import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [sveltekit()],
  worker: { format: 'es' },
  test: {
    // Only unit tests: Playwright specs live in tests/e2e and run under Playwright.
    include: ['src/**/*.{test,spec}.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000
  }
});
