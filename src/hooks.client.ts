// The client's start (SvelteKit runs `init` once, before the first page is mounted): the parse
// worker is created here, so it fetches and compiles its module on its own thread while the main
// thread hydrates and mounts the page, and a linked sample or share link starts loading in it
// (state/early-load.ts). Created in the page's onMount, it started ~300 ms later at 4× CPU.
// `init` resolves a task later, so SvelteKit's start and the mount are separate tasks (a long
// `#z=` link made them one long task); the worker loads the link meanwhile.
import type { ClientInit } from '@sveltejs/kit';
import { base } from '$app/paths';
import { engineClient } from '$lib/state/engine-client';
import { initialSource } from '$lib/state/boot';
import { startEarlyLoad } from '$lib/state/early-load';
import { macrotask } from '$lib/state/stage';
import { primeTheme } from '$lib/state/Theme.svelte';
import { holdLongUrl } from '$lib/state/long-url';
import { warmFonts } from '$lib/components/app/font-warmup';
import { preloadSanitizer } from '$lib/components/markdown/render';

export const init: ClientInit = async () => {
  if (typeof Worker === 'undefined') return;
  void engineClient();
  // Only a head start: whatever goes wrong here, the page's own load still runs (and says why).
  let linked = false;
  try {
    const { source } = initialSource(location);
    linked = source !== null;
    startEarlyLoad(source, base);
  } catch {
    /* the Viewer loads the link itself */
  }
  // The payload has been read: SvelteKit starts on a short address (long-url.ts).
  holdLongUrl();
  await macrotask();
  primeTheme();
  // The workspace's font sizes, resolved in idle callbacks from here on (font-warmup.ts): the
  // first layout that meets a new size asks fontconfig for it. Left to the first screen, that
  // was 20–30 ms of a big drop's first list layout and 27–66 ms of a linked session's first
  // rows' layout at 4× CPU (traces); at 1× a linked boot's idle gaps, while the worker parses,
  // take 10–14 of them before the first rows. At 4× the boot has no idle period before its first
  // rows (traced: none), so they come after; run as plain tasks instead, they went ahead of the
  // first row and delayed it about as much as they took out of its layout. (In boot A/Bs at 4×
  // the longest task moved by -18 to +31 ms: within the noise.) On the start page they fill
  // its idle periods; with a link, whose load runs before the page says so, they go one a
  // callback until its session is shown.
  warmFonts(undefined, { fill: !linked });
  // And DOMPurify, once no load runs (markdown/render.ts); a link's first rows load it after
  // they are painted, as before (not part of the JS before the first row).
  if (!linked) preloadSanitizer();
  await macrotask();
};
