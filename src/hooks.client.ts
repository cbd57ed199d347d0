// The client's start (SvelteKit runs `init` once, before the first page is mounted): the parse
// worker is created here, so it fetches and compiles its module on its own thread while the main
// thread hydrates and mounts the page, and a linked sample or share link starts loading in it
// (state/early-load.ts). Created in the page's onMount, the worker started ~300 ms later at 4× CPU,
// and a linked session's first rows waited for it and then for their parse (issue 25,
// bench:browser --case boot).
import type { ClientInit } from '@sveltejs/kit';
import { base } from '$app/paths';
import { engineClient } from '$lib/state/engine-client';
import { initialSource } from '$lib/state/boot';
import { startEarlyLoad } from '$lib/state/early-load';

export const init: ClientInit = () => {
  if (typeof Worker === 'undefined') return;
  void engineClient();
  // Only a head start: whatever goes wrong here, the page's own load still runs (and says why).
  try {
    startEarlyLoad(initialSource(location).source, base);
  } catch {
    /* the Viewer loads the link itself */
  }
};
