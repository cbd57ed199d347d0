// Where atoms go, and the atom fields every emitting stage shares (baseAtom, the viewer fields,
// normMessage). The sink is what every emitting stage (emit.ts, emit-user.ts, absorbed.ts,
// state-log.ts) writes to. It keeps each atom's sort key (the line's read order, or IDLE_SEQ + t
// for synthetic atoms), marks the line as placed and counted, reports the line's timestamp
// problem once the line is shown (D5), and finally orders the atoms by (t, sort key), the
// reference's (timestamp, _seq).
import { isObj, normContent } from './text.ts';
import { parseTimestamp } from './timestamp.ts';
import type { ApiMessage, Atom } from './types.ts';
import { LOWER_Z, PLACE_ATOM, PLACE_OFF, type Ctx, type Line, type LineTable } from './build-context.ts';

export class AtomSink {
	readonly atoms: Atom[] = [];
	private readonly seqs: number[] = [];

	constructor(private readonly ctx: Ctx, private readonly table: LineTable) {}

	/** The atom of a transcript line: adds the viewer fields (D6) and places the line. */
	emitLine(L: Line, a: Atom): void {
		this.push(withViewerFields(this.ctx, L, a), L.seq);
		this.table.place[L.seq] = PLACE_ATOM;
		this.ctx.acc.atoms++;
		if (L.tsProblem) {
			const kind = L.tsProblem === 'missing' ? 'missing-timestamp' : 'bad-timestamp';
			const message = L.tsProblem === LOWER_Z
				? `timestamp has a ${LOWER_Z}; read as UTC`
				: `timestamp ${L.tsProblem}; the line is placed at the time of its neighbour`;
			this.ctx.issues.push({ file: this.ctx.files[L.fi], line: L.rec.line, kind, message });
		}
	}

	/** A line's atom as emitLine would store it, without placing the line (a re-emitted atom). */
	lineAtom(L: Line, a: Atom): Atom {
		return withViewerFields(this.ctx, L, a);
	}

	/** Sort key of atoms[i]: the line's read order, or IDLE_SEQ + t for synthetic atoms. */
	seqOf(i: number): number {
		return this.seqs[i];
	}

	/** Drops the atoms from index n on (synthetic atoms recomputed by incremental.ts). */
	truncate(n: number): void {
		this.atoms.length = n;
		this.seqs.length = n;
	}

	/** A synthetic atom (orphan reply, idle) from a state row. */
	emitSynthetic(a: Atom, seq: number): void {
		this.push(a, seq);
	}

	/** The line produces no atom; it becomes metadata with this reason. */
	skip(L: Line, why: string): void {
		this.table.reason[L.seq] = why;
	}

	/** The line produces no atom and is listed in offPath with this reason. */
	offPath(L: Line, why: string): void {
		this.table.place[L.seq] = PLACE_OFF;
		this.table.reason[L.seq] = why;
	}

	/** All atoms, sorted by (t, read order); synthetic atoms after lines at the same time. */
	ordered(): Atom[] {
		const atoms = this.atoms;
		const seqs = this.seqs;
		const order = atoms.map((_, i) => i);
		order.sort((x, y) => atoms[x].t - atoms[y].t || seqs[x] - seqs[y]);
		return order.map((i) => atoms[i]);
	}

	private push(a: Atom, seq: number): void {
		this.atoms.push(a);
		this.seqs.push(seq);
	}
}

/** The fields every atom of a line starts with. */
export function baseAtom(ctx: Ctx, L: Line, type: Atom['type']): Atom {
	return { type, uuid: L.uuid, session_id: ctx.rompUuid, t: L.t, fsid: ctx.fsids[L.fi], parentUuid: (L.v.parentUuid as string | null | undefined) ?? null };
}

/** D6: viewer atoms also carry ms, line, toolUseResult, messageId, requestId, isSidechain, isMeta, agentId. */
function withViewerFields(ctx: Ctx, L: Line, a: Atom): Atom {
	if (!ctx.viewer) return a;
	a.ms = L.ms;
	if (L.tsProblem !== null && parseTimestamp(L.v.timestamp) === null) a.untimed = true;
	a.line = L.rec.line;
	const v = L.v;
	if (v.toolUseResult !== undefined) a.toolUseResult = v.toolUseResult;
	const m = v.message;
	if (isObj(m) && typeof m.id === 'string') a.messageId = m.id;
	if (typeof v.requestId === 'string') a.requestId = v.requestId;
	if (typeof v.isSidechain === 'boolean') a.isSidechain = v.isSidechain;
	if (v.isMeta === true) a.isMeta = true;
	if (typeof v.agentId === 'string') a.agentId = v.agentId;
	return a;
}

/** A message as atoms show it: role, normalised content, and model / stop_reason / usage when set. */
export function normMessage(m: unknown, role: 'user' | 'assistant'): ApiMessage {
	if (!isObj(m)) return { role, content: [] };
	const out: ApiMessage = { role: (m.role as string | undefined) ?? role, content: normContent(m.content) };
	if (m.model !== undefined && m.model !== null) out.model = m.model as string;
	if (m.stop_reason !== undefined && m.stop_reason !== null) out.stop_reason = m.stop_reason as string;
	if (m.usage !== undefined && m.usage !== null) out.usage = m.usage as ApiMessage['usage'];
	return out;
}
