// The client's start (SvelteKit runs `init` once, before the first page is mounted): the parse
// worker is created here, so it fetches and compiles its module on its own thread while the main
// thread hydrates and mounts the page. Created in the page's onMount, it started ~300 ms later at
// 4× CPU, and a linked session's first rows waited for it (issue 25, bench:browser --case boot).
import type { ClientInit } from '@sveltejs/kit';
import { engineClient } from '$lib/state/engine-client';

export const init: ClientInit = () => {
  if (typeof Worker !== 'undefined') void engineClient();
};
