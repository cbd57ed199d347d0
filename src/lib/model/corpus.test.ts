// Every real transcript of fixtures/corpus parses in viewer mode without throwing, accounts for
// every line exactly once, and ends every turn whose last reply finished. The "finished" check is
// computed here from the raw lines (the blocks of the turn's last assistant message, grouped by
// message.id), not from the model's own stop-reason recovery, so it can catch the model out.
import { readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords } from './index.ts';
import type { Compat, ParseResult } from './index.ts';
import { chunksOf } from '../../../scripts/lib/chunks.ts';
import { filesUnder } from '../../../scripts/lib/files.ts';
import { accountingAddsUp, misplaced, nonBlankLines } from '../../../scripts/lib/accounting-check.ts';

const CORPUS = resolve(__dirname, '../../../fixtures/corpus');


const JSONL = filesUnder(CORPUS).filter((f) => f.endsWith('.jsonl'));

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseFile(abs: string, compat: Compat = 'viewer'): { rel: string; text: string; result: ParseResult } {
	const rel = relative(CORPUS, abs);
	const bytes = readFileSync(abs);
	const subagent = basename(abs).startsWith('agent-');
	const records = readRecords(rel, [bytes]);
	const result = buildSession({ transcripts: [records] }, { compat, subagent });
	return { rel, text: bytes.toString('utf8'), result };
}

/**
 * Turns that must be ended: the turn's last assistant atom belongs to a message (all raw lines
 * sharing its message.id) whose blocks include text and no tool_use — the file finished a reply.
 */
function finishedButOpen(text: string, result: ParseResult): string[] {
	const byUuid = new Map<string, Record<string, unknown>>();
	const blocksByMessage = new Map<string, unknown[]>();
	for (const { text: lineText } of nonBlankLines(text)) {
		const v = parseJson(lineText);
		if (!isObject(v)) continue;
		if (typeof v.uuid === 'string') byUuid.set(v.uuid, v);
		const m = v.message;
		if (v.type === 'assistant' && isObject(m) && typeof m.id === 'string' && Array.isArray(m.content)) {
			blocksByMessage.set(m.id, [...(blocksByMessage.get(m.id) ?? []), ...m.content]);
		}
	}
	const open: string[] = [];
	for (const turn of result.session.turns) {
		const last = [...turn.atoms].reverse().find((a) => a.type === 'assistant' && a.uuid && byUuid.has(a.uuid) && !a.command);
		if (!last) continue;
		const raw = byUuid.get(last.uuid!)!;
		const m = raw.message;
		if (!isObject(m)) continue;
		const blocks = typeof m.id === 'string' ? blocksByMessage.get(m.id)! : Array.isArray(m.content) ? m.content : [];
		const types = blocks.map((b) => (isObject(b) ? b.type : null));
		const finished = types.includes('text') && !types.includes('tool_use');
		if (finished && !turn.ended) open.push(`${turn.id} (last reply ${last.uuid})`);
	}
	return open;
}

describe('corpus (viewer mode)', () => {
	it('finds the corpus transcripts', () => {
		expect(JSONL.length).toBe(18);
	});

	for (const abs of JSONL) {
		const rel = relative(CORPUS, abs);
		describe(rel, () => {
			it('viewer: parses, accounts for every line once, ends every finished reply', () => {
				const { text, result } = parseFile(abs);
				const lines = nonBlankLines(text);
				
				expect(result.accounting.lines).toBe(lines.length);
				expect(accountingAddsUp(result)).toBe(true);
				expect(misplaced(result, rel, lines)).toEqual({ missing: [], twice: [] });

				expect(finishedButOpen(text, result)).toEqual([]);
			});
			it('viewer: a parse fed in 997-byte chunks equals the whole-file parse', () => {
				const bytes = readFileSync(abs);
				const subagent = basename(abs).startsWith('agent-');
				const chunked = buildSession({ transcripts: [readRecords(rel, chunksOf(bytes, 997))] }, { compat: 'viewer', subagent });
				expect(chunked).toEqual(parseFile(abs).result);
			});
			it('also parses in romp mode with the accounting adding up', () => {
				const { text, result } = parseFile(abs, 'romp');
				expect(result.accounting.lines).toBe(nonBlankLines(text).length);
				expect(accountingAddsUp(result)).toBe(true);
			});
		});
	}

	// The check above has teeth: romp mode keeps quirk 4 (a null stop_reason never ends a turn),
	// and these Claude Code 2.0.x-era files write null on every line, so it must flag them there.
	it.each([
		'claude-code-log/test/test_data/real_projects/-src-experiments-claude_p/29ccd257-68b1-427f-ae5f-6524b7cb6f20.jsonl',
		'claude-code-log/test/test_data/real_projects/-src-deep-manifest/agent-c8d9b115.jsonl'
	])('the finished-reply check flags romp mode on %s', (rel) => {
		const romp = parseFile(join(CORPUS, rel), 'romp');
		expect(finishedButOpen(romp.text, romp.result).length).toBeGreaterThan(0);
		const viewer = parseFile(join(CORPUS, rel));
		expect(finishedButOpen(viewer.text, viewer.result)).toEqual([]);
	});

	it('a pretty-printed JSON document (not JSONL) gives issues, not a throw', () => {
		const { result } = parseFile(join(CORPUS, 'claude-code-transcripts/tests/sample_session.json'));
		expect(result.issues.length).toBeGreaterThan(0);
		expect(result.session.turns).toEqual([]);
		expect(accountingAddsUp(result)).toBe(true);
	});
});
