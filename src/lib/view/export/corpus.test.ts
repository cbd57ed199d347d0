// Every session of the real corpus and of the hostile fixtures exports in all three formats,
// redacted, without an error; each Strap export validates against the schema; each HTML export
// stays free of script, event handlers and javascript: URLs whatever the transcript says.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import type { InputFile, LoadedSession } from '../../ingest/types.ts';
import { describeRedaction, makeRedactor } from '../redact/index.ts';
import { exportSession, type ExportFormat } from './index.ts';
import { validateSchema } from './json-schema.ts';
import schema from './strap.schema.json';

const ROOT = resolve(__dirname, '../../../../fixtures');

function drop(dir: string): InputFile[] {
	const out: InputFile[] = [];
	const walk = (d: string): void => {
		for (const name of readdirSync(d).sort()) {
			const p = join(d, name);
			if (statSync(p).isDirectory()) walk(p);
			else if (/\.(jsonl|json)$/.test(name)) out.push({ path: relative(ROOT, p), blob: new Blob([readFileSync(p)]) });
		}
	};
	walk(dir);
	return out;
}

async function exportAll(s: LoadedSession): Promise<Record<ExportFormat, string>> {
	const redactor = makeRedactor();
	const src = { key: s.key, title: s.title, startedAt: s.startedAt, endedAt: s.endedAt, session: s.result.session, children: s.children, metadata: s.result.metadata };
	const opts = { redactor, redaction: describeRedaction(redactor.options) };
	return {
		markdown: (await exportSession(src, 'markdown', opts)).text,
		html: (await exportSession(src, 'html', opts)).text,
		strap: (await exportSession(src, 'strap', opts)).text
	};
}

describe('exports over the corpus', () => {
	it('every corpus session exports as Markdown, HTML and valid Strap JSON', async () => {
		const { sessions } = await loadSessions(drop(join(ROOT, 'corpus')));
		expect(sessions.length).toBeGreaterThan(5);
		let forks = 0;
		for (const s of sessions) {
			const out = await exportAll(s);
			expect(out.markdown.startsWith('# '), s.key).toBe(true);
			expect(out.html, s.key).toContain('<main');
			const state = JSON.parse(out.strap);
			expect(validateSchema(schema, state), s.key).toEqual([]);
			forks += (out.strap.match(/"tool": "agent\.fork"/g) ?? []).length;
		}
		expect(forks).toBeGreaterThanOrEqual(8);
	});

	it('a compaction becomes a harness history.summarize call with the summary as its output', async () => {
		const file = 'corpus/claude-code-log/test/test_data/dag_compact_after_rewind_preserved.jsonl';
		const { sessions } = await loadSessions([{ path: file, blob: new Blob([readFileSync(join(ROOT, file))]) }]);
		const state = JSON.parse((await exportAll(sessions[0])).strap) as { root: { children: { from: string; kind: string; calls?: { tool: string; ok?: boolean; output?: { summary?: string } }[] }[] } };
		const compactions = state.root.children.filter((e) => e.calls?.some((c) => c.tool === 'history.summarize'));
		expect(compactions.length).toBeGreaterThan(0);
		for (const e of compactions) {
			expect(e).toMatchObject({ from: 'harness', kind: 'tool_request' });
			expect(typeof e.calls![0].output?.summary).toBe('string');
		}
	});

	it('hostile sessions export without script, handlers or javascript: URLs in the HTML', async () => {
		const { sessions } = await loadSessions(drop(join(ROOT, 'hostile')));
		expect(sessions.length).toBe(4);
		for (const s of sessions) {
			const { html, strap } = await exportAll(s);
			expect(html, s.key).not.toMatch(/<(?:script|iframe|object|embed|svg|math|form|link|base)\b/i);
			expect(html, s.key).not.toMatch(/<[^>]+\son\w+\s*=/i);
			expect(html, s.key).not.toMatch(/(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data:text)/i);
			expect(validateSchema(schema, JSON.parse(strap)), s.key).toEqual([]);
		}
	});
});
