// What the page opens at start, read from its URL: ?src=<url>, #z=<payload>, ?sample, or
// #s=<cached session key>; plus the atom to land on (#a=). Pure over a Location-like value.
import { parseFragment } from '../view/links/fragment.ts';
import type { LoadSource } from './sources.ts';

export function initialSource(loc: { search: string; hash: string }): {
  source: LoadSource | null;
  sessionKey: string | null;
  atom: string | null;
} {
  const params = new URLSearchParams(loc.search);
  const f = parseFragment(loc.hash);
  const atom = f.a ?? null;
  const sessionKey = f.s ?? null;
  const src = params.get('src');
  if (src) return { source: { kind: 'url', url: src }, sessionKey, atom };
  if (f.z) return { source: { kind: 'share', payload: f.z }, sessionKey, atom };
  if (params.has('sample')) return { source: { kind: 'sample' }, sessionKey, atom };
  if (sessionKey) return { source: { kind: 'cached', key: sessionKey }, sessionKey, atom };
  return { source: null, sessionKey, atom };
}
