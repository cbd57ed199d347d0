// Enforces the one-way import order of src/lib (DESIGN.md, "The pipeline"):
//   model ← ingest ← view ← state ← components ← routes;  store is used by state, and by the
//   worker shell for the persisted row index (a session's rows never cross the page);
//   the worker shell uses model, ingest and view.
// A folder may import from itself and from the folders listed for it, nothing else.
// Within src/lib no module may reach itself through its relative imports (type imports count:
// a cycle of types is still two modules that cannot be read one without the other), and the
// worker stays a small root over services: no non-test file under lib/worker/ over 300 lines,
// engine.ts (the composition root) under 200.
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

const LIB = join(ROOT, 'lib');

/** The relative imports of every TypeScript module under src/lib, resolved to files (`.ts` added
 *  when missing). Components are left out: a recursive render (a delegation row drawing its
 *  subagent's rows) is a component importing its own ancestor, which Svelte means to allow. */
export function importGraph(files: string[] = filesUnder(LIB).filter((f) => f.endsWith('.ts'))): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(readFileSync(file, 'utf8')).flatMap((spec) => {
      const base = spec.startsWith('$lib/') ? join(LIB, spec.slice(5)) : spec.startsWith('.') ? resolve(dirname(file), spec) : null;
      if (!base) return [];
      const hit = [base, `${base}.ts`, join(base, 'index.ts')].find((p) => known.has(p));
      return hit ? [hit] : [];
    });
    graph.set(file, targets);
  }
  return graph;
}

/** Every import cycle, each once, as the chain of modules that closes it (depth-first search). */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const s = state.get(next);
      if (s === 'open') out.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!s) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return out;
}

/** Worker modules over their line budget: 300 each (tests excluded), 200 for the root. */
export function oversizedWorkerFiles(): string[] {
  return filesUnder(join(LIB, 'worker'))
    .filter((f) => !/\.test\.ts$/.test(f))
    .flatMap((f) => {
      const lines = readFileSync(f, 'utf8').split('\n').length - 1;
      const max = f.endsWith(`${sep}worker${sep}engine.ts`) ? 200 : 300;
      return lines > max ? [`${relative(ROOT, f)}: ${lines} lines (at most ${max})`] : [];
    });
}

describe('import rules', () => {
  it('every import in src follows the one-way order', () => {
    expect(violations()).toEqual([]);
  });

  it('no TypeScript module under src/lib imports itself through a cycle', () => {
    const rel = (f: string) => relative(ROOT, f);
    expect(cyclesOf(importGraph()).map((c) => c.map(rel).join(' → '))).toEqual([]);
  });

  it('finds a cycle however long, and none in a chain', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a', 'd']], ['d', []]]);
    expect(cyclesOf(g)).toEqual([['a', 'b', 'c', 'a']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', []], ['d', ['c']]]))).toEqual([]);
  });

  it('resolves relative and $lib imports to the files they name', () => {
    const a = join(LIB, 'model', 'build.ts');
    const targets = importGraph().get(a) ?? [];
    expect(targets).toContain(join(LIB, 'model', 'emit.ts'));
    expect(targets.every((t) => t.startsWith(LIB))).toBe(true);
  });

  it('keeps the worker small: no module over 300 lines, the engine root under 200', () => {
    expect(oversizedWorkerFiles()).toEqual([]);
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
