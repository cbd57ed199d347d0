// A `#z=` share link carries its session in the address: 28 KB for the sample, far more for a big
// session. SvelteKit's start copies, parses and writes the page's URL many times (its history
// entry, route matching, the navigation's ids), and with such a URL its routing and first mount
// made one task of 100–140 ms at 4× CPU (CPU profiles of bench:browser --case boot, issue 25).
// The client's init (hooks.client.ts) takes the payload out of the address while SvelteKit starts,
// after the link's load has been handed to the worker; the layout puts the address back, a task
// after SvelteKit's mount and before the page reads it. A reload in between (~100 ms) would
// reopen the link without its payload: the session key is kept, so the page says it is not found.

import { formatFragment, parseFragment } from '../view/links/fragment.ts';

/** Fragments longer than this are held while SvelteKit starts. */
export const LONG_FRAGMENT = 2048;

let held: string | null = null;

/** The address SvelteKit is to start with: the fragment without its `z=` value, when it is long. */
export function shortAddress(href: string): string | null {
  const at = href.indexOf('#');
  if (at < 0 || href.length - at - 1 <= LONG_FRAGMENT) return null;
  return href.slice(0, at) + formatFragment({ ...parseFragment(href.slice(at)), z: undefined });
}

/** Takes a long fragment's payload out of the address (history.replaceState, no navigation). */
export function holdLongUrl(): void {
  const short = shortAddress(location.href);
  if (short === null) return;
  const href = location.href;
  try {
    history.replaceState(history.state, '', short);
    held = href;
  } catch {
    // An address that cannot be written stays as it is: SvelteKit starts on the long one.
  }
}

/** Puts a held address back, keeping SvelteKit's history state. */
export function restoreLongUrl(): void {
  if (held === null) return;
  const url = held;
  held = null;
  history.replaceState(history.state, '', url);
}
