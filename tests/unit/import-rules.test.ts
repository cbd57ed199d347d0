// Enforces the one-way import order of src/lib (DESIGN.md, "The pipeline"):
//   model ← ingest ← view ← state ← components ← routes;  store is used by state, and by the
//   worker shell for the persisted row index (a session's rows never cross the page);
//   the worker shell uses model, ingest and view.
// A folder may import from itself and from the folders listed for it, nothing else.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../src');

const ALLOWED: Record<string, string[]> = {
  model: [],
  ingest: ['model'],
  view: ['model', 'ingest'],
  worker: ['model', 'ingest', 'view', 'store'],
  store: ['model'],
  state: ['model', 'ingest', 'view', 'store', 'worker'],
  components: ['model', 'ingest', 'view', 'state'],
  routes: ['model', 'ingest', 'view', 'state', 'components']
};
/** Folders that must stay free of Svelte and the DOM, so they run in Node and in the worker. */
const PURE = new Set(['model', 'ingest', 'view']);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : /\.(ts|svelte)$/.test(p) ? [p] : [];
  });
}

/** The layer a file belongs to: src/lib/<layer>/… or src/routes/… */
function layerOf(file: string): string | null {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] === 'routes') return 'routes';
  if (parts[0] === 'lib' && parts.length > 2) return parts[1];
  return null;
}

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|new URL\(\s*['"]([^'"]+)['"]/g;

export function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT_RE)].map((m) => m[1] ?? m[2] ?? m[3]);
}

function targetLayer(file: string, spec: string): string | null {
  if (spec.startsWith('$lib/')) return spec.split('/')[1];
  if (spec.startsWith('.')) return layerOf(resolve(dirname(file), spec));
  return null;
}

export function violations(): string[] {
  const out: string[] = [];
  for (const file of filesUnder(ROOT)) {
    const layer = layerOf(file);
    if (!layer) continue;
    const src = readFileSync(file, 'utf8');
    for (const spec of importsOf(src)) {
      const target = targetLayer(file, spec);
      const rel = relative(ROOT, file);
      if (target && target !== layer && !(ALLOWED[layer] ?? []).includes(target)) {
        out.push(`${rel}: ${layer} may not import ${target} (${spec})`);
      }
      if (PURE.has(layer) && (spec === 'svelte' || spec.startsWith('svelte/') || spec.startsWith('$app/'))) {
        out.push(`${rel}: ${layer} must stay free of Svelte (${spec})`);
      }
    }
    if (PURE.has(layer) && file.endsWith('.svelte')) out.push(`${relative(ROOT, file)}: no components in ${layer}`);
  }
  return out;
}

describe('import rules', () => {
  it('every import in src follows the one-way order', () => {
    expect(violations()).toEqual([]);
  });

  it('recognises the import forms it checks', () => {
    const src = `import a from '$lib/state/x';\nimport { b } from "../view/y";\nexport * from './z';\nconst w = new URL('../worker/p.ts', import.meta.url);\nconst l = await import('$lib/store/db');`;
    expect(importsOf(src)).toEqual(['$lib/state/x', '../view/y', './z', '../worker/p.ts', '$lib/store/db']);
  });

  it('maps a relative import to the layer it lands in', () => {
    const f = join(ROOT, 'lib/model/parse.ts');
    expect(targetLayer(f, '../view/rows')).toBe('view');
    expect(targetLayer(f, './types')).toBe('model');
    expect(targetLayer(f, '$lib/store/db')).toBe('store');
    expect(targetLayer(f, 'idb')).toBeNull();
  });
});
