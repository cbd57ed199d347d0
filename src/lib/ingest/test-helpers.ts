// Test support for the ingest tests (imported only by *.test.ts): corpus paths, reading fixture
// files as Blobs, and JSONL builders. Uses node:fs, so it must never be imported by app code.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InputFile } from './types.ts';

export const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/corpus');
export const CCL = join(CORPUS, 'claude-code-log/test/test_data');
export const WORKTREES = join(CCL, 'real_projects/-experiments-worktrees');
export const DEEP_MANIFEST = join(CCL, 'real_projects/-src-deep-manifest');
export const CLAUDE_P = join(CCL, 'real_projects/-src-experiments-claude_p');
export const INLINE = join(CORPUS, 'claude-code-viewer/mock-global-claude-dir/projects/sample-project');

export function filesUnder(dir: string): string[] {
	return readdirSync(dir)
		.sort()
		.flatMap((name) => {
			const p = join(dir, name);
			return statSync(p).isDirectory() ? filesUnder(p) : [p];
		});
}

/** Files of a folder as the browser gives them: path relative to the dropped folder's parent. */
export function dropFolder(dir: string): InputFile[] {
	const base = resolve(dir, '..');
	return filesUnder(dir).map((p) => ({ path: relative(base, p), blob: new Blob([readFileSync(p)]) }));
}

export function bytesOf(p: string): Uint8Array {
	return new Uint8Array(readFileSync(p));
}

export const enc = (s: string) => new TextEncoder().encode(s);
export const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
