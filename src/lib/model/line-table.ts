// The line table (reference §2.2): every transcript record becomes one Line in global read order
// (files in candidate order, leaf last), with its type, uuid and timestamp resolved. A line
// without a usable timestamp takes its neighbour's and remembers the problem, reported only if
// the line becomes an atom (D5). Also owns the per-line text cache and the check that turns
// uuid-less content lines into issues.
import { blocksText, isObj } from './text.ts';
import { parseTimestamp } from './timestamp.ts';
import type { FileRecords, LineRecord } from './types.ts';
import { PLACE_ISSUE, str, type Ctx, type Line, type LineTable } from './build-context.ts';

export function readLines(transcripts: FileRecords[]): LineTable {
	const lines: Line[] = [];
	for (let fi = 0; fi < transcripts.length; fi++) {
		const firstOfFile = lines.length;
		readFile(lines, fi, transcripts[fi]);
		fillLeadingTimes(lines, firstOfFile);
	}
	const n = lines.length;
	return { lines, place: new Uint8Array(n), reason: new Array(n) };
}

/** The last timestamp read in a file: lines without one take it (NaN before the first). */
export interface FileClock {
	t: number;
	ms: number;
}

/** Appends one file's records; a line without a parseable timestamp takes the previous one. */
function readFile(lines: Line[], fi: number, f: FileRecords): void {
	const clock: FileClock = { t: NaN, ms: NaN };
	for (const rec of f.records) lines.push(lineOf(rec, fi, lines.length, clock));
}

/** One record as a Line (seq = its index in read order), advancing the file's clock. */
export function lineOf(rec: LineRecord, fi: number, seq: number, clock: FileClock): Line {
	const v = rec.value;
	const type = typeof v.type === 'string' ? v.type : '';
	const uuid = str(v.uuid);
	const pt = parseTimestamp(v.timestamp);
	let t: number, ms: number, tsProblem: string | null = null;
	if (pt) {
		t = pt.t;
		ms = pt.ms;
		clock.t = t;
		clock.ms = ms;
		if (pt.warn) tsProblem = pt.warn;
	} else {
		t = clock.t;
		ms = clock.ms;
		tsProblem = v.timestamp === undefined || v.timestamp === null ? 'missing' : `unparseable ${JSON.stringify(v.timestamp).slice(0, 60)}`;
	}
	return { seq, fi, rec, v, type, uuid, t, ms, tsProblem };
}

/** Lines before the file's first timestamp take the first one that follows. */
function fillLeadingTimes(lines: Line[], firstOfFile: number): void {
	let k = firstOfFile;
	while (k < lines.length && Number.isNaN(lines[k].t)) k++;
	const fillT = k < lines.length ? lines[k].t : 0;
	const fillMs = k < lines.length ? lines[k].ms : 0;
	for (let j = firstOfFile; j < k; j++) {
		lines[j].t = fillT;
		lines[j].ms = fillMs;
	}
}

/** Content lines without a uuid can never join the graph: they are (accounted) issues. */
export function flagUuidlessContent(ctx: Ctx, table: LineTable): void {
	for (const L of table.lines) flagUuidlessLine(ctx, table, L);
}

export function flagUuidlessLine(ctx: Ctx, table: LineTable, L: Line): void {
	if (L.uuid !== null) return;
	const sub = L.v.subtype;
	if (L.type === 'user' || L.type === 'assistant' || (L.type === 'system' && (sub === 'compact_boundary' || sub === 'model_refusal_fallback'))) {
		table.place[L.seq] = PLACE_ISSUE;
		ctx.acc.issues++;
		ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'missing-uuid', message: `${L.type} line has no uuid, so it cannot be placed in the conversation`, accounted: true });
	}
}

/**
 * The plain text of a line's message blocks, computed once per line. A text block with a
 * non-string `text` is read as "" and reported (bad-content) the first time the line is read.
 */
export class LineTexts {
	private readonly cache: (string | undefined)[];
	private readonly bad = { nullText: false };

	constructor(private readonly ctx: Ctx, n: number) {
		this.cache = new Array(n);
	}

	of(L: Line): string {
		let s = this.cache[L.seq];
		if (s === undefined) {
			const m = L.v.message;
			this.bad.nullText = false;
			s = isObj(m) ? blocksText(m.content, this.bad) : '';
			if (this.bad.nullText) this.ctx.issues.push({ file: this.ctx.files[L.fi], line: L.rec.line, kind: 'bad-content', message: 'a text block has no string text (read as "")' });
			this.cache[L.seq] = s;
		}
		return s;
	}
}
