// One session → one lane's pieces: a bar per segment, its prompt dot, compaction markers, idle
// spans and the sub-bars of its delegations. layout.ts places the lanes on the shared axis.
// The click targets of bars and dots are chosen here (see layout.ts's header).
import type { Atom, Author, ContentBlock, Turn } from '../../model/index.ts';
import { segmentsOf } from '../../model/index.ts';
import { promptGist } from './gist.ts';
import type { AuthorClass, ChildActivity, LaneInput, TargetKind, TimelineBar, TimelineDot, TimelineIdle, TimelineLayout, TimelineMarker, TimelineSubBar } from './layout-types.ts';

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
export function dropUntimed(built: LaneBuild, layout: TimelineLayout): LaneBuild {
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

export function layoutLane(lane: LaneInput, laneIndex: number): LaneBuild {
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
