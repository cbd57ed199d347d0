// Session accounting: one pass over a session and its subagent transcripts that prices every API
// call once (those on rewound branches too, summed apart as offPath) and sums it every way the
// usage panel shows — per model, turn, segment, subagent, tool and UTC day — plus the chart series (context at each call, cumulative cost) and the
// insight figures (wall time worked vs idle, tool failures, files touched, longest turns,
// compactions). Pure data in, plain data out: the worker calls it, tests feed it fixtures.
import { atomText, segmentsOf } from '../../model/index.ts';
import type { Atom, ParseResult, Session, Turn } from '../../model/types.ts';
import { addTokens, collectCalls, contextOf, offPathCalls, totalOf, zeroTokens, type ApiCall } from './messages.ts';
import { contextWindowOf, findModel, PRICES, pricedCost, type PriceTable } from './prices.ts';
import type { Compaction, ContextPoint, ModelUsage, SegmentUsage, SessionUsage, SubagentUsage, Tally, ToolStat, TurnUsage } from './types.ts';

/** What accounting needs of a loaded session (ingest's LoadedSession fits). */
export interface UsageSource {
	result: Pick<ParseResult, 'session'> & Partial<Pick<ParseResult, 'offPath' | 'metadata'>>;
	children: Record<string, { toolUseId: string; agentType?: string | null; description?: string | null; result: Pick<ParseResult, 'session'> & Partial<Pick<ParseResult, 'offPath' | 'metadata'>> }>;
	unattached?: { file: string; agentId: string | null; result: Pick<ParseResult, 'session'> & Partial<Pick<ParseResult, 'offPath' | 'metadata'>> }[];
}

export interface UsageOptions {
	table?: PriceTable;
	/** Most points per chart series; longer series keep each bucket's peak. */
	maxPoints?: number;
	/** How many files / longest turns to list. */
	top?: number;
}

export const zeroTally = (): Tally => ({ ...zeroTokens(), messages: 0, costUsd: 0, unpricedMessages: 0 });

export function addTally(into: Tally, t: Tally): void {
	addTokens(into, t);
	into.messages += t.messages;
	into.costUsd += t.costUsd;
	into.unpricedMessages += t.unpricedMessages;
}

/** A priced call: its cost, or null when its model has no price and it used tokens. */
interface Priced {
	call: ApiCall;
	cost: number | null;
}

function countCall(into: Tally, p: Priced): void {
	addTokens(into, p.call);
	into.messages++;
	if (p.cost === null) into.unpricedMessages++;
	else into.costUsd += p.cost;
}

function price(call: ApiCall, table: PriceTable): Priced {
	return { call, cost: pricedCost(call.model, call.ms, call, table) };
}

// A call with no usable time (some harnesses record none) counts under no day, never throws.
const dayOf = (ms: number): string => (Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : 'no date');

interface ToolCallSeen {
	name: string;
	ms: number | null;
	atomUuid: string | null;
	/** Where the main chat shows this call: its own atom, or (inside a subagent) the delegation's. */
	landing: string | null;
	turnIndex: number;
	segmentId: string | null;
}

class Accumulator {
	readonly total = zeroTally();
	readonly models: Record<string, ModelUsage> = {};
	readonly serviceTiers: Record<string, number> = {};
	readonly days: Record<string, { costUsd: number; tokens: number }> = {};
	readonly tools = new Map<string, ToolStat>();
	readonly toolCalls = new Map<string, ToolCallSeen>();
	readonly results = new Map<string, { ms: number | null; error: boolean }>();
	readonly files = new Map<string, { path: string; touches: number; atomUuid: string | null }>();
	readonly cost: { ms: number; usd: number }[] = [];
	constructor(readonly table: PriceTable) {}

