// The billing facts of transcript lines: which line records a billed API call, and what it says
// (identity, model, usage, its own time). One predicate serves the model (accounting.ts gives an
// off-path or metadata line its `call`) and the usage pass (billedLines reads a whole Claude Code
// file's text without building anything), so both find the same calls on the same lines.
//
// billedLines is fast because most of a transcript's bytes are tool output and prompts, never
// decoded here: the bytes are searched for the key "usage" (Horspool's skip search) and only the
// lines holding it are decoded and parsed; the lines between are only counted. No JSON writer
// escapes the letters of a key, so a plain search finds every such line a writer makes; a key
// spelled with \u escapes is found by the model's full read only (docs/usage-counting.md).
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

/** The bytes of `"usage"`, and Horspool's shift for each byte value (how far the window may move). */
const KEY = [0x22, 0x75, 0x73, 0x61, 0x67, 0x65, 0x22];
const SHIFT = (() => {
	const t = new Uint8Array(256).fill(KEY.length);
	for (let i = 0; i < KEY.length - 1; i++) t[KEY[i]] = KEY.length - 1 - i;
	return t;
})();

/** The next `"usage"` in bytes from `from`, or -1. */
function nextKey(b: Uint8Array, from: number): number {
	const m = KEY.length;
	for (let i = from + m - 1; i < b.length; i += SHIFT[b[i]]) {
		if (b[i] !== 0x22) continue;
		let k = 1;
		while (k < m && b[i - k] === KEY[m - 1 - k]) k++;
		if (k === m) return i - m + 1;
	}
	return -1;
}

/** How many "\n" bytes b[from..to) holds: four bytes a step through a word view where aligned
 *  (a word with no newline byte is passed over with one test). */
function newlines(b: Uint8Array, from: number, to: number): number {
	let n = 0;
	let i = from;
	const offset = b.byteOffset;
	while (i < to && ((offset + i) & 3) !== 0) if (b[i++] === 10) n++;
	const count = (to - i) >> 2;
	if (count > 8) {
		const words = new Uint32Array(b.buffer, offset + i, count);
		for (let w = 0; w < count; w++) {
			const x = words[w] ^ 0x0a0a0a0a;
			if (((x - 0x01010101) & ~x & 0x80808080) === 0) continue;
			const at = i + 4 * w;
			n += (b[at] === 10 ? 1 : 0) + (b[at + 1] === 10 ? 1 : 0) + (b[at + 2] === 10 ? 1 : 0) + (b[at + 3] === 10 ? 1 : 0);
		}
		i += count * 4;
	}
	for (; i < to; i++) if (b[i] === 10) n++;
	return n;
}

/**
 * Every line of a Claude Code transcript's bytes that records a call, in line order. Lines are
 * numbered as RecordReader numbers them (every "\n" ends one, blank lines too); a line that is
 * not a JSON object is skipped, as the model reads none of it. The decoder keeps a BOM, as
 * RecordReader's does: only the file's first line may start with one.
 */
export function billedLines(bytes: Uint8Array, decoder = new TextDecoder('utf-8', { ignoreBOM: true })): BilledLine[] {
	const out: BilledLine[] = [];
	let line = 1; // the number of the line that starts at `counted`
	let counted = 0;
	for (let hit = nextKey(bytes, 0); hit >= 0; ) {
		const start = hit === 0 ? 0 : bytes.lastIndexOf(10, hit - 1) + 1;
		let end = bytes.indexOf(10, hit);
		if (end < 0) end = bytes.length;
		line += newlines(bytes, counted, start);
		counted = start;
		const v = parsedLine(bytes, start, end, decoder);
		const call = v ? lineCallOf(v) : null;
		if (call) {
			const problem = usageProblem(call.usage);
			out.push(problem ? { line, call, problem } : { line, call });
		}
		hit = end < bytes.length ? nextKey(bytes, end + 1) : -1;
	}
	return out;
}

/** The line bytes[start, end) as an object, as RecordReader reads it (BOM and CR dropped), or null. */
function parsedLine(b: Uint8Array, start: number, end: number, decoder: TextDecoder): Record<string, unknown> | null {
	if (start === 0 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) start = 3;
	if (end > start && b[end - 1] === 13) end--;
	try {
		const v: unknown = JSON.parse(decoder.decode(b.subarray(start, end)));
		return isObj(v) ? v : null;
	} catch {
		return null;
	}
}
