import { describe, expect, it } from 'vitest';
import type { DirHandle, FileHandle } from './drop.ts';
import { allowed, sessionFiles, sessionIdOf } from './history-folder.ts';

type Tree = { [name: string]: Tree | string };

function dir(name: string, tree: Tree, seen: string[] = [], permission: PermissionState = 'granted'): DirHandle {
	return {
		kind: 'directory',
		name,
		async *entries() {
			for (const [n, v] of Object.entries(tree)) {
				if (typeof v === 'string') {
					const f: FileHandle = { kind: 'file', name: n, getFile: async () => (seen.push(n), new File([v], n)) };
					yield [n, f] as [string, FileHandle];
				} else yield [n, dir(n, v, seen)] as [string, DirHandle];
			}
		},
		queryPermission: async () => 'prompt',
		requestPermission: async () => permission
	};
}

const tree: Tree = { '-home-x-app': { 'abc.jsonl': 'main', 'other.jsonl': 'no', abc: { subagents: { 'agent-1.jsonl': 'sub' } } }, '-home-x-web': { 'zzz.jsonl': 'no' } };

describe('history folder', () => {
	it('reads only the session’s transcript and its subagents, with the paths a drop gives them', async () => {
		const seen: string[] = [];
		const files = await sessionFiles(dir('projects', tree, seen), 'projects/-home-x-app', 'abc-1x2y3z');
		expect(typeof files === 'string' ? files : files.map((f) => f.path)).toEqual(['projects/-home-x-app/abc.jsonl', 'projects/-home-x-app/abc/subagents/agent-1.jsonl']);
		expect(seen.sort()).toEqual(['abc.jsonl', 'agent-1.jsonl']);
	});

	it('says in one sentence when the folder moved, is another, or the permission is refused', async () => {
		expect(await sessionFiles(dir('projects', tree), 'projects/-home-x-gone', 'abc-1')).toMatch(/no longer holds/);
		expect(await sessionFiles(dir('projects', tree), 'projects/-home-x-app', 'nope-1')).toMatch(/no longer holds/);
		expect(await sessionFiles(dir('projects', tree), 'laptop/-home-x-app', 'abc-1')).toMatch(/came from laptop/);
		expect(await allowed(dir('projects', tree, [], 'denied'))).toBe(false);
		expect(await allowed(dir('projects', tree))).toBe(true);
		expect(sessionIdOf('abc-def-1x2')).toBe('abc-def');
	});
});
