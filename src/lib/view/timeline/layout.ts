// Timeline layout as plain data: lanes (one per session) on one shared, broken time axis; one bar
// per segment from its input to its LAST NON-IDLE atom (the reference draws through idle time —
// a regression we do not copy); idle spans from the state log as gaps; prompt dots coloured by
// author class; compaction and rewind markers; subagent delegations as thin sub-bars. Everything here is
// structured-cloneable (arrays, plain objects, numbers, strings) so the worker can compute it and
// the main thread only draws it. All times are epoch milliseconds.
//
// Click targets (event-model reference §5.3): a bar lands on the segment's REPLY — the last
// assistant atom of the segment whose text blocks are non-empty (API-error atoms excluded) —
// else its first WORK atom — the first non-error assistant atom with text or a tool_use block —
// else its trigger. A trigger-less segment (autonomous work, a compaction) uses its first atom
// with a uuid as the trigger stand-in ("anchor"). A dot lands on the trigger.

import { branchLabelOf } from '../chat/branches.ts';
import type { Atom, Author, ContentBlock, Session, Turn } from '../../model/index.ts';
import { segmentsOf } from '../../model/index.ts';
import { buildAxis, SpanList, type AxisOptions, type TimelineAxis } from './axis.ts';
import { promptGist } from './gist.ts';

export type AuthorClass = 'human' | 'sdk' | 'peer' | 'romp' | 'teammate' | 'system' | 'none';
export type TargetKind = 'reply' | 'work' | 'trigger' | 'anchor';

/** What the layout needs of a subagent transcript (ingest's ChildTranscript fits this shape). */
export interface ChildActivity {
	agentType?: string | null;
	description?: string | null;
	result: { session: Session };
}

export interface LaneInput {
	key: string;
	label: string;
	session: Session;
	/** Subagent transcripts keyed by the Task / Agent tool_use id. */
	children?: Record<string, ChildActivity>;
}

export type LayoutOptions = AxisOptions;

export interface TimelineLane {
	key: string;
	label: string;
	index: number;
	/** First / last activity on the lane (ms), null when it has none. */
	t0: number | null;
	t1: number | null;
	/** Range [barStart, barEnd) of this lane's bars in layout.bars (sorted by t0). */
	barStart: number;
	barEnd: number;
}

export interface TimelineBar {
	/** Index in layout.bars (unique; segment ids can repeat, see conformance README). */
	index: number;
	segmentId: string;
	turnId: string;
	laneKey: string;
	lane: number;
	t0: number;
	t1: number;
	/** Idle spans inside [t0, t1] (state-log idle atoms of this segment), drawn as holes. */
	gaps: [number, number][];
	target: string | null;
	targetKind: TargetKind | null;
	replyUuid: string | null;
	workUuid: string | null;
	triggerUuid: string | null;
	author: AuthorClass;
	gist: string;
	/** Non-idle atoms in the segment. */
	atoms: number;
	compaction: boolean;
}

export interface TimelineDot {
	bar: number;
	segmentId: string;
	laneKey: string;
	lane: number;
	t: number;
	triggerUuid: string;
	author: AuthorClass;
	/** romp auto-nudge. */
	auto: boolean;
	/** Slash command name ("/usage") when the input is a command atom. */
	command: string | null;
	absorbed: boolean;
	gist: string;
}

export interface TimelineSubBar {
	bar: number;
	laneKey: string;
	lane: number;
	toolUseId: string;
	t0: number;
	t1: number;
	label: string;
	callUuid: string | null;
	resultUuid: string | null;
	/** false when neither a result nor a child transcript ends it (drawn to the bar's end). */
	finished: boolean;
}

export interface TimelineIdle {
	laneKey: string;
	lane: number;
	t0: number;
	t1: number;
}

export interface TimelineMarker {
	/** a compaction boundary, or a rewind point (model D11: a branch left the path here) */
	kind: 'compaction' | 'rewind';
	laneKey: string;
	lane: number;
	t: number;
	uuid: string | null;
	trigger: string | null;
	preTokens: number | null;
	/** rewind markers: the fold's words, "Rewound here — 3 messages, 2 tool calls, $0.41" */
	label?: string;
}

