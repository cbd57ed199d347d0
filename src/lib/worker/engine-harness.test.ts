// The engine on a big drop of other harnesses' sessions (scan mode): listed by the scan, built on open.
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { claudeProject, codexRollouts, dropFolder, GEMINI_PROJECT } from '../ingest/test-helpers.ts';
import type { InputFile } from '../ingest/types.ts';

describe('Engine on a big mixed drop', () => {
	const mixed = (): InputFile[] => [...claudeProject(25), ...codexRollouts(3, '.codex/sessions'), ...dropFolder(GEMINI_PROJECT)];

	it('the engine lists the whole mixed drop and opens a Codex and a Gemini session on demand', async () => {
		const engine = new Engine();
		const out = await engine.load(1, { files: mixed() });
		if (!out.ok) throw new Error(out.message);
		expect(out.scanned).toBe(true);
		expect(out.list).toHaveLength(29);
		const codex = out.list.filter((e) => e.harness === 'codex');
		expect(codex.map((e) => e.harnessLabel)).toEqual(['Codex CLI', 'Codex CLI', 'Codex CLI']);
		const pick = codex[1];
		expect(engine.builtKeys()).not.toContain(pick.key);
		const opened = await engine.open(pick.key);
		expect(opened?.key).toBe(pick.key);
		expect(opened?.meta.harness).toBe('codex');
		expect(opened?.meta.title).toBe(pick.title);
		expect(engine.builtKeys()).toContain(pick.key);
		const rows = await engine.chatIndex(pick.key);
		expect(rows?.rows.length).toBeGreaterThan(3);
		const gemini = out.list.find((e) => e.harness === 'gemini');
		const g = gemini && (await engine.open(gemini.key));
		expect(g?.meta).toMatchObject({ harness: 'gemini', title: 'Explained why divide() fails on zero', subagents: 1 });
	});

	it('a drop of 30 Codex rollouts is scanned, and any of them opens', async () => {
		const engine = new Engine();
		const out = await engine.load(1, { files: codexRollouts(30) });
		if (!out.ok) throw new Error(out.message);
		expect(out.scanned).toBe(true);
		expect(out.list).toHaveLength(30);
		expect(out.list.every((e) => e.harness === 'codex')).toBe(true);
		const e = out.list[17];
		const opened = await engine.open(e.key);
		expect(opened?.meta).toMatchObject({ harness: 'codex', title: e.title, startedAt: e.startedAt, endedAt: e.endedAt });
		expect(opened?.files.map((f) => f.path)).toEqual([`sessions/2026/05/13/rollout-2026-05-13T08-00-00-cccccccc-0000-7000-8000-000000000012.jsonl`]);
	});
});
