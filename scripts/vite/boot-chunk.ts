// A Vite plugin (client build only) that puts the app page's boot code in one chunk (issue 25).
// Left to itself the bundler splits the page's static imports into 16 files wherever a lazy
// chunk shares a module with them. SvelteKit lists each one as a <link rel=modulepreload> in the
// page's head, and at 4× CPU each costs the HTML parser ~5 ms to request (80 of the 165 ms of the
// boot's longest task in a trace) and the module loader a fetch, an instantiation and a link.
// One chunk makes that six files: the boot chunk and SvelteKit's five entry facades.
//
// In the chunk: every module a boot entry reaches by static imports. The boot entries are all
// of the client build's entries but the ones of routes under src/routes/bench/ (the benchmark
// pages import the timeline statically; the app's page loads it lazily, and keeps doing so).
// Lazy chunks import what they share with the boot from the boot chunk, already loaded.
import type { Plugin } from 'vite';

/** The part of Rolldown's module info this plugin reads. */
export interface ModuleLike {
	isEntry: boolean;
	importers: readonly string[];
	importedIds: readonly string[];
}

const BENCH = /[\\/]src[\\/]routes[\\/]bench[\\/]/;

/** Whether a module is reached by static imports from a boot entry. `boot` remembers the modules
 *  found in it; a "no" is not remembered, as it may have been reached through a pending cycle. */
export function inBoot(id: string, info: (id: string) => ModuleLike | null, boot = new Set<string>(), visiting = new Set<string>()): boolean {
	if (boot.has(id)) return true;
	if (visiting.has(id) || BENCH.test(id)) return false;
	visiting.add(id);
	const m = info(id);
	if (!m) return false;
	const entry = m.isEntry && !m.importedIds.some((d) => BENCH.test(d));
	if (entry || m.importers.some((by) => inBoot(by, info, boot, visiting))) {
		boot.add(id);
		return true;
	}
	return false;
}

export function bootChunk(): Plugin {
	return {
		name: 'loupe-boot-chunk',
		apply: 'build',
		configEnvironment(name) {
			if (name !== 'client') return;
			const boot = new Set<string>();
			return {
				build: {
					rolldownOptions: {
						output: {
							codeSplitting: {
								groups: [{ name: (id, ctx) => (inBoot(id, (m) => ctx.getModuleInfo(m), boot) ? 'boot' : null) }]
							}
						}
					}
				}
			};
		}
	};
}