export interface TimelineLayout {
	lanes: TimelineLane[];
	bars: TimelineBar[];
	dots: TimelineDot[];
	subBars: TimelineSubBar[];
	idle: TimelineIdle[];
	markers: TimelineMarker[];
	axis: TimelineAxis;
	/** Segments left out because their session records no times (never placed at invented times). */
	untimed?: number;
}

const DELEGATION_TOOLS = new Set(['Task', 'Agent']);

/** Epoch ms of an atom: full precision in viewer mode, else whole seconds. */
export function atomMs(a: Atom): number {
	return typeof a.ms === 'number' && Number.isFinite(a.ms) ? a.ms : a.t * 1000;
}

export function authorClass(author: Author | null | undefined): AuthorClass {
	if (author == null) return 'none';
	if (typeof author === 'object') return 'peer';
	return author;
}

/** Text blocks of an atom joined by newlines (lines matter for the gist). */
export function atomText(a: Atom): string {
	const content = a.message?.content;
	if (!Array.isArray(content)) return '';
	// Fast path: one block (most prompts), no arrays built.
	if (content.length === 1) {
		const b = content[0];
		return b.type === 'text' && typeof b.text === 'string' ? b.text.trim() : '';
	}
	return content
		.filter((b) => b.type === 'text' && typeof b.text === 'string')
		.map((b) => b.text as string)
		.join('\n')
		.trim();
}

function hasBlock(a: Atom, type: string): boolean {
	const content = a.message?.content;
	if (!Array.isArray(content)) return false;
	for (let i = 0; i < content.length; i++) if (content[i].type === type) return true;
	return false;
}

const NON_BLANK = /\S/;

function isOpener(a: Atom): boolean {
	if (a.type !== 'user') return false;
	const c = authorClass(a.author);
	return c === 'human' || c === 'sdk' || c === 'romp' || c === 'peer';
}

/** The gist shown for a segment: its prompt, else what the segment (non-idle atoms of
 *  atoms[start, stop), `boundary` the first compaction among them) is. */
function segmentGist(input: Atom | null, boundary: Atom | null, atoms: readonly Atom[], start: number, stop: number): string {
	if (input) {
		const g = promptGist(atomText(input));
		if (g) return g;
		return hasBlock(input, 'image') ? '(image)' : '(no text)';
	}
	if (boundary) {
		const trig = boundary.compact_metadata?.trigger;
		return trig ? `Context compacted (${trig})` : 'Context compacted';
	}
	for (let i = start; i < stop; i++) {
		const a = atoms[i];
		if (a.type === 'assistant') {
			const g = promptGist(atomText(a));
			if (g) return g;
		}
	}
	return 'Autonomous work';
}

/** Whether a tool_use block is a delegation (Task / Agent, or any call a child transcript hangs on). */
function isDelegation(name: unknown, id: string, children: LaneInput['children']): boolean {
	return DELEGATION_TOOLS.has(String(name)) || children?.[id] !== undefined;
}

/** First and last non-idle atom times of a child transcript, or null. */
function childSpan(child: ChildActivity | undefined): [number, number] | null {
	let lo = Infinity;
	let hi = -Infinity;
	for (const turn of child?.result?.session?.turns ?? []) {
		for (const a of turn.atoms) {
			if (a.type === 'idle') continue;
			const ms = atomMs(a);
			if (ms < lo) lo = ms;
			if (ms > hi) hi = ms;
		}
	}
	return lo <= hi ? [lo, hi] : null;
}