	call(p: Priced): void {
		countCall(this.total, p);
		const m = p.call.model;
		let mu = this.models[m];
		if (!mu) {
			const entry = findModel(m, this.table);
			mu = this.models[m] = { ...zeroTally(), priced: !!entry, name: entry?.name ?? null, contextWindow: entry?.contextWindow ?? null };
		}
		countCall(mu, p);
		const tier = p.call.serviceTier ?? 'unknown';
		this.serviceTiers[tier] = (this.serviceTiers[tier] ?? 0) + 1;
		const d = (this.days[dayOf(p.call.ms)] ??= { costUsd: 0, tokens: 0 });
		d.costUsd += p.cost ?? 0;
		d.tokens += totalOf(p.call);
		if (p.cost) this.cost.push({ ms: p.call.ms, usd: p.cost });
		const share = p.call.tools.length ? (p.cost ?? 0) / p.call.tools.length : 0;
		for (const name of p.call.tools) this.tool(name).costUsd += share;
	}

	tool(name: string): ToolStat {
		let t = this.tools.get(name);
		if (!t) this.tools.set(name, (t = { name, calls: 0, errors: 0, wallMs: 0, costUsd: 0, atomUuid: null }));
		return t;
	}

	/** tool_use / tool_result blocks and touched files of one atom. A call remembers its turn and
	 *  segment, so a subagent's cost lands where it was asked for. */
	scan(a: Atom, turnIndex: number, segmentId: string | null, landing: string | null = a.uuid): void {
		const content = a.message?.content;
		if (!Array.isArray(content)) return;
		const ms = a.ms ?? a.t * 1000;
		for (const b of content) {
			if (!b || typeof b !== 'object') continue;
			if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string') {
				if (this.toolCalls.has(b.id)) continue;
				this.toolCalls.set(b.id, { name: b.name, ms, atomUuid: a.uuid, landing, turnIndex, segmentId });
				const t = this.tool(b.name);
				t.calls++;
				t.atomUuid ??= landing;
				const input = b.input as Record<string, unknown> | null;
				const path = input && typeof input === 'object' ? (input.file_path ?? input.notebook_path) : null;
				if (typeof path === 'string' && path) {
					const f = this.files.get(path);
					if (f) f.touches++;
					else this.files.set(path, { path, touches: 1, atomUuid: landing });
				}
			} else if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !this.results.has(b.tool_use_id)) {
				this.results.set(b.tool_use_id, { ms, error: b.is_error === true });
			}
		}
	}

	finishTools(): ToolStat[] {
		for (const [id, c] of this.toolCalls) {
			const r = this.results.get(id);
			if (!r) continue;
			const t = this.tool(c.name);
			if (r.error) t.errors++;
			if (c.ms !== null && r.ms !== null && r.ms >= c.ms) t.wallMs += r.ms - c.ms;
		}
		return [...this.tools.values()].filter((t) => t.calls > 0).sort((a, b) => b.calls - a.calls || a.name.localeCompare(b.name));
	}
}

function point(p: Priced, turnIndex: number, atomUuid: string | null): ContextPoint {
	return { ms: p.call.ms, tokens: contextOf(p.call), turnIndex, atomUuid, model: p.call.model };
}

/** Every bucket's highest point, so peaks (what compacted) survive thinning. */
export function thinPeaks<T>(points: T[], max: number, value: (p: T) => number): T[] {
	if (points.length <= max) return points;
	const out: T[] = [];
	const size = points.length / max;
	for (let b = 0; b < max; b++) {
		const from = Math.floor(b * size);
		const to = Math.min(points.length, Math.floor((b + 1) * size));
		let best = from;
		for (let i = from + 1; i < to; i++) if (value(points[i]) > value(points[best])) best = i;
		out.push(points[best]);
	}
	return out;
}

/** Every bucket's last point (for a running total). */
function thinLast<T>(points: T[], max: number): T[] {
	if (points.length <= max) return points;
	const out: T[] = [];
	const size = points.length / max;
	for (let b = 1; b <= max; b++) out.push(points[Math.min(points.length, Math.floor(b * size)) - 1]);
	return out;
}

function gistOf(turn: Turn): string {
	const trigger = turn.trigger?.uuid ? turn.atoms.find((a) => a.uuid === turn.trigger!.uuid) : turn.atoms[0];
	const text = trigger ? atomText(trigger).trim() : '';
	const line = text.split('\n', 1)[0] ?? '';
	return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}

