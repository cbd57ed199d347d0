// "Copy link": a link that reopens the open session at the landed atom. A session loaded from
// ?src= reuses that URL; a small session travels inside the fragment (#z=, never sent to a
// server); a large one gets a message saying to host the file and open it with ?src=.
import { formatFragment } from '../view/links/fragment.ts';
import { encodeShare } from '../view/links/share.ts';
import type { Viewer } from './Viewer.svelte.ts';

export class Share {
  /** One line saying what "Copy link" did. */
  message = $state<string | null>(null);
  /** The last link made (also on the clipboard when allowed). */
  link = $state<string | null>(null);
  private viewer: Viewer;

  constructor(viewer: Viewer) {
    this.viewer = viewer;
  }

  async copy(atomUuid: string | null): Promise<void> {
    const href = await this.make(atomUuid);
    if (!href) return;
    this.link = href;
    try {
      await navigator.clipboard.writeText(href);
      this.message = 'Link copied.';
    } catch {
      this.message = 'Copy the link below.';
    }
  }

  async make(atomUuid: string | null): Promise<string | null> {
    const v = this.viewer;
    if (!v.currentKey) return null;
    const url = new URL(location.href);
    url.search = '';
    const place = { s: v.currentKey, a: atomUuid ?? undefined };
    if (v.source?.kind === 'url') {
      url.searchParams.set('src', v.source.url);
      url.hash = formatFragment(place);
      return url.href;
    }
    const session = v.sessions.find((s) => s.key === v.currentKey);
    const paths = new Set(session?.files.map((f) => f.path) ?? []);
    const files = await Promise.all(
      v.files.filter((f) => paths.has(f.path)).map(async (f) => ({ name: f.path, text: await f.blob.text() }))
    );
    const encoded = await encodeShare(files);
    if (!encoded.ok) {
      this.message = `${encoded.message} Host the .jsonl somewhere that allows cross-origin reads (a raw gist URL works) and share ${location.origin}${location.pathname}?src=<that URL>.`;
      return null;
    }
    url.hash = formatFragment({ ...place, z: encoded.payload });
    return url.href;
  }
}
