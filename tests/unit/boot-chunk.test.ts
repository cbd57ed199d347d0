// The boot-chunk build plugin (scripts/vite/boot-chunk.ts): which modules join the page's one
// boot chunk (reached by static imports from an entry that is not a benchmark page's), and that it
// configures the client build only.
import { describe, expect, it } from 'vitest';
import { bootChunk, inBoot, type ModuleLike } from '../../scripts/vite/boot-chunk.ts';

type Graph = Record<string, { entry?: boolean; imports?: string[] }>;

/** Module infos as Rolldown gives them (importers derived from the imports). */
function infoOf(graph: Graph): (id: string) => ModuleLike | null {
	const importers = new Map<string, string[]>();
	for (const [id, m] of Object.entries(graph)) for (const d of m.imports ?? []) importers.set(d, [...(importers.get(d) ?? []), id]);
	return (id) => (id in graph ? { isEntry: !!graph[id].entry, importedIds: graph[id].imports ?? [], importers: importers.get(id) ?? [] } : null);
}

const APP = '/app/src/routes/+page.svelte';
const BENCH = '/app/src/routes/bench/timeline/+page.svelte';

describe('inBoot', () => {
	const graph: Graph = {
		'/app/.svelte-kit/generated/client/app.js': { entry: true, imports: ['/app/node_modules/svelte/internal.js'] },
		'/app/.svelte-kit/generated/client/nodes/2.js': { entry: true, imports: [APP] },
		'/app/.svelte-kit/generated/client/nodes/3.js': { entry: true, imports: [BENCH] },
		[APP]: { imports: ['/app/src/lib/components/chat/ChatList.svelte', '/app/node_modules/svelte/internal.js'] },
		'/app/src/lib/components/chat/ChatList.svelte': { imports: ['/app/src/lib/view/chat/virtual.ts'] },
		'/app/src/lib/view/chat/virtual.ts': {},
		'/app/node_modules/svelte/internal.js': {},
		// The benchmark page imports the timeline statically; the app's page only with import().
		[BENCH]: { imports: ['/app/src/lib/components/timeline/Timeline.svelte', '/app/src/lib/view/chat/virtual.ts'] },
		'/app/src/lib/components/timeline/Timeline.svelte': { imports: ['/app/src/lib/view/timeline/layout.ts'] },
		'/app/src/lib/view/timeline/layout.ts': {},
		// Only ever loaded lazily: no static importer at all.
		'/app/src/lib/components/usage/UsagePanel.svelte': {}
	};
	const info = infoOf(graph);

	it('takes what the app’s entries reach statically, shared or not', () => {
		for (const id of [APP, '/app/src/lib/components/chat/ChatList.svelte', '/app/src/lib/view/chat/virtual.ts', '/app/node_modules/svelte/internal.js', '/app/.svelte-kit/generated/client/app.js', '/app/.svelte-kit/generated/client/nodes/2.js']) {
			expect(inBoot(id, info), id).toBe(true);
		}
	});

	it('leaves out the benchmark page’s own imports, its entry, and lazy-only modules', () => {
		for (const id of [BENCH, '/app/.svelte-kit/generated/client/nodes/3.js', '/app/src/lib/components/timeline/Timeline.svelte', '/app/src/lib/view/timeline/layout.ts', '/app/src/lib/components/usage/UsagePanel.svelte', '/app/unknown.js']) {
			expect(inBoot(id, info), id).toBe(false);
		}
	});

	it('answers through import cycles, whichever module of the cycle is asked first', () => {
		const cyclic: Graph = {
			'/app/entry.js': { entry: true, imports: ['/app/a.js'] },
			'/app/a.js': { imports: ['/app/b.js'] },
			'/app/b.js': { imports: ['/app/a.js', '/app/c.js'] },
			'/app/c.js': {},
			'/app/x.js': { imports: ['/app/y.js'] },
			'/app/y.js': { imports: ['/app/x.js'] }
		};
		const i = infoOf(cyclic);
		const boot = new Set<string>();
		// A cycle with no way to an entry, asked first, must not spoil the answers after it.
		expect(inBoot('/app/y.js', i, boot)).toBe(false);
		expect(inBoot('/app/b.js', i, boot)).toBe(true);
		expect(inBoot('/app/a.js', i, boot)).toBe(true);
		expect(inBoot('/app/c.js', i, boot)).toBe(true);
		expect(inBoot('/app/x.js', i, boot)).toBe(false);
	});
});

describe('the plugin', () => {
	type Group = { name: (id: string, ctx: { getModuleInfo(id: string): ModuleLike | null }) => string | null };
	const configure = (env: string) =>
		(bootChunk() as unknown as { configEnvironment(name: string): { build: { rolldownOptions: { output: { codeSplitting: { groups: Group[] } } } } } | undefined }).configEnvironment(env);

	it('groups the client build’s boot modules under one name and nothing else', () => {
		const groups = configure('client')!.build.rolldownOptions.output.codeSplitting.groups;
		expect(groups).toHaveLength(1);
		const ctx = { getModuleInfo: (id: string) => infoOf({ '/e.js': { entry: true, imports: ['/m.js'] }, '/m.js': {}, '/lazy.js': {} })(id) };
		expect(groups[0].name('/m.js', ctx)).toBe('boot');
		expect(groups[0].name('/lazy.js', ctx)).toBeNull();
	});

	it('leaves the prerender (SSR) build alone', () => {
		expect(configure('ssr')).toBeUndefined();
	});
});
