// Shared internals of buildSession's stages (see build.ts for the pipeline): the row type of the
// line table, the build context every stage reads its options from and writes its issues,
// metadata and accounting counters to, and the placement / verdict codes. Internal to the model
// folder: index.ts does not export it.
import { codePointLength, codePointSlice } from './pystr.ts';
import type { Obj } from './text.ts';
import type { Compat, Issue, LineRecord, MetadataLine, ParseOptions } from './types.ts';

/** Sort key base of synthetic atoms (orphans, idle): after every line at the same time. */
export const IDLE_SEQ = 1e12;
/** parseTimestamp's warning for a lower-case "z" (read, but flagged). */
export const LOWER_Z = 'lower-case "z" time zone';

// Where a transcript line ended up; unplaced lines become offPath or metadata at the end.
export const PLACE_NONE = 0, PLACE_ATOM = 1, PLACE_OFF = 2, PLACE_ISSUE = 4;
// Graph verdict of a uuid line (active-path.ts). VERDICT_NAME doubles as the offPath reason.
// V_DUPLICATE: an earlier copy of a uuid whose node a later line defines (a resumed file copies
// the previous file's tail verbatim); the node line speaks for the uuid.
export const V_ACTIVE = 1, V_KEPT = 2, V_REWIND = 3, V_CLEAR = 4, V_SIDECHAIN = 5, V_DUPLICATE = 6;
export const VERDICT_NAME = ['', 'active', 'broken', 'rewind', 'clear', 'sidechain', 'duplicate'];

/** One transcript line, in global read order (files in candidate order, leaf last). */
export interface Line {
	seq: number;
	fi: number;
	rec: LineRecord;
	v: Obj;
	type: string;
	uuid: string | null;
	t: number;
	ms: number;
	/** timestamp problem to report if the line becomes an atom */
	tsProblem: string | null;
}

/** All transcript lines, plus where each one ended up (indexed by Line.seq). */
export interface LineTable {
	lines: Line[];
	/** PLACE_* of each line */
	place: Uint8Array;
	/** why a line produced no atom (metadata reason) or its offPath reason when placed PLACE_OFF */
	reason: (string | undefined)[];
}

/** Options and outputs shared by every stage of one build. */
export interface Ctx {
	compat: Compat;
	viewer: boolean;
	subagent: boolean;
	rompUuid: string;
	opts: ParseOptions;
	/** per transcript (candidate order): fsid (file stem) and file name */
	fsids: string[];
	files: string[];
	issues: Issue[];
	metadata: MetadataLine[];
	/** accounting counters kept while building (build.ts header): lines read, lines that became atoms, accounted issues */
	acc: { lines: number; atoms: number; issues: number };
}

export function fileStem(file: string): string {
	const base = file.replace(/\\/g, '/').split('/').pop() ?? file;
	return base.endsWith('.jsonl') ? base.slice(0, -6) : base;
}

export function str(v: unknown): string | null {
	return typeof v === 'string' && v ? v : null;
}

export function cap(text: string, n: number, suffix: string): string {
	return codePointLength(text) > n ? codePointSlice(text, n) + suffix : text;
}
