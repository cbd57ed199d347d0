// SvelteKit config: a fully static, client-rendered build (adapter-static) that can be
// served from any sub-path. BASE_PATH sets that sub-path (e.g. "/loupe" on GitHub Pages).
import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

const base = process.env.BASE_PATH ?? '';

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  kit: {
    adapter: adapter({ pages: 'build', assets: 'build', fallback: undefined, precompress: false, strict: true }),
    paths: { base, relative: true },
    // The boot's stylesheets (~44 KB) are inlined into index.html: as six <link>s they were six
    // requests and a style-sheet parse task of its own before the first screen (26 ms at 4× CPU;
    // issue 25, bench:browser --case boot). SvelteKit leaves them as disabled links too, so a lazy
    // chunk's loader does not fetch them again.
    inlineStyleThreshold: 65536,
    // The page registers the service worker itself, once its first screen is drawn
    // (src/lib/state/offline.ts): registered by SvelteKit at load, its install fetched and
    // compiled every chunk while a linked session was still booting (issue 25).
    serviceWorker: { register: false },
    // SvelteKit writes hashes of its own inline boot script into this policy, so no
    // 'unsafe-inline' is needed for scripts. Transcripts never reach the DOM as HTML
    // unsanitized; this is the second wall.
    csp: {
      mode: 'hash',
      directives: {
        'default-src': ['self'],
        'script-src': ['self'],
        'style-src': ['self', 'unsafe-inline'],
        'img-src': ['self', 'data:', 'blob:'],
        'connect-src': ['self', 'https:', 'http:', 'blob:', 'data:'],
        'worker-src': ['self', 'blob:'],
        'object-src': ['none'],
        'base-uri': ['self'],
        'form-action': ['none']
      }
    }
  }
};
