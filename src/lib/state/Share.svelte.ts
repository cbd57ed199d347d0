// "Copy link": a link that reopens the open session at the landed atom. A session loaded from
// ?src= reuses that URL; a small session travels inside the fragment (#z=, never sent to a
// server) — its files redacted in the worker first (the share dialog's choices, on by default);
// a session too large for a link sets `tooLarge`, and the dialog offers the one-file HTML instead.
import { formatFragment } from '../view/links/fragment.ts';
import { encodeShare } from '../view/links/share.ts';
import { DEFAULT_REDACT, type RedactOptions } from '../view/redact/options.ts';
import { engineClient } from './engine-client.ts';
import type { Viewer } from './Viewer.svelte.ts';

export class Share {
  /** One line saying what "Copy link" did. */
  message = $state<string | null>(null);
  /** The last link made (also on the clipboard when allowed). */
  link = $state<string | null>(null);
  /** The last attempt did not fit in a link (offer the one-file HTML instead). */
  tooLarge = $state(false);
  private viewer: Viewer;

  constructor(viewer: Viewer) {
    this.viewer = viewer;
  }

  /** Makes the link (redacted per `redact`; null = as recorded) and puts it on the clipboard. */
  async copy(atomUuid: string | null, redact: RedactOptions | null = DEFAULT_REDACT): Promise<void> {
    const href = await this.make(atomUuid, redact);
    if (!href) return;
    this.link = href;
    try {
      await navigator.clipboard.writeText(href);
      this.message = 'Link copied.';
    } catch {
      this.message = 'Copy the link below.';
    }
  }

  async make(atomUuid: string | null, redact: RedactOptions | null = DEFAULT_REDACT): Promise<string | null> {
    const v = this.viewer;
    if (!v.currentKey) return null;
    this.tooLarge = false;
    const url = new URL(location.href);
    url.search = '';
    const place = { s: v.currentKey, a: atomUuid ?? undefined };
    if (v.source?.kind === 'url') {
      url.searchParams.set('src', v.source.url);
      url.hash = formatFragment(place);
      return url.href;
    }
    const { api } = await engineClient();
    const files = (await api.shareFiles(v.currentKey, redact)) ?? [];
    const encoded = await encodeShare(files);
    if (!encoded.ok) {
      this.tooLarge = true;
      this.message = `${encoded.message} Download the one-file HTML instead (redacted the same way), or host the .jsonl somewhere that allows cross-origin reads (a raw gist URL works) and share ${location.origin}${location.pathname}?src=<that URL>.`;
      return null;
    }
    url.hash = formatFragment({ ...place, z: encoded.payload });
    return url.href;
  }
}
