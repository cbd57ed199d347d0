// A Vite plugin (client build only) that marks the boot's chunks for eager compilation in V8
// (issue 25). Without a hint, V8 pre-parses a script lazily and compiles each function the first
// time it runs, on the main thread: on a cold start that was most of the boot's long tasks
// (module evaluation, the mount, the first rows). With `//# allFunctionsCalledOnLoad` at the top
// of a file (V8's explicit compile hints, Chrome 136+), Chromium compiles all of its functions
// while the file streams in, off the main thread. Other browsers read a comment.
//
// Marked: the build's entry chunks and every chunk they import statically. For the app's page
// that is what it loads before its first screen (the boot chunk, boot-chunk.ts, and SvelteKit's
// entry facades). The entries are every route's, so the benchmark page's static imports are
// marked too, among them the timeline, which the app's page loads lazily: a mark costs only when
// its chunk loads, and compiles off the main thread. The page's other lazy chunks (usage, search results, share
// dialog, highlight.js) keep lazy compilation: most of their code never runs.
import type { Plugin } from 'vite';

export const HINT = '//# allFunctionsCalledOnLoad\n';

/** The part of a Rollup / Rolldown output chunk this plugin reads. */
export interface ChunkLike {
	type: 'chunk' | 'asset';
	fileName: string;
	isEntry?: boolean;
	imports?: string[];
}

/** File names of the entry chunks and their static imports, transitively. */
export function bootChunks(bundle: Record<string, ChunkLike>): Set<string> {
	const out = new Set<string>();
	const stack = Object.values(bundle)
		.filter((c) => c.type === 'chunk' && c.isEntry)
		.map((c) => c.fileName);
	while (stack.length) {
		const name = stack.pop()!;
		if (out.has(name)) continue;
		const c = bundle[name];
		if (!c || c.type !== 'chunk') continue;
		out.add(name);
		stack.push(...(c.imports ?? []));
	}
	return out;
}

/** Source map mappings for code with one line added on top: an empty first line. */
export function shiftMappings(mappings: string): string {
	return ';' + mappings;
}

export function compileHints(): Plugin {
	let skip = false;
	return {
		name: 'loupe-compile-hints',
		apply: 'build',
		configResolved(config) {
			// The prerender (SSR) build runs in Node, where the hint does nothing.
			skip = !!config.build.ssr;
		},
		generateBundle: {
			// After Vite's own, which puts its preload helper (__vite__mapDeps) on top of a chunk.
			order: 'post',
			handler(_options, bundle) {
				if (skip) return;
				for (const name of bootChunks(bundle as unknown as Record<string, ChunkLike>)) {
					const chunk = bundle[name];
					if (chunk.type !== 'chunk' || chunk.code.startsWith(HINT)) continue;
					chunk.code = HINT + chunk.code;
					if (chunk.map) chunk.map.mappings = shiftMappings(chunk.map.mappings);
				}
			}
		}
	};
}
