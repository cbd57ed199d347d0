import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';
import { compileHints } from './scripts/vite/compile-hints.ts';
import { bootChunk } from './scripts/vite/boot-chunk.ts';

// The model, ingest and view folders hold pure modules (nothing runs at import but their own
// definitions), so a chunk keeps only the exports it uses: the page importing one helper from
// ingest/classify.ts no longer pulls every harness adapter into the boot (issue 25).
const treeshake = { moduleSideEffects: [{ test: /\/src\/lib\/(model|ingest|view)\/.*\.(ts|js|json)$/, sideEffects: false }] };

export default defineConfig({
  plugins: [sveltekit(), compileHints(), bootChunk()],
  build: { rolldownOptions: { treeshake } },
  worker: { format: 'es', rolldownOptions: { treeshake } },
  test: {
    // Only unit tests: Playwright specs live in tests/e2e and run under Playwright.
    include: ['src/**/*.{test,spec}.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000
  }
});