function str(v: unknown): string | null {
	return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** One lane's pieces; `index` / `bar` fields hold lane-local bar numbers until the lane is sorted. */
interface LaneBuild {
	bars: TimelineBar[];
	dots: TimelineDot[];
	subBars: TimelineSubBar[];
	idle: TimelineIdle[];
	markers: TimelineMarker[];
	/** tool_use id → the first atom carrying its tool_result, over the whole session (a background
	 *  delegation's result can land in a later turn). Every result is indexed as it is passed;
	 *  only delegations are looked up, once the lane is done. */
	results: Map<string, Atom>;
	/** Delegation calls waiting for the results: atom, block index, lane-local bar, bar end. */
	calls: [Atom, number, number, number][];
}

/** The gaps of a bar without idle spans inside it (most bars): one shared, never-written array. */
const NO_GAPS: [number, number][] = [];

function layoutSegment(
	out: LaneBuild,
	lane: LaneInput,
	laneIndex: number,
	turn: Turn,
	seg: { id: string; trigger: string | null; start: number; stop: number }
): void {
	const atoms = turn.atoms;
	const { start, stop } = seg;
	const local = out.bars.length;
	// One pass over the segment's non-idle ("work") atoms: the layout runs once per load, cold
	// (interpreted code), so every pass over the atoms and every block scan counts.
	let count = 0;
	let t0 = Infinity;
	let t1 = -Infinity;
	let input: Atom | null = null;
	let reply: Atom | null = null;
	let workAtom: Atom | null = null;
	let firstUuid: string | null = null;
	let boundary: Atom | null = null;
	let idleCount = 0;
	/** Delegation calls (atom, block index), placed once the bar's end is known. */
	let calls: [Atom, number][] | null = null;
	// The segments of a turn cover all its atoms, so this loop is also the lane's only pass over
	// the session: idle spans and tool results are collected here.
	for (let i = start; i < stop; i++) {
		const a = atoms[i];
		if (a.type === 'idle') {
			idleCount++;
			if (typeof a.end === 'number' && a.end > a.t) out.idle.push({ laneKey: lane.key, lane: laneIndex, t0: a.t * 1000, t1: a.end * 1000 });
			continue;
		}
		count++;
		const ms = atomMs(a);
		if (ms < t0) t0 = ms;
		if (ms > t1) t1 = ms;
		if (firstUuid === null && a.uuid) firstUuid = a.uuid;
		if (a.subtype === 'compact_boundary') {
			if (!boundary) boundary = a;
			const pre = a.compact_metadata?.pre_tokens;
			out.markers.push({
				kind: 'compaction',
				laneKey: lane.key,
				lane: laneIndex,
				t: ms,
				uuid: a.uuid,
				trigger: a.compact_metadata?.trigger ?? null,
				preTokens: typeof pre === 'number' ? pre : null
			});
		}
		if (!input && (seg.trigger != null ? a.uuid === seg.trigger : isOpener(a))) input = a;
		const content = a.message?.content;
		if (!Array.isArray(content)) continue;
		if (a.type === 'user') {
			for (let bi = 0; bi < content.length; bi++) {
				const b = content[bi];
				if (b.type === 'tool_result' && typeof b.tool_use_id === 'string' && !out.results.has(b.tool_use_id)) out.results.set(b.tool_use_id, a);
			}
			continue;
		}
		if (a.type !== 'assistant') continue;
		// One scan of the blocks: non-blank text, a tool_use, and delegation calls.
		let text = false;
		let tool = false;
		for (let bi = 0; bi < content.length; bi++) {
			const b = content[bi];
			if (b.type === 'text') {
				// /\S/ matches exactly what trim() keeps (no trimmed copy is made).
				if (!text && typeof b.text === 'string' && NON_BLANK.test(b.text)) text = true;
			} else if (b.type === 'tool_use') {
				tool = true;
				if (typeof b.id === 'string' && isDelegation(b.name, b.id, lane.children)) (calls ??= []).push([a, bi]);
			}
		}
		if (!a.isApiError && a.uuid) {
			if (text) reply = a;
			if (!workAtom && (text || tool)) workAtom = a;
		}
	}
	if (count === 0) return; // an idle-only stretch: no bar, its idle span is drawn anyway
	const anchor = input?.uuid ?? (seg.trigger == null ? firstUuid : seg.trigger);
	const target = reply?.uuid ?? workAtom?.uuid ?? anchor;
	const targetKind: TargetKind | null = reply
		? 'reply'
		: workAtom
			? 'work'
			: anchor
				? input || seg.trigger
					? 'trigger'
					: 'anchor'
				: null;
	const author = input ? authorClass(input.author) : 'none';
	const gist = segmentGist(input, boundary, atoms, start, stop);

	let gaps = NO_GAPS;
	if (idleCount > 0) {
		for (let i = start; i < stop; i++) {
			const a = atoms[i];
			if (a.type !== 'idle') continue;
			const g0 = Math.max(t0, a.t * 1000);
			const g1 = Math.min(t1, (a.end ?? a.t) * 1000);
			if (g1 > g0) (gaps === NO_GAPS ? (gaps = []) : gaps).push([g0, g1]);
		}
	}

	out.bars.push({
		index: local,
		segmentId: seg.id,
		turnId: turn.id,
		laneKey: lane.key,
		lane: laneIndex,
		t0,
		t1,
		gaps,
		target,
		targetKind,
		replyUuid: reply?.uuid ?? null,
		workUuid: workAtom?.uuid ?? null,
		triggerUuid: seg.trigger ?? input?.uuid ?? null,
		author,
		gist,
		atoms: count,
		compaction: boundary !== null
	});

	if (input?.uuid) {
		out.dots.push({
			bar: local,
			segmentId: seg.id,
			laneKey: lane.key,
			lane: laneIndex,
			t: atomMs(input),
			triggerUuid: input.uuid,
			author,
			auto: input.rompAuto === true,
			command: typeof input.command === 'string' ? input.command : null,
			absorbed: input.absorbed === true,
			gist
		});
	}

	if (calls) for (const [a, bi] of calls) out.calls.push([a, bi, local, t1]);
}

/** The sub-bar of the delegation call in block `bi` of atom `a` (bar `local` ends at `barEnd`). */
function subBar(a: Atom, bi: number, lane: LaneInput, laneIndex: number, local: number, barEnd: number, results: Map<string, Atom>): TimelineSubBar {
	const b = (a.message?.content as ContentBlock[])[bi];
	const id = b.id as string;
	const child = lane.children?.[id];
	const call = atomMs(a);
	const resAtom = results.get(id);
	const res = resAtom ? { uuid: resAtom.uuid, ms: atomMs(resAtom) } : undefined;
	const cs = childSpan(child);
	const s0 = Math.min(call, cs?.[0] ?? call);
	const s1 = Math.max(res?.ms ?? call, cs?.[1] ?? call);
	const args = (b.input ?? {}) as Record<string, unknown>;
	return {
		bar: local,
		laneKey: lane.key,
		lane: laneIndex,
		toolUseId: id,
		t0: s0,
		t1: res || cs ? s1 : Math.max(s1, barEnd),
		label: str(child?.description) ?? str(args.description) ?? str(child?.agentType) ?? str(args.subagent_type) ?? 'Subagent',
		callUuid: a.uuid,
		resultUuid: res?.uuid ?? null,
		finished: Boolean(res || cs)
	};
}

/** Some formats record no times at all: their segments are counted, not drawn. */
function dropUntimed(built: LaneBuild, layout: TimelineLayout): LaneBuild {
	const finite = (...xs: number[]) => xs.every(Number.isFinite);
	let all = true;
	for (let i = 0; i < built.bars.length && all; i++) all = Number.isFinite(built.bars[i].t0) && Number.isFinite(built.bars[i].t1);
	if (all) return built;
	const bars = built.bars.filter((b) => finite(b.t0, b.t1));
	layout.untimed = (layout.untimed ?? 0) + built.bars.length - bars.length;
	const renumber = new Map<number, number>();
	bars.forEach((b, i) => {
		renumber.set(b.index, i);
		b.index = i;
	});
	return {
		...built,
		bars,
		dots: built.dots.filter((d) => renumber.has(d.bar) && finite(d.t)).map((d) => ({ ...d, bar: renumber.get(d.bar) as number })),
		subBars: built.subBars.filter((x) => renumber.has(x.bar) && finite(x.t0, x.t1)).map((x) => ({ ...x, bar: renumber.get(x.bar) as number })),
		idle: built.idle.filter((x) => finite(x.t0, x.t1)),
		markers: built.markers.filter((m) => finite(m.t))
	};
}

function layoutLane(lane: LaneInput, laneIndex: number): LaneBuild {
	const out: LaneBuild = { bars: [], dots: [], subBars: [], idle: [], markers: [], results: new Map(), calls: [] };
	const session = lane.session;
	// Indexed loops: for-of allocates an iterator result per step until the code is optimized,
	// and the timeline is laid out once per load (cold).
	const turns = session.turns;
	for (let ti = 0; ti < turns.length; ti++) {
		const segs = segmentsOf(turns[ti], session.rompUuid);
		for (let si = 0; si < segs.length; si++) layoutSegment(out, lane, laneIndex, turns[ti], segs[si]);
	}
	for (let i = 0; i < out.calls.length; i++) {
		const [a, bi, bar, end] = out.calls[i];
		out.subBars.push(subBar(a, bi, lane, laneIndex, bar, end, out.results));
	}
	out.idle.sort((x, y) => x.t0 - y.t0);
	return out;
}

/** Whether xs is already sorted under cmp (a stable sort would leave it as it is): bars and dots
 *  nearly always come out in order, and a check is cheaper than a sort. */
function inOrder<T>(xs: readonly T[], cmp: (a: T, b: T) => number): boolean {
	for (let i = 1; i < xs.length; i++) if (cmp(xs[i - 1], xs[i]) > 0) return false;
	return true;
}

/** Lays out several sessions on one shared, broken time axis. */
export function layoutTimeline(lanes: readonly LaneInput[], opts: LayoutOptions = {}): TimelineLayout {
	const layout: TimelineLayout = { lanes: [], bars: [], dots: [], subBars: [], idle: [], markers: [], axis: buildAxis([]) };
	const activity = new SpanList();

	lanes.forEach((lane, li) => {
		const built = dropUntimed(layoutLane(lane, li), layout);
		// Sort the lane's bars by start (stable), then renumber them and what points at them.
		const barStart = layout.bars.length;
		const byStart = (x: TimelineBar, y: TimelineBar) => x.t0 - y.t0 || x.index - y.index;
		const sorted = inOrder(built.bars, byStart) ? built.bars : built.bars.slice().sort(byStart);
		const globalOf = new Array<number>(sorted.length);
		for (let i = 0; i < sorted.length; i++) {
			const bar = sorted[i];
			globalOf[bar.index] = layout.bars.length;
			bar.index = layout.bars.length;
			layout.bars.push(bar);
		}
		for (let i = 0; i < built.dots.length; i++) {
			const d = built.dots[i];
			d.bar = globalOf[d.bar];
			layout.dots.push(d);
		}
		for (let i = 0; i < built.subBars.length; i++) {
			const sb = built.subBars[i];
			sb.bar = globalOf[sb.bar];
			layout.subBars.push(sb);
		}
		for (let i = 0; i < built.idle.length; i++) layout.idle.push(built.idle[i]);
		for (let i = 0; i < built.markers.length; i++) layout.markers.push(built.markers[i]);
		// A rewind point where the abandoned branch began (its nested branches are inside it).
		for (const b of lane.session.branches ?? []) {
			if (!(b.t > 0)) continue;
			const m: TimelineMarker = { kind: 'rewind', laneKey: lane.key, lane: li, t: b.t * 1000, uuid: b.rootUuid, trigger: null, preTokens: null, label: branchLabelOf(b) };
			built.markers.push(m);
			layout.markers.push(m);
		}

		let t0: number | null = null;
		let t1: number | null = null;
		for (let i = barStart; i < layout.bars.length; i++) {
			const b = layout.bars[i];
			activity.add(b.t0, b.t1);
			t0 = t0 === null ? b.t0 : Math.min(t0, b.t0);
			t1 = t1 === null ? b.t1 : Math.max(t1, b.t1);
		}
		for (const s of built.subBars) activity.add(s.t0, s.t1);
		for (const m of built.markers) activity.add(m.t, m.t);
		layout.lanes.push({ key: lane.key, label: lane.label, index: li, t0, t1, barStart, barEnd: layout.bars.length });
	});

	const byLaneTime = (x: TimelineDot, y: TimelineDot) => x.lane - y.lane || x.t - y.t;
	if (!inOrder(layout.dots, byLaneTime)) layout.dots.sort(byLaneTime);
	layout.axis = buildAxis(activity, opts);
	return layout;
}

/** The bar with this segment id on this lane (first match), or null. */
export function findBar(layout: TimelineLayout, segmentId: string, laneKey?: string): TimelineBar | null {
	return layout.bars.find((b) => b.segmentId === segmentId && (laneKey === undefined || b.laneKey === laneKey)) ?? null;
}
