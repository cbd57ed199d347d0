// Test support for the ingest tests (imported only by *.test.ts): corpus paths, reading fixture
// files as Blobs, and JSONL builders. Uses node:fs, so it must never be imported by app code.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { InputFile } from './types.ts';

export const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../fixtures/corpus');
export const CCL = join(CORPUS, 'claude-code-log/test/test_data');
export const WORKTREES = join(CCL, 'real_projects/-experiments-worktrees');
export const DEEP_MANIFEST = join(CCL, 'real_projects/-src-deep-manifest');
export const CLAUDE_P = join(CCL, 'real_projects/-src-experiments-claude_p');
const FIXTURES = resolve(CORPUS, '..');
export const INLINE = join(CORPUS, 'claude-code-viewer/mock-global-claude-dir/projects/sample-project');

import { filesUnder } from '../../../scripts/lib/files.ts';

export { filesUnder };

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

// ── other harnesses: generated drops from the fixtures/harnesses samples ──

const CODEX_2026 = join(FIXTURES, 'harnesses/codex/_authored__harness-corpus/sessions/2026/04/10/rollout-2026-04-10T08-00-00-cccccccc-0000-7000-8000-000000000003.jsonl');
export const CODEX_SPAWN = join(FIXTURES, 'harnesses/codex/daaain__claude-code-log/test/test_data/codex/sessions/2026/01/03');
export const GEMINI_PROJECT = join(FIXTURES, 'harnesses/gemini/_authored__harness-corpus/tmp/calc-project');

/**
 * `n` rollouts made from one authored fixture: each its own thread id, first prompt and day, in
 * the sessions/YYYY/MM/DD/ layout Codex writes. Rollout i starts on day i (so the newest is n-1).
 */
export function codexRollouts(n: number, root = 'sessions'): InputFile[] {
	const text = readFileSync(CODEX_2026, 'utf8');
	return Array.from({ length: n }, (_, i) => {
		const day = new Date(Date.UTC(2026, 4, 1 + i)).toISOString().slice(0, 10);
		const id = `cccccccc-0000-7000-8000-${String(i).padStart(12, '0')}`;
		const body = text
			.replaceAll('cccccccc-0000-7000-8000-000000000003', id)
			.replaceAll('2026-04-10', day)
			.replaceAll('What does divide() do on zero?', `Rollout ${i}: what does divide() do on zero?`);
		const [y, m, d] = day.split('-');
		return { path: `${root}/${y}/${m}/${d}/rollout-${day}T08-00-00-${id}.jsonl`, blob: new Blob([body]) };
	});
}

/** `n` one-prompt Claude Code sessions in one project folder (projects/-home-me-api/). */
export function claudeProject(n: number): InputFile[] {
	return Array.from({ length: n }, (_, i) => {
		const sid = `C${String(i).padStart(3, '0')}`;
		const ts = new Date(Date.UTC(2026, 2, 1 + i, 9)).toISOString();
		const rows = [
			{ type: 'user', uuid: `${sid}-u`, parentUuid: null, sessionId: sid, cwd: '/home/me/api', timestamp: ts, promptSource: 'typed', message: { role: 'user', content: `claude prompt ${i}` } },
			{ type: 'assistant', uuid: `${sid}-a`, parentUuid: `${sid}-u`, sessionId: sid, timestamp: ts, message: { role: 'assistant', id: `m${i}`, model: 'claude-opus-4-7', content: [{ type: 'text', text: 'ok' }] } }
		];
		return { path: `projects/-home-me-api/${sid}.jsonl`, blob: new Blob([jsonl(rows)]) };
	});
}

