// The prerender's hook (the app is static: this runs only at build time, for index.html). The
// page's head keeps <link rel=modulepreload> for the shared chunks only, the boot chunk above all
// (scripts/vite/boot-chunk.ts), whose 240 KB should stream from the first moment. SvelteKit's
// entry facades (start, app, the layout and page nodes: under 1 KB together) are left to the
// boot script's own imports: at 4× CPU each preload link cost the HTML parser ~5–8 ms to
// request, and that parse was the boot's longest task.
import type { Handle } from '@sveltejs/kit';

export const handle: Handle = ({ event, resolve }) => resolve(event, { preload: ({ type, path }) => type !== 'js' || path.includes('/chunks/') });
