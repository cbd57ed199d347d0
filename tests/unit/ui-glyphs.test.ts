// The characters the page itself draws (component markup and strings, comments aside) come from
// Unicode blocks the fonts every desktop has carry (DejaVu and Liberation are all a plain Debian
// has). A glyph no installed font holds is not just a box: Chromium looks through every font
// again each time it lays one out, ~10 ms a time (ⓘ in a chat notice made the 1 GB tree's first
// screen a 30–40 ms layout, issue 21). Transcript text is the transcript's; this is only the UI's.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Blocks DejaVu Sans covers (nearly) whole. Not here on purpose: Enclosed Alphanumerics (ⓘ),
 *  Miscellaneous Technical (⏹), emoji. */
const COVERED: [number, number, string][] = [
  [0x00a0, 0x024f, 'Latin-1 Supplement, Latin Extended'],
  [0x2000, 0x206f, 'General Punctuation'],
  [0x20a0, 0x20bf, 'Currency Symbols'],
  [0x2100, 0x214f, 'Letterlike Symbols'],
  [0x2190, 0x21ff, 'Arrows'],
  [0x2200, 0x22ff, 'Mathematical Operators'],
  [0x2500, 0x25ff, 'Box Drawing, Block Elements, Geometric Shapes'],
  [0x2600, 0x27bf, 'Miscellaneous Symbols, Dingbats']
];

function svelteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? svelteFiles(p) : p.endsWith('.svelte') ? [p] : [];
  });
}

/** The file without its comments (HTML, block and line comments). */
function withoutComments(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

export function uncoveredGlyphs(text: string): string[] {
  const out = new Set<string>();
  for (const ch of withoutComments(text)) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) continue;
    if (!COVERED.some(([from, to]) => cp >= from && cp <= to)) out.add(`${ch} U+${cp.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return [...out];
}

describe('UI glyphs', () => {
  it('finds a glyph outside the covered blocks, and none in comments', () => {
    expect(uncoveredGlyphs(`<span>{'ⓘ'}</span> // ⏹ here is a comment\n<!-- 😀 -->`)).toEqual(['ⓘ U+24D8']);
    expect(uncoveredGlyphs(`<span>· — → ✓ ▾</span>`)).toEqual([]);
  });

  it('the components and pages draw only glyphs the common fonts have', () => {
    const found = [...svelteFiles(join(SRC, 'lib/components')), ...svelteFiles(join(SRC, 'routes'))].flatMap((f) => uncoveredGlyphs(readFileSync(f, 'utf8')).map((g) => `${f.slice(SRC.length + 1)}: ${g}`));
    expect(found).toEqual([]);
  });
});
