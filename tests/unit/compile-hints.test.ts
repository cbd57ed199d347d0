// The compile-hints build plugin (scripts/vite/compile-hints.ts): which chunks are marked for
// eager compilation, and that a marked chunk's source map still points at the same code.
import { describe, expect, it } from 'vitest';
import { bootChunks, compileHints, HINT, shiftMappings, type ChunkLike } from '../../scripts/vite/compile-hints.ts';

const chunk = (fileName: string, imports: string[] = [], isEntry = false): ChunkLike => ({ type: 'chunk', fileName, imports, isEntry });

function bundleOf(...chunks: ChunkLike[]): Record<string, ChunkLike> {
	return Object.fromEntries(chunks.map((c) => [c.fileName, c]));
}

describe('bootChunks', () => {
	it('takes the entries and what they import statically, transitively, and no lazy chunk', () => {
		const bundle = bundleOf(
			chunk('entry/start.js', ['chunks/runtime.js'], true),
			chunk('nodes/2.js', ['chunks/chat.js'], true),
			chunk('chunks/chat.js', ['chunks/runtime.js', 'chunks/text.js']),
			chunk('chunks/text.js'),
			chunk('chunks/runtime.js'),
			// Loaded by import() only: its own imports are not the boot's either.
			chunk('chunks/usage-panel.js', ['chunks/charts.js']),
			chunk('chunks/charts.js'),
			{ type: 'asset', fileName: 'assets/2.css' }
		);
		expect([...bootChunks(bundle)].sort()).toEqual(['chunks/chat.js', 'chunks/runtime.js', 'chunks/text.js', 'entry/start.js', 'nodes/2.js']);
	});

	it('survives import cycles and names missing from the bundle', () => {
		const bundle = bundleOf(chunk('a.js', ['b.js', 'gone.js'], true), chunk('b.js', ['a.js']));
		expect([...bootChunks(bundle)].sort()).toEqual(['a.js', 'b.js']);
	});
});

describe('the plugin', () => {
	type Bundle = Record<string, { type: 'chunk' | 'asset'; fileName: string; isEntry?: boolean; imports?: string[]; code?: string; map?: { mappings: string } | null }>;
	function run(bundle: Bundle, ssr = false): void {
		const p = compileHints() as unknown as {
			configResolved(c: unknown): void;
			generateBundle: { handler(o: unknown, b: Bundle): void };
		};
		p.configResolved({ build: { ssr } });
		p.generateBundle.handler({}, bundle);
	}

	it('puts the hint on the first line of boot chunks only, once, and shifts their maps a line down', () => {
		const bundle: Bundle = {
			'entry.js': { type: 'chunk', fileName: 'entry.js', isEntry: true, imports: ['dep.js'], code: 'const __vite__mapDeps=1;import"./dep.js";', map: { mappings: 'AAAA,CAAC' } },
			'dep.js': { type: 'chunk', fileName: 'dep.js', imports: [], code: 'export const x=1;', map: null },
			'lazy.js': { type: 'chunk', fileName: 'lazy.js', imports: [], code: 'export const y=2;', map: null }
		};
		run(bundle);
		run(bundle);
		expect(bundle['entry.js'].code).toBe(HINT + 'const __vite__mapDeps=1;import"./dep.js";');
		expect(bundle['entry.js'].map?.mappings).toBe(';AAAA,CAAC');
		expect(bundle['dep.js'].code!.startsWith(HINT)).toBe(true);
		expect(bundle['lazy.js'].code).toBe('export const y=2;');
	});

	it('leaves the prerender (SSR) build alone', () => {
		const bundle: Bundle = { 'entry.js': { type: 'chunk', fileName: 'entry.js', isEntry: true, imports: [], code: 'x', map: null } };
		run(bundle, true);
		expect(bundle['entry.js'].code).toBe('x');
	});

	it('shifts mappings by exactly one generated line', () => {
		expect(shiftMappings('AAAA;AACA')).toBe(';AAAA;AACA');
		expect(shiftMappings('')).toBe(';');
	});
});
