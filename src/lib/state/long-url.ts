// A `#z=` share link carries its session in the address: 28 KB for the sample, far more for a big
// session. SvelteKit's start copies, parses and writes the page's URL many times (its history
// entry, route matching, the navigation's ids), and with such a URL its routing and first mount
// made one task of 100–140 ms at 4× CPU.
// The client's init (hooks.client.ts) takes the payload out of the address while SvelteKit starts,
// after the link's load has been handed to the worker; the page reads the held address
// (`pageAddress`) and puts it back once the link's first rows are drawn. Put back before the page's
// mount instead, the write was a 15–32 ms task at 4× CPU, and the browser's handling of it (an
// 88 KB same-document navigation message, 23–80 ms of its main thread in traces) took a core from
// the link's first mount, which then took twice its CPU time in wall time (90–103 ms at 4× against
// 50 for `?sample`'s). A reload before the address is back (under a second at 4×) reopens the link
// without its payload: the session key is kept, so the page says it is not found.

import { formatFragment, parseFragment } from '../view/links/fragment.ts';

/** Fragments longer than this are held while SvelteKit starts. */
export const LONG_FRAGMENT = 2048;

let held: string | null = null;
// The short address written in its place: a later write by anyone else (a landing's fragment)
// supersedes the held one.
let short: string | null = null;

/** The address SvelteKit is to start with: the fragment without its `z=` value, when it is long. */
export function shortAddress(href: string): string | null {
  const at = href.indexOf('#');
  if (at < 0 || href.length - at - 1 <= LONG_FRAGMENT) return null;
  return href.slice(0, at) + formatFragment({ ...parseFragment(href.slice(at)), z: undefined });
}

/** Takes a long fragment's payload out of the address (history.replaceState, no navigation). */
export function holdLongUrl(): void {
  const shortened = shortAddress(location.href);
  if (shortened === null) return;
  const href = location.href;
  try {
    history.replaceState(history.state, '', shortened);
    held = href;
    short = location.href;
  } catch {
    // An address that cannot be written stays as it is: SvelteKit starts on the long one.
  }
}

/** The address the page reads its link from: the held one while its payload is out of the address. */
export function pageAddress(): { search: string; hash: string } {
  return held === null ? location : new URL(held);
}

/** Puts a held address back, keeping SvelteKit's history state, unless the address has been
 *  written since it was held. */
export function restoreLongUrl(): void {
  if (held === null) return;
  const url = held;
  held = null;
  if (location.href === short) history.replaceState(history.state, '', url);
}
