// The state log (reference §2.1 step 4–5, §2.7–2.8): what the session's state rows add to the
// transcript. landedTextUuids (assistant lines with text, on any branch), orphan replies (texts
// the state log saw that no transcript line holds: salvaged as `orphaned` assistant atoms) and
// idle atoms (the idle / waiting spans between state rows). Every state row is accounted as
// metadata here; a row without a numeric `t` is ignored with a warning.
import { pyStrip } from './pystr.ts';
import { blocksText, isObj, type Obj } from './text.ts';
import type { Atom, FileRecords } from './types.ts';
import { IDLE_SEQ, str, type Ctx, type Line } from './build-context.ts';
import type { AtomSink } from './atom-sink.ts';
import type { Graph } from './graph.ts';

export interface StateRow {
	t: number;
	v: Obj;
	line: number;
}

/** uuids of assistant lines with non-blank text, on ANY branch (landed), plus the sorted list. */
export function landedTexts(lines: Line[]): { landed: Set<string>; sorted: string[] } {
	const landed = new Set<string>();
	for (const L of lines) {
		if (L.type === 'assistant' && L.uuid !== null && hasNonBlankText(L.v.message)) landed.add(L.uuid);
	}
	return { landed, sorted: [...landed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

function hasNonBlankText(m: unknown): boolean {
	if (!isObj(m)) return false;
	const c = m.content;
	if (typeof c === 'string') return pyStrip(c) !== '';
	if (!Array.isArray(c)) return false;
	for (const b of c) {
		if (isObj(b) && b.type === 'text' && typeof b.text === 'string' && pyStrip(b.text) !== '') return true;
	}
	return false;
}

/** The usable state rows, in file order; every row is accounted as metadata. */
export function readStateRows(ctx: Ctx, states: FileRecords | null | undefined): StateRow[] {
	const rows: StateRow[] = [];
	if (!states) return rows;
	const sf = states.file;
	for (const r of states.records) {
		const v = r.value;
		if (typeof v.t !== 'number' || !Number.isFinite(v.t)) {
			ctx.issues.push({ file: sf, line: r.line, kind: 'bad-state-row', message: `state row has no numeric t (${JSON.stringify(v.t ?? null).slice(0, 40)}); ignored` });
			ctx.metadata.push({ file: sf, line: r.line, type: 'state', t: null, reason: 'bad-state-row' });
			continue;
		}
		rows.push({ t: v.t, v, line: r.line });
		ctx.metadata.push({ file: sf, line: r.line, type: 'state', t: v.t });
	}
	return rows;
}

/** The time of the leafOverride line (orphans after it are dropped), or null. */
export function leafOverrideTime(ctx: Ctx, lines: Line[], g: Graph): number | null {
	const u = ctx.opts.leafOverride;
	return u && g.nodes.has(u) ? lines[g.nodes.get(u)!].t : null;
}

/**
 * Orphan replies (§2.7): a state row's orphanReply text becomes an assistant atom unless it is
 * blank, an API error, or already known — its uuid landed or is an atom, or its text is a
 * prefix of (or starts with) an assistant atom's text or an earlier orphan's.
 */
export function emitOrphanReplies(ctx: Ctx, sink: AtomSink, rows: StateRow[], landed: Set<string>, cutT: number | null): void {
	if (!rows.some((r) => isObj(r.v.orphanReply))) return;
	const textAtoms = new Set<string>();
	const assistantTexts: string[] = [];
	for (const a of sink.atoms) {
		if (a.type !== 'assistant') continue;
		const t = blocksText(a.message?.content);
		if (t) {
			if (a.uuid) textAtoms.add(a.uuid);
			assistantTexts.push(t);
		}
	}
	const markerTexts: string[] = [];
	for (const row of rows) {
		const o = row.v.orphanReply;
		if (!isObj(o) || !row.t) continue;
		const text = typeof o.text === 'string' ? pyStrip(o.text) : '';
		if (!text || text.startsWith('API Error:') || text === '(no content)') continue;
		const uuid = str(o.uuid);
		const related = (s: string) => s.startsWith(text) || text.startsWith(s);
		const dup = (uuid !== null && (landed.has(uuid) || textAtoms.has(uuid))) || assistantTexts.some(related) || markerTexts.some(related);
		markerTexts.push(text);
		if (dup) continue;
		if (cutT !== null && row.t > cutT) continue;
		const a: Atom = {
			type: 'assistant',
			uuid: uuid ?? `orphan:${row.t}`,
			session_id: ctx.rompUuid,
			t: row.t,
			fsid: null,
			parentUuid: null,
			message: { role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
			orphaned: true,
		};
		if (ctx.viewer) a.ms = row.t * 1000;
		sink.emitSynthetic(a, IDLE_SEQ + row.t);
	}
}

/**
 * Idle atoms (§2.8): each idle / waiting row spans to the next row (the last one to `now`, or
 * to the latest atom end), kept when it overlaps the atoms' time range.
 */
export function emitIdle(ctx: Ctx, sink: AtomSink, stateRows: StateRow[]): void {
	const atoms = sink.atoms;
	if (!stateRows.length || !atoms.length) return;
	const rows = stateRows.slice().sort((a, b) => a.t - b.t);
	let lo = Infinity;
	let hi = -Infinity;
	for (const a of atoms) {
		if (a.t < lo) lo = a.t;
		const e = a.end ?? a.t;
		if (e > hi) hi = e;
	}
	const now = ctx.opts.now ?? null;
	const top = now === null ? hi : Math.max(hi, now);
	for (let i = 0; i < rows.length; i++) {
		const s = rows[i].v.state;
		if (s !== 'idle' && s !== 'waiting') continue;
		const start = rows[i].t;
		const end = i + 1 < rows.length ? rows[i + 1].t : now ?? hi;
		if (end <= start || end < lo || start > top) continue;
		const a: Atom = { type: 'idle', uuid: null, session_id: ctx.rompUuid, t: start, end };
		if (ctx.viewer) a.ms = start * 1000;
		sink.emitSynthetic(a, IDLE_SEQ + start);
	}
}
