// The billing facts of transcript lines: which line records a billed API call, and what it says
// (identity, model, usage, its own time). One predicate serves the model (accounting.ts gives an
// off-path or metadata line its `call`) and the usage pass (billedLines reads a whole Claude Code
// file's text without building anything), so both find the same calls on the same lines.
//
// billedLines is fast because most of a transcript's bytes are tool output and prompts, never
// parsed here: only lines that contain the key "usage" are. A key can hide from that search only
// behind a \u escape of one of its letters, which no JSON writer produces; a line with such an
// escape is parsed too, so the answer is the same for any input.
import type { LineCall, Usage } from './types.ts';
import { isObj } from './text.ts';
import { parseTimestamp } from './timestamp.ts';

/** A line that records a call, with its 1-based physical line number. */
export interface BilledLine {
	line: number;
	call: LineCall;
	/** Usage fields that are present but not non-negative numbers (counted as 0), named. */
	problem?: string;
}

const USAGE_FIELDS = ['input_tokens', 'output_tokens', 'cache_read_input_tokens', 'cache_creation_input_tokens'] as const;

/** The billing facts of a record: an `assistant` line whose `message.usage` is an object; else null. */
export function lineCallOf(v: Record<string, unknown>): LineCall | null {
	if (v.type !== 'assistant') return null;
	const m = v.message;
	if (!isObj(m) || !isObj(m.usage)) return null;
	return {
		messageId: typeof m.id === 'string' && m.id ? m.id : null,
		requestId: typeof v.requestId === 'string' && v.requestId ? v.requestId : null,
		model: typeof m.model === 'string' ? m.model : null,
		usage: m.usage as Usage,
		// Only the line's own time: a line without one counts in totals, in no period.
		ms: parseTimestamp(v.timestamp)?.ms ?? null,
		sidechain: v.isSidechain === true
	};
}

/** Names the usage fields that are set but are not non-negative finite numbers (null: none). */
export function usageProblem(u: Usage): string | null {
	const bad = USAGE_FIELDS.filter((k) => u[k] !== undefined && u[k] !== null && !(typeof u[k] === 'number' && Number.isFinite(u[k]) && (u[k] as number) >= 0));
	return bad.length ? `usage ${bad.map((k) => `${k} ${JSON.stringify(u[k]).slice(0, 30)}`).join(', ')} is not a token count (counted as 0)` : null;
}

/** A \u escape of one of the letters of "usage" (u 75, s 73, a 61, g 67, e 65), any hex case. */
const ESCAPED_LETTER = /\\u00(?:7[35]|6[157])/i;

/**
 * Every line of a Claude Code transcript's text that records a call, in line order. Lines are
 * counted as RecordReader counts them (every "\n" ends one, blank lines too); a line that is
 * not a JSON object is skipped, as the model reads none of it.
 */
export function billedLines(text: string): BilledLine[] {
	const out: BilledLine[] = [];
	let line = 1; // the number of the line that starts at `counted`
	let counted = 0;
	let from = 0;
	const escapes = text.indexOf('\\u00') >= 0;
	while (from < text.length) {
		const hit = nextCandidate(text, from, escapes);
		if (hit < 0) break;
		const start = text.lastIndexOf('\n', hit) + 1;
		let end = text.indexOf('\n', hit);
		if (end < 0) end = text.length;
		for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < start; nl = text.indexOf('\n', nl + 1)) line++;
		counted = start;
		const found = parsedLine(text, start, end);
		const call = found ? lineCallOf(found) : null;
		if (call) {
			const problem = usageProblem(call.usage);
			out.push(problem ? { line, call, problem } : { line, call });
		}
		from = end + 1;
	}
	return out;
}

/** The next place from `from` that may be a "usage" key: the plain key, or a \u-escaped letter. */
function nextCandidate(text: string, from: number, escapes: boolean): number {
	const plain = text.indexOf('"usage"', from);
	if (!escapes) return plain;
	for (let at = text.indexOf('\\u00', from); at >= 0 && (plain < 0 || at < plain); at = text.indexOf('\\u00', at + 1)) {
		if (ESCAPED_LETTER.test(text.slice(at, at + 6))) return at;
	}
	return plain;
}

/** The line [start, end) as an object, as RecordReader reads it (BOM and CR dropped), or null. */
function parsedLine(text: string, start: number, end: number): Record<string, unknown> | null {
	if (start === 0 && text.charCodeAt(0) === 0xfeff) start = 1;
	if (end > start && text.charCodeAt(end - 1) === 13) end--;
	try {
		const v: unknown = JSON.parse(text.slice(start, end));
		return isObj(v) ? v : null;
	} catch {
		return null;
	}
}
