// Session-list facts for a loaded session: a title (custom-title > ai-title > a `summary` record
// whose leafUuid lies in the session > the first human prompt > the id), start / end time, size,
// turn and atom counts. Titles are "last one wins" as Claude Code appends them.
import type { ParseResult } from '../model/index.ts';
import type { FileSummary, SessionMeta } from './types.ts';
import { clip, stripMarkers } from './prompt-text.ts';

/** Characters of a session title: one line of the session list. */
export const TITLE_MAX = 80;

export interface MetaInput {
	key: string;
	result: ParseResult;
	/** Summaries of the session's main files, leaf last. */
	mains: FileSummary[];
	/** Every file's `summary` records (older Claude Code wrote them into later files). */
	allSummaries?: { leafUuid: string | null; summary: string }[];
	bytes: number;
	subagents: number;
}

/** Only the title-bearing facts are read, so the head/tail scan's partial summaries serve too. */
export type TitleFacts = Pick<FileSummary, 'customTitle' | 'aiTitle' | 'summaries' | 'uuids' | 'firstPrompt'>;

export function titleOf(mains: TitleFacts[], allSummaries: { leafUuid: string | null; summary: string }[] = [], fallback = ''): string {
	const lastOf = (pick: (s: TitleFacts) => string | null) => {
		for (let i = mains.length - 1; i >= 0; i--) {
			const v = pick(mains[i]);
			if (v) return v;
		}
		return null;
	};
	const direct = lastOf((s) => s.customTitle) ?? lastOf((s) => s.aiTitle);
	if (direct) return clip(stripMarkers(direct), TITLE_MAX);
	const inSession = (u: string | null) => u !== null && mains.some((m) => m.uuids.has(u));
	const pool = [...mains.flatMap((m) => m.summaries), ...allSummaries];
	const summary = [...pool].reverse().find((s) => inSession(s.leafUuid))?.summary;
	if (summary) return clip(stripMarkers(summary), TITLE_MAX);
	const prompt = mains.map((m) => m.firstPrompt).find((p): p is string => !!p);
	if (prompt) return clip(prompt, TITLE_MAX);
	// A `summary` whose leafUuid is elsewhere describes another session: never a title here.
	return fallback;
}

export function sessionMeta(input: MetaInput): SessionMeta {
	const { result, mains } = input;
	let startedAt: number | null = null;
	let endedAt: number | null = null;
	for (const m of mains) {
		if (m.firstMs !== null && (startedAt === null || m.firstMs < startedAt)) startedAt = m.firstMs;
		if (m.lastMs !== null && (endedAt === null || m.lastMs > endedAt)) endedAt = m.lastMs;
	}
	const turns = result.session.turns;
	if (startedAt === null && turns.length) startedAt = turns[0].t * 1000;
	if (endedAt === null && turns.length) endedAt = turns[turns.length - 1].end * 1000;
	return {
		title: titleOf(mains, input.allSummaries, `Session ${input.key.slice(0, 8)}`),
		startedAt,
		endedAt,
		bytes: input.bytes,
		turns: turns.length,
		atoms: turns.reduce((n, t) => n + t.atoms.length, 0),
		subagents: input.subagents
	};
}

/** Newest first (by end, else start); sessions without times last, then by key. */
export function sortNewestFirst<T extends { key: string; startedAt: number | null; endedAt: number | null }>(list: T[]): T[] {
	const when = (s: T) => s.endedAt ?? s.startedAt ?? -Infinity;
	return [...list].sort((a, b) => when(b) - when(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
