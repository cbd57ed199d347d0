// API messages out of atoms: the one place that decides what "one API call" is. Claude Code
// splits one response over several lines (one per content block), each repeating the message's
// usage; a resumed session may replay lines it already holds. So a call is keyed by its
// `message.id` (else the line's uuid), counted once, and its usage is the LAST line's (the one
// carrying the final output count). The chat's per-turn token line uses the same rule.
// offPathCalls adds the calls whose lines show no atom (a rewound branch was billed too).
import type { Atom, LineCall, ParseResult, Usage } from '../../model/types.ts';

/** Token counts of one API call (or a sum of calls). */
export interface Tokens {
	input: number;
	output: number;
	cacheRead: number;
	/** All cache writes; cacheWrite5m + cacheWrite1h when the record splits them. */
	cacheWrite: number;
	cacheWrite5m: number;
	cacheWrite1h: number;
	webSearches: number;
}

/** One API call, placed where its first line sits. */
export interface ApiCall extends Tokens {
	key: string;
	model: string;
	serviceTier: string | null;
	/** Epoch ms of the first line (else whole seconds × 1000). */
	ms: number;
	/** uuid of the first line: the landing target for "this reply". */
	atomUuid: string | null;
	/** Index of the first line's atom in the list given to collectCalls. */
	firstIndex: number;
	/** tool_use names the call made (every line's blocks). */
	tools: string[];
}

export const zeroTokens = (): Tokens => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite5m: 0, cacheWrite1h: 0, webSearches: 0 });

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const rec = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** Token counts of one usage record. A write split that does not add up is trusted for the 1h part only. */
export function tokensOf(u: Usage): Tokens {
	const cacheWrite = num(u.cache_creation_input_tokens);
	const split = rec(u.cache_creation);
	const w1h = split ? Math.min(num(split.ephemeral_1h_input_tokens), cacheWrite) : 0;
	return {
		input: num(u.input_tokens),
		output: num(u.output_tokens),
		cacheRead: num(u.cache_read_input_tokens),
		cacheWrite,
		cacheWrite5m: cacheWrite - w1h,
		cacheWrite1h: w1h,
		webSearches: num(rec(u.server_tool_use)?.web_search_requests)
	};
}

export function addTokens(into: Tokens, t: Tokens): void {
	into.input += t.input;
	into.output += t.output;
	into.cacheRead += t.cacheRead;
	into.cacheWrite += t.cacheWrite;
	into.cacheWrite5m += t.cacheWrite5m;
	into.cacheWrite1h += t.cacheWrite1h;
	into.webSearches += t.webSearches;
}

/** Tokens in the context window at a call: everything the call read as input. */
export const contextOf = (t: Tokens): number => t.input + t.cacheRead + t.cacheWrite;
export const totalOf = (t: Tokens): number => t.input + t.output + t.cacheRead + t.cacheWrite;

/** The identity of the API call an assistant atom belongs to, or null for other atoms. */
export function callKey(a: Atom): string | null {
	if (a.type !== 'assistant' || !a.message || !rec(a.message.usage)) return null;
	return a.messageId ?? a.uuid ?? `${a.t}`;
}

/**
 * The API calls among `atoms`, in order of first appearance. `seen` carries keys already counted
 * elsewhere (another turn, a subagent transcript), so a replayed message is never counted twice.
 */
export function collectCalls(atoms: readonly Atom[], seen: Set<string> = new Set()): ApiCall[] {
	const out: ApiCall[] = [];
	const mine = new Map<string, ApiCall>();
	for (let i = 0; i < atoms.length; i++) {
		const a = atoms[i];
		const key = callKey(a);
		if (key === null) continue;
		let call = mine.get(key);
		if (!call) {
			if (seen.has(key)) continue;
			seen.add(key);
			call = {
				key,
				model: a.message!.model ?? 'unknown',
				serviceTier: null,
				ms: a.ms ?? a.t * 1000,
				atomUuid: a.uuid,
				firstIndex: i,
				tools: [],
				...zeroTokens()
			};
			mine.set(key, call);
			out.push(call);
		}
		const usage = a.message!.usage as Usage;
		Object.assign(call, tokensOf(usage));
		if (typeof usage.service_tier === 'string') call.serviceTier = usage.service_tier;
		for (const b of a.message!.content ?? []) if (b && b.type === 'tool_use' && typeof b.name === 'string') call.tools.push(b.name);
	}
	return out;
}

/**
 * The API calls recorded only on lines that show no atom (a rewound or cleared branch, a skipped
 * line), keyed like collectCalls (message.id, else the line's uuid) and skipping keys in `seen`; of
 * several lines of one call the one with the most tokens (ccusage's rule, docs/usage-counting.md).
 */
export function offPathCalls(results: readonly Pick<ParseResult, 'offPath' | 'metadata'>[], seen: Set<string>): ApiCall[] {
	const mine = new Map<string, ApiCall>();
	const take = (l: { file: string; line: number; uuid?: string | null; call?: LineCall }) => {
		const c = l.call;
		if (!c) return;
		const key = c.messageId ?? l.uuid ?? `${l.file}#${l.line}`;
		if (seen.has(key)) return;
		const t = tokensOf(c.usage);
		const had = mine.get(key);
		if (had && totalOf(had) >= totalOf(t)) return;
		mine.set(key, { key, model: c.model ?? 'unknown', serviceTier: typeof c.usage.service_tier === 'string' ? c.usage.service_tier : null, ms: c.ms ?? 0, atomUuid: null, firstIndex: -1, tools: [], ...t });
	};
	for (const r of results) {
		for (const l of r.offPath) take(l);
		for (const l of r.metadata) take(l);
	}
	for (const k of mine.keys()) seen.add(k);
	return [...mine.values()].sort((a, b) => a.ms - b.ms);
}
