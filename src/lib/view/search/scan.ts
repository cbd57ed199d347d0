// The search scan: runs a compiled query over a session's fields, a slice at a time, so the
// caller (the worker) can yield between slices, stream hits back as they are found and drop a
// query a newer keystroke replaced. A straight scan, not an index: substring, whole-word and
// regex semantics all need the text itself, and V8's RegExp over the rows' own strings (a
// Boyer-Moore search for literal queries) scans the 24 M characters of the 100 MB bench session
// in tens of milliseconds with no copy at all, where a lower-cased copy would cost its size in
// memory and an inverted index more still (figures: `npm run bench:browser`).
import type { FieldAuthor, FieldKind, SearchField } from './fields.ts';
import { findAll, foldDiacritics, type Matcher } from './query.ts';

/** Which fields a query looks at; an empty or absent list means "all". */
export interface SearchScope {
	authors?: FieldAuthor[];
	kinds?: FieldKind[];
	/** Tool names, compared case-insensitively. */
	tools?: string[];
	/** Failed tool calls only (their output, an `error` field with a tool). */
	failedCalls?: boolean;
}

export interface Snippet {
	/** Text around the first match, on one line. */
	text: string;
	/** Match ranges [start, end) inside `text`. */
	ranges: [number, number][];
	/** Matched text of the first match, as written (the landing highlights it in the row). */
	match: string;
}

export interface SearchHit {
	sessionKey: string;
	atomUuid: string;
	row: number;
	turnIndex: number;
	ms: number | null;
	kind: FieldKind;
	author: FieldAuthor;
	tool: string | null;
	subagent: string[];
	/** The hit is on a rewound branch (inside a "Rewound here" fold). */
	rewound: boolean;
	opens: SearchField['opens'];
	/** Matches in this field (capped at MAX_MATCHES_PER_FIELD). */
	matches: number;
	snippet: Snippet;
}

/** Matches counted per field for its "n×" label (the snippet needs only the first few). */
export const MAX_MATCHES_PER_FIELD = 20;
const SNIPPET_BEFORE = 40;
const SNIPPET_CHARS = 160;

export function inScope(f: SearchField, scope: SearchScope | undefined): boolean {
	if (!scope) return true;
	if (scope.authors?.length && !scope.authors.includes(f.author)) return false;
	if (scope.kinds?.length && !scope.kinds.includes(f.kind)) return false;
	if (scope.failedCalls && !(f.kind === 'error' && f.tool)) return false;
	if (scope.tools?.length) {
		if (!f.tool) return false;
		const t = f.tool.toLowerCase();
		if (!scope.tools.some((x) => x.toLowerCase() === t)) return false;
	}
	return true;
}

/** A per-session cache of diacritic-folded field texts, built on the first such query. */
export type FoldedTexts = (string | undefined)[];

/**
 * Scans fields [from, to) and returns the hits (at most `maxHits` with snippets; `counted` is
 * every matching field). `folded` holds diacritic-folded texts when the matcher needs them.
 * `ids`, when given, gets the atom of every matching field (hits past maxHits too), in order.
 */
export function scanFields(
	fields: readonly SearchField[],
	from: number,
	to: number,
	m: Matcher,
	scope: SearchScope | undefined,
	sessionKey: string,
	maxHits: number,
	folded?: FoldedTexts,
	ids?: string[]
): { hits: SearchHit[]; counted: number } {
	const hits: SearchHit[] = [];
	let counted = 0;
	const re = m.re;
	for (let i = from; i < to && i < fields.length; i++) {
		const f = fields[i];
		if (!inScope(f, scope)) continue;
		let text = f.text;
		if (m.diacritics) {
			if (folded) text = folded[i] ??= foldDiacritics(f.text);
			else text = foldDiacritics(f.text);
		}
		re.lastIndex = 0;
		if (!re.test(text)) continue;
		counted++;
		ids?.push(f.atomUuid);
		if (hits.length < maxHits) hits.push(hitOf(f, m, sessionKey));
	}
	re.lastIndex = 0;
	return { hits, counted };
}

function hitOf(f: SearchField, m: Matcher, sessionKey: string): SearchHit {
	const ranges = findAll(m, f.text, MAX_MATCHES_PER_FIELD);
	return {
		sessionKey,
		atomUuid: f.atomUuid,
		row: f.row,
		turnIndex: f.turnIndex,
		ms: f.ms,
		kind: f.kind,
		author: f.author,
		tool: f.tool,
		subagent: f.subagent,
		rewound: f.rewound,
		opens: f.opens,
		matches: ranges.length,
		snippet: snippetOf(f.text, ranges)
	};
}

/** A one-line excerpt around the first match, with every match range that falls inside it. */
export function snippetOf(text: string, ranges: [number, number][]): Snippet {
	if (!ranges.length) return { text: oneLine(text.slice(0, SNIPPET_CHARS)), ranges: [], match: '' };
	const [s0, e0] = ranges[0];
	let start = Math.max(0, s0 - SNIPPET_BEFORE);
	// Start at a word edge when one is near, so the excerpt does not open mid-word.
	const space = text.lastIndexOf(' ', s0);
	if (space >= start && s0 - space < SNIPPET_BEFORE) start = space + 1;
	const end = Math.min(text.length, Math.max(e0, start + SNIPPET_CHARS));
	const prefix = start > 0 ? '…' : '';
	const body = oneLine(text.slice(start, end));
	const out: [number, number][] = [];
	for (const [s, e] of ranges) {
		if (s >= end) break;
		if (s >= start) out.push([prefix.length + s - start, prefix.length + Math.min(e, end) - start]);
	}
	return { text: prefix + body + (end < text.length ? '…' : ''), ranges: out, match: text.slice(s0, e0) };
}

/** Newlines and tabs as spaces (same length, so ranges stay valid). */
function oneLine(s: string): string {
	return s.replace(/[\n\r\t]/g, ' ');
}
