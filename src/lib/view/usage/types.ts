// The shapes the usage view hands to the page: plain, structured-cloneable data (it crosses the
// worker boundary). Every sum is a Tally: tokens by kind, API calls counted, dollars for the
// priced calls, and how many calls had no price.
import type { Tokens } from './messages.ts';

export interface Tally extends Tokens {
	/** Distinct API calls. */
	messages: number;
	/** US dollars of the priced calls only. */
	costUsd: number;
	/** Calls whose model has no price (their tokens are counted, their cost is not). */
	unpricedMessages: number;
}

export interface ContextPoint {
	ms: number;
	/** Tokens in context at this call: input + cache read + cache write. */
	tokens: number;
	turnIndex: number;
	/** Where a click lands: the reply's first line (a subagent point: its delegation call). */
	atomUuid: string | null;
	model: string;
}

export interface ContextSeries {
	label: string;
	points: ContextPoint[];
}

export interface Compaction {
	ms: number;
	preTokens: number | null;
	postTokens: number | null;
	/** Tokens in context at the first API call after the compaction (Claude Code rarely records postTokens). */
	nextContext: number | null;
	trigger: string | null;
	atomUuid: string | null;
	turnIndex: number;
}

export interface ToolStat {
	name: string;
	calls: number;
	errors: number;
	/** Call → result wall time, summed over the calls whose result arrived. */
	wallMs: number;
	/** Cost of the calls that requested this tool, shared evenly among the tools each requested. */
	costUsd: number;
	/** First call of this tool (a landing target). */
	atomUuid: string | null;
}

export interface SubagentUsage {
	/** The Task / Agent tool_use id, or the file for a child not tied to a call. */
	id: string;
	label: string;
	tally: Tally;
	/** The delegation call in the main chat, when known. */
	atomUuid: string | null;
}

export interface TurnUsage {
	turnIndex: number;
	startMs: number;
	durationMs: number;
	atomUuid: string | null;
	gist: string;
	tally: Tally;
}

export interface SegmentUsage {
	messages: number;
	tokens: number;
	costUsd: number;
	unpricedMessages: number;
}

export interface ModelUsage extends Tally {
	/** Whether the price table knows this model. */
	priced: boolean;
	/** The price table's name for it. */
	name: string | null;
	contextWindow: number | null;
}

export interface SessionUsage {
	priceSource: string;
	priceSourceDate: string;
	/** Main transcript + every subagent, rewound branches included. */
	total: Tally;
	main: Tally;
	/** Of the total: calls on lines the chat does not show (rewound or cleared branches). */
	offPath: Tally;
	models: Record<string, ModelUsage>;
	serviceTiers: Record<string, number>;
	subagents: SubagentUsage[];
	/** Per turn of the main transcript (its subagents' cost included). */
	turns: TurnUsage[];
	/** Per segment id of the main transcript (subagents called from it included). */
	segments: Record<string, SegmentUsage>;
	tools: ToolStat[];
	files: { path: string; touches: number; atomUuid: string | null }[];
	longestTurns: TurnUsage[];
	compactions: Compaction[];
	context: { limit: number | null; main: ContextSeries; subagents: ContextSeries[] };
	/** Cumulative cost (priced calls) over time, main and subagents together. */
	cost: { ms: number; usd: number }[];
	wall: { spanMs: number; workedMs: number; idleMs: number };
	/** Cost and tokens by UTC day (YYYY-MM-DD), main and subagents together. */
	days: Record<string, { costUsd: number; tokens: number }>;
	/** Time spent computing all of this, ms (for the benchmark). */
	computeMs: number;
}

export interface SessionUsageSummary {
	key: string;
	title: string;
	startedAt: number | null;
	total: Tally;
	segments: Record<string, SegmentUsage>;
	/** Cost and tokens by UTC day (YYYY-MM-DD). */
	days: Record<string, { costUsd: number; tokens: number }>;
}

export interface ProjectUsage {
	priceSourceDate: string;
	total: Tally;
	models: Record<string, ModelUsage>;
	sessions: SessionUsageSummary[];
	days: { day: string; costUsd: number; tokens: number }[];
	/** Summed over the sessions (a tool's atomUuid is its first call in the first session using it). */
	tools: ToolStat[];
	turns: number;
	wall: { workedMs: number; idleMs: number };
}
