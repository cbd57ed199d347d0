// Strap round trip over the real corpus: every Claude Code session exported as Strap JSON and
// dropped back in through the real ingest path (classified by content as Strap, read by
// model/strap) draws the same chat rows as the original, once the original's rows are reduced by
// exactly what the export's `loupe.leftOut` says it leaves out. Each reduction is switched on by
// the leftOut line that announces it, so an export that starts (or stops) carrying something
// changes what this test expects instead of being excused by it.
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import { CORPUS, dropFolder } from '../../ingest/test-helpers.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import type { MetadataLine } from '../../model/types.ts';
import { buildChatRows, type ChatRow, type ToolCallView } from '../chat/index.ts';
import { recordRow } from '../chat/records.ts';
import { exportSession, type ExportChild, type ExportSource, type StrapState } from './index.ts';

/** What an export's leftOut lines say is gone, each read from the line that says so. */
export interface LeftOut {
	thinking: boolean;
	images: boolean;
	/** Content blocks the chat shows as raw cards. */
	otherBlocks: boolean;
	/** Records that are no atom and that nobody names (raw cards). */
	unnamedRecords: boolean;
	/** Records that are no atom but that the chat names (hook notes, recaps, retried API errors). */
	namedRecords: boolean;
	/** Command output / skill / API error rows that come back as plain harness notices. */
	retyped: boolean;
}

export function leftOutOf(state: StrapState): LeftOut {
	const says = (re: RegExp) => state.loupe.leftOut.some((l) => re.test(l));
	return {
		thinking: says(/thinking block/),
		images: says(/image/),
		otherBlocks: says(/other content block/),
		unnamedRecords: says(/records Loupe could not name/),
		namedRecords: says(/system record\(s\) outside the conversation/),
		retyped: says(/written as plain harness messages/)
	};
}

// Timestamps, token usage and file provenance are listed on every export: so no row's `ms`,
// durations, `turnUsage`, token totals or uuids are compared — only what the rows say.
// The result line's facts travel as `structuredContent`, so what the renderers draw from them
// (stdout / stderr, diffs) comes back too.
const callOf = (c: ToolCallView, lo: LeftOut) => ({
	name: c.name,
	input: c.inputJson,
	output: c.output,
	status: c.status,
	stdout: c.stdout,
	stderr: c.stderr,
	diffs: c.diffs?.map((d) => ({ path: d.path, added: d.added, removed: d.removed, mode: d.mode })),
	...(lo.images ? {} : { images: c.images.length })
});

/** The rows as a list of what a reader sees, reduced by what the export says it leaves out. */
export function comparable(rows: ChatRow[], lo: LeftOut): unknown[] {
	const out: unknown[] = [];
	for (const r of rows) {
		// Groups depend on thinking between runs and on times: compare the calls, not the grouping.
		if (r.kind === 'tool-group') {
			for (const e of r.entries) {
				if (e.kind === 'tool') out.push({ kind: 'tool', ...callOf(e.call, lo) });
				else if (!lo.thinking) out.push({ kind: 'thinking', text: e.text });
			}
			continue;
		}
		switch (r.kind) {
			case 'user':
				if (lo.images && !r.text.trim()) break;
				out.push({ kind: 'user', author: r.author.kind, text: r.text, ...(lo.images ? {} : { images: r.images.length }) });
				break;
			case 'assistant':
				out.push({ kind: 'assistant', text: r.text });
				break;
			case 'thinking':
				if (!lo.thinking) out.push({ kind: 'thinking', text: r.text });
				break;
			case 'tool':
				out.push({ kind: 'tool', ...callOf(r.call, lo) });
				break;
			case 'question':
			case 'approval':
				out.push({ kind: r.kind, ...callOf(r.call, lo) });
				break;
			case 'delegation':
				out.push({
					kind: 'delegation',
					description: r.description,
					agentType: r.agentType,
					prompt: r.prompt,
					result: r.result,
					status: r.status,
					children: r.childRows ? comparable(r.childRows, lo) : null
				});
				break;
			case 'compaction':
				out.push({ kind: 'compaction', summary: r.summary, trigger: r.trigger, preTokens: r.preTokens });
				break;
			case 'error':
				out.push(lo.retyped ? { kind: 'notice', text: r.text } : { kind: 'error', text: r.text });
				break;
			case 'notice':
				// An interruption is recognised from its text, so it survives as itself.
				out.push(lo.retyped && r.noticeKind !== 'interrupt' ? { kind: 'notice', text: r.text } : { kind: 'notice', noticeKind: r.noticeKind, text: r.text });
				break;
			case 'raw':
				// Records were dropped before the rows were built (originalRows): these come from atoms.
				if (!lo.otherBlocks) out.push({ kind: 'raw', json: r.json });
				break;
		}
	}
	return out;
}

function sourceOf(s: LoadedSession): ExportSource {
	return { key: s.key, title: s.title, startedAt: s.startedAt, endedAt: s.endedAt, session: s.result.session, children: s.children as Record<string, ExportChild>, metadata: s.result.metadata };
}

/** Records (no atom) the export announced it leaves out, by the row the chat would give them. */
function keptRecords(metadata: MetadataLine[] | undefined, lo: LeftOut): MetadataLine[] {
	return (metadata ?? []).filter((m) => {
		const row = recordRow(m, '', 0);
		if (!row) return true;
		return row.kind === 'raw' ? !lo.unnamedRecords : !lo.namedRecords;
	});
}

/** The original's rows, without the records the export announced it leaves out. */
function originalRows(s: LoadedSession, lo: LeftOut): ChatRow[] {
	const children = Object.fromEntries(Object.entries(s.children).map(([id, c]) => [id, { ...c, result: { ...c.result, metadata: keptRecords(c.result.metadata, lo) } }]));
	return buildChatRows(s.result.session, children, { metadata: keptRecords(s.result.metadata, lo) });
}

async function roundTrip(s: LoadedSession): Promise<{ state: StrapState; back: LoadedSession }> {
	const text = (await exportSession(sourceOf(s), 'strap', { redactor: null, redaction: 'off' })).text;
	const out = await loadSessions([{ path: `${s.meta.title ?? 'session'}.strap.json`.replace(/[/\\]/g, '_'), blob: new Blob([text]) }]);
	expect(out.sessions, s.key).toHaveLength(1);
	return { state: JSON.parse(text) as StrapState, back: out.sessions[0] };
}

describe('Strap export → import round trip over the corpus', () => {
	it('every Claude Code session loads back from its Strap export to the same rows', async () => {
		const { sessions } = await loadSessions(dropFolder(CORPUS));
		expect(sessions.length).toBeGreaterThan(5);
		let delegations = 0;
		let compactions = 0;
		for (const s of sessions) {
			const { state, back } = await roundTrip(s);
			expect(back.files.map((f) => [f.kind, f.harness]), s.key).toEqual([['transcript', 'strap']]);
			const lo = leftOutOf(state);
			const want = comparable(originalRows(s, lo), lo);
			const got = comparable(buildChatRows(back.result.session, back.children, { metadata: back.result.metadata }), lo);
			expect(got, s.key).toEqual(want);
			const kinds = JSON.stringify(want);
			delegations += (kinds.match(/"kind":"delegation"/g) ?? []).length;
			compactions += (kinds.match(/"kind":"compaction"/g) ?? []).length;
		}
		// The corpus exercises what the round trip is about: forks with child rows, and compactions.
		expect(delegations).toBeGreaterThanOrEqual(8);
		expect(compactions).toBeGreaterThanOrEqual(1);
	});
});
