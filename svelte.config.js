// SvelteKit config: a fully static, client-rendered build (adapter-static) that can be
// served from any sub-path. BASE_PATH sets that sub-path (e.g. "/loupe" on GitHub Pages).
import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

const base = process.env.BASE_PATH ?? '';

// Components the first screen never shows (they open on a click) keep their CSS in their own JS
// chunk (`css: 'injected'`). Otherwise SvelteKit puts the stylesheets of lazily imported
// components into the first document, where the HTML parser's task parses them at boot. The
// history progress is not listed: it comes by itself during a load.
// e2e boot.spec checks that the first document holds no other lazy part's CSS.
const LAZY_COMPONENTS = [
  /\/src\/lib\/components\/(usage|history|share)\//,
  /\/src\/lib\/components\/search\/SearchResults\.svelte$/
];

/** @type {import('@sveltejs/kit').Config} */
export default {
  preprocess: vitePreprocess(),
  vitePlugin: {
    dynamicCompileOptions: ({ filename }) => (LAZY_COMPONENTS.some((re) => re.test(filename.replaceAll('\\', '/'))) ? { css: 'injected' } : undefined)
  },
  kit: {
    adapter: adapter({ pages: 'build', assets: 'build', fallback: undefined, precompress: false, strict: true }),
    paths: { base, relative: true },
    // The boot's stylesheet is linked, not inlined: inlined, its parse joined the HTML parser's
    // task, the longest before a `#z=` link's first row at 4× CPU. Small ones (under 1 KB) stay
    // inlined, so a lazy chunk's loader does not fetch them again.
    inlineStyleThreshold: 1024,
    // The page registers the service worker itself, once its first screen is drawn
    // (src/lib/state/offline.ts): registered by SvelteKit at load, its install fetched and
    // compiled every chunk while a linked session was still booting.
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
