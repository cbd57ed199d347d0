// Landings that overlap: each waits on the worker (a session to select, the atom's row), so a
// quick Enter, Enter, F3 starts one before the last is done. Only the newest may scroll and write
// the URL; an older one that finishes later must not push its entry after it (Back would then
// return to the wrong hit: a CI flake of search.spec's Enter / Shift+Enter / F3 test).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Navigator } from './Navigator.svelte.ts';
import type { ChatUi } from './ChatUi.svelte.ts';
import type { Viewer } from './Viewer.svelte.ts';

/** A promise the test settles. */
function deferred<T>() {
	let resolve!: (v: T) => void;
	const promise = new Promise<T>((r) => (resolve = r));
	return { promise, resolve };
}

describe('Navigator.land', () => {
	const pushed: string[] = [];
	const saved = { location: globalThis.location, history: globalThis.history };
	beforeEach(() => {
		pushed.length = 0;
		const loc = { href: 'http://x.test/' };
		Object.assign(globalThis, {
			location: loc,
			history: {
				pushState: (_: unknown, __: string, url: URL) => {
					loc.href = String(url);
					pushed.push(String(url).split('#')[1] ?? '');
				},
				replaceState: (_: unknown, __: string, url: URL) => void (loc.href = String(url))
			}
		});
	});
	afterEach(() => Object.assign(globalThis, saved));

	it('lets only the newest of overlapping landings scroll and write the URL', async () => {
		// Session "a" is current; "b" must be selected first, and its select is slow.
		const select = deferred<void>();
		const viewer = {
			currentKey: 'a',
			sessions: [{ key: 'a' }, { key: 'b' }],
			list: [],
			chatIndex: [{ key: 'r0', atomUuid: 'x0', defaultOpen: false }, { key: 'r1', atomUuid: 'x1', defaultOpen: false }],
			select: async (key: string) => {
				await select.promise;
				viewer.currentKey = key;
			},
			rowOfAtom: async (atom: string) => (atom === 'x0' ? 0 : 1)
		};
		const ui = { useSession: () => undefined, open: () => undefined, highlightKey: null as string | null };
		const nav = new Navigator(viewer as unknown as Viewer, ui as unknown as ChatUi);
		const scrolled: string[] = [];
		nav.attach((_, atom) => scrolled.push(atom));

		const older = nav.land('b', 'x0'); // waits on the slow select
		const newer = nav.land('a', 'x1'); // the current session: no select to wait for
		expect(await newer).toBe(true);
		select.resolve();
		expect(await older).toBe(false);
		expect(scrolled).toEqual(['x1']);
		expect(pushed).toEqual(['s=a&a=x1']);
		expect(nav.landedAtom).toBe('x1');
		expect(nav.notFound).toBeNull();

		// On its own, a landing that waits on a select still lands.
		expect(await nav.land('b', 'x0')).toBe(true);
		expect(pushed).toEqual(['s=a&a=x1', 's=b&a=x0']);
	});
});