function childLabel(c: { agentType?: string | null; description?: string | null }, fallback: string): string {
	const parts = [c.agentType, c.description].filter((x): x is string => !!x);
	return parts.length ? parts.join(': ') : fallback;
}

/**
 * Children in an order where each comes after the transcript holding its delegation call: a nested
 * subagent's call sits in another child, and its cost follows that child's to the main turn.
 */
function parentsFirst<T extends { toolUseId: string | null }>(children: T[], known: (id: string) => boolean, session: (c: T) => Session): T[] {
	const out: T[] = [];
	const calls = new Set<string>();
	let pending = children;
	while (pending.length) {
		const ready = pending.filter((c) => c.toolUseId === null || known(c.toolUseId) || calls.has(c.toolUseId));
		// Whatever is left has no known parent (a cycle, a lost call): take it as it comes.
		const batch = ready.length ? ready : pending;
		for (const c of batch) {
			out.push(c);
			for (const t of session(c).turns) for (const a of t.atoms) for (const b of a.message?.content ?? []) if (b?.type === 'tool_use' && typeof b.id === 'string') calls.add(b.id);
		}
		pending = pending.filter((c) => !batch.includes(c));
	}
	return out;
}

/** Accounting, chart series and insights of one session with its subagents. */
export function sessionUsage(src: UsageSource, opts: UsageOptions = {}): SessionUsage {
	const started = performance.now();
	const table = opts.table ?? PRICES;
	const maxPoints = opts.maxPoints ?? 2000;
	const top = opts.top ?? 10;
	const session: Session = src.result.session;
	const acc = new Accumulator(table);
	const seen = new Set<string>();
	const main = zeroTally();
	const turns: TurnUsage[] = [];
	const segments: Record<string, SegmentUsage> = {};
	const mainPoints: ContextPoint[] = [];
	const compactions: Compaction[] = [];
	const modelCounts = new Map<string, number>();
	let workedMs = 0;
	let first = Infinity;
	let last = -Infinity;

	const addSegment = (id: string | null, p: Priced | Tally) => {
		if (id === null) return;
		const s = (segments[id] ??= { messages: 0, tokens: 0, costUsd: 0, unpricedMessages: 0 });
		if ('call' in p) {
			s.messages++;
			s.tokens += totalOf(p.call);
			if (p.cost === null) s.unpricedMessages++;
			else s.costUsd += p.cost;
		} else {
			s.messages += p.messages;
			s.tokens += totalOf(p);
			s.costUsd += p.costUsd;
			s.unpricedMessages += p.unpricedMessages;
		}
	};

	session.turns.forEach((turn, ti) => {
		const segs = segmentsOf(turn, session.rompUuid);
		// Segments are contiguous, ordered ranges: a cursor finds each atom's in O(1) as i grows.
		let cursor = 0;
		const segAt = (i: number): string | null => {
			if (cursor >= segs.length || i < segs[cursor].start) cursor = 0;
			while (cursor < segs.length - 1 && i >= segs[cursor].stop) cursor++;
			return segs[cursor]?.id ?? null;
		};
		const tally = zeroTally();
		let idle = 0;
		turn.atoms.forEach((a, i) => {
			if (a.type === 'idle' && typeof a.end === 'number' && a.end > a.t) idle += (a.end - a.t) * 1000;
			if (a.subtype === 'compact_boundary') {
				const m = a.compact_metadata;
				compactions.push({ ms: a.ms ?? a.t * 1000, preTokens: m?.pre_tokens ?? null, postTokens: m?.post_tokens ?? null, nextContext: null, trigger: m?.trigger ?? null, atomUuid: a.uuid, turnIndex: ti });
			}
			acc.scan(a, ti, segAt(i));
		});
		for (const call of collectCalls(turn.atoms, seen)) {
			const p = price(call, table);
			acc.call(p);
			countCall(main, p);
			countCall(tally, p);
			addSegment(segAt(call.firstIndex), p);
			mainPoints.push(point(p, ti, call.atomUuid));
			modelCounts.set(call.model, (modelCounts.get(call.model) ?? 0) + 1);
		}
		const startMs = turn.t * 1000;
		const durationMs = Math.max(0, (turn.end - turn.t) * 1000);
		workedMs += Math.max(0, durationMs - idle);
		first = Math.min(first, startMs);
		last = Math.max(last, startMs + durationMs);
		turns.push({ turnIndex: ti, startMs, durationMs, atomUuid: turn.trigger?.uuid ?? turn.atoms[0]?.uuid ?? null, gist: '', tally });
	});

	const subagents: SubagentUsage[] = [];
	const subSeries: { label: string; points: ContextPoint[] }[] = [];
	const children = [
		...Object.values(src.children).map((c) => ({ id: c.toolUseId, label: childLabel(c, `Subagent ${c.toolUseId}`), session: c.result.session, toolUseId: c.toolUseId as string | null })),
		...(src.unattached ?? []).map((u) => ({ id: u.file, label: `Unattached subagent ${u.agentId ?? u.file}`, session: u.result.session, toolUseId: null as string | null }))
	];
	for (const child of parentsFirst(children, (id) => acc.toolCalls.has(id), (c) => c.session)) {
		const tally = zeroTally();
		const delegation = child.toolUseId ? acc.toolCalls.get(child.toolUseId) : undefined;
		const landing = delegation?.landing ?? null;
		const points: ContextPoint[] = [];
		for (const turn of child.session.turns) {
			for (const a of turn.atoms) acc.scan(a, delegation?.turnIndex ?? -1, delegation?.segmentId ?? null, landing);
			for (const call of collectCalls(turn.atoms, seen)) {
				const p = price(call, table);
				acc.call(p);
				countCall(tally, p);
				points.push(point(p, delegation?.turnIndex ?? -1, landing));
			}
		}
		subagents.push({ id: child.id, label: child.label, tally, atomUuid: landing });
		if (points.length) subSeries.push({ label: child.label, points: thinPeaks(points, maxPoints, (p) => p.tokens) });
		if (delegation) {
			addSegment(delegation.segmentId, tally);
			const turn = turns[delegation.turnIndex];
			if (turn) addTally(turn.tally, tally);
		}
	}

	// Calls on lines that show no atom: a rewound branch, a cleared conversation (billed all the
	// same). They count in the total, the models and days, and apart as offPath.
	const offPath = zeroTally();
	const results = [src.result, ...Object.values(src.children).map((c) => c.result), ...(src.unattached ?? []).map((u) => u.result)];
	for (const call of offPathCalls(results.map((r) => ({ offPath: r.offPath ?? [], metadata: r.metadata ?? [] })), seen)) {
		const p = price(call, table);
		acc.call(p);
		countCall(offPath, p);
	}

	for (const c of compactions) c.nextContext = mainPoints.find((p) => p.ms >= c.ms)?.tokens ?? null;
	const longestTurns = [...turns].sort((a, b) => b.durationMs - a.durationMs).slice(0, top).map((t) => ({ ...t, gist: gistOf(session.turns[t.turnIndex]) }));
	const mainModel = [...modelCounts].sort((a, b) => b[1] - a[1])[0]?.[0];
	acc.cost.sort((a, b) => a.ms - b.ms);
	let running = 0;
	const cost = acc.cost.map((c) => ({ ms: c.ms, usd: (running += c.usd) }));
	const spanMs = Number.isFinite(first) ? last - first : 0;
	return {
		priceSource: table.source,
		priceSourceDate: table.sourceDate,
		total: acc.total,
		main,
		offPath,
		models: acc.models,
		serviceTiers: acc.serviceTiers,
		subagents,
		turns,
		segments,
		tools: acc.finishTools(),
		files: [...acc.files.values()].sort((a, b) => b.touches - a.touches || a.path.localeCompare(b.path)).slice(0, top),
		longestTurns,
		compactions,
		context: {
			limit: mainModel ? contextWindowOf(mainModel, table) : null,
			main: { label: 'Main session', points: thinPeaks(mainPoints, maxPoints, (p) => p.tokens) },
			subagents: subSeries
		},
		cost: thinLast(cost, maxPoints),
		wall: { spanMs, workedMs: Math.min(workedMs, spanMs), idleMs: Math.max(0, spanMs - workedMs) },
		days: acc.days,
		computeMs: performance.now() - started
	};
}
