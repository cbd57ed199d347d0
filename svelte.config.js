// SvelteKit config: a fully static, client-rendered build (adapter-static) that can be
// served from any sub-path. BASE_PATH sets that sub-path (e.g. "/loupe" on GitHub Pages).
import adapter from '@sveltejs/adapter-static';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

const base = process.env.BASE_PATH ?? '';

// Components the first screen never shows keep their CSS in their own JS chunk (Svelte's
// `css: 'injected'`: added to the document when one first mounts) instead of a stylesheet.
// SvelteKit puts the stylesheets of a page's lazily imported components into its first document,
// as if they could be server-rendered, so 13 of the 44 KB inlined below were for the usage panel
// and history dashboard, the share dialog and search results (issue 25). They are parsed in the
// HTML parser's task: without them its style-sheet parse took 24 and 22 ms instead of 33 and 27
// (medians of two sets of 10 traced cold boots at 4× CPU, interleaved); the boot's longest task
// did not measurably change. These are the parts +page.svelte imports lazily that open on a
// person's click, with their children: a new <style> restyles the page once. The history
// progress, which comes by itself during a load, keeps its 0.7 KB in the first document. e2e
// boot.spec checks that the first document holds no other lazy part's CSS.
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
    // The boot's stylesheet (boot.css, 31 KB, one file since the boot chunks were merged) is a
    // <link>, not inlined: inlined, its parse joined the HTML parser's task with the start script's
    // module requests, the longest task before a `#z=` link's first row at 4× CPU in half the boots
    // (early task, medians of 8 interleaved cold boots: 54 ms linked against 81 inlined; `?sample`
    // had none over 50 ms in 7 of 8). As a render-blocking link it is fetched beside the module
    // preloads and parsed in a task of its own. Smaller ones (the history progress's 0.7 KB) are
    // still inlined, SvelteKit leaving them as disabled links, so a lazy chunk's loader does not
    // fetch them again.
    inlineStyleThreshold: 1024,
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
