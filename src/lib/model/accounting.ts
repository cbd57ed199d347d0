// Accounting (see the ACCOUNTING rules in build.ts's header): every non-blank input line has
// exactly one home. This module owns the two ends of that bookkeeping: the reader-level issues
// counted first (each is the home of one line), and, after emission, the home of every
// transcript line that produced no atom and no issue — offPath (replayed, absorbed duplicate,
// rewound, cleared, sidechain, duplicate: an earlier copy of a uuid a later line redefines) or
// metadata (with its skip reason and, in viewer mode, the raw JSON of small or unknown records, D7,
// and the billing facts of a line that carries usage, so history usage counts rewound calls too).
import type { Accounting, FileRecords, MetadataLine, OffPathLine } from './types.ts';
import { lineCallOf } from './billing.ts';
import { isObj } from './text.ts';
import { PLACE_ATOM, PLACE_ISSUE, PLACE_OFF, V_CLEAR, V_DUPLICATE, V_REWIND, V_SIDECHAIN, VERDICT_NAME, type Ctx, type Line, type LineTable } from './build-context.ts';

/** Metadata kinds whose raw JSON is kept in viewer mode (small, useful to the chat / titles). */
const KEEP_VALUE_KINDS = new Set(['summary', 'custom-title', 'ai-title', 'last-prompt', 'permission-mode', 'agent-name', 'mode', 'pr-link']);
/** Record types the model knows; unknown types keep their raw JSON in viewer mode. */
const KNOWN_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress', 'file-history-snapshot', 'queue-operation',
	'summary', 'custom-title', 'ai-title', 'last-prompt', 'permission-mode', 'agent-name', 'agent-setting', 'mode', 'pr-link',
	'bridge-session']);

/** Reader-level issues: each is the home of one line (file-level ones have line null). */
export function accountReaderIssues(ctx: Ctx, files: (FileRecords | null | undefined)[]): void {
	for (const f of files) {
		if (!f) continue;
		ctx.acc.lines += f.lines;
		for (const i of f.issues) {
			if (i.line !== null) {
				ctx.issues.push({ ...i, accounted: true });
				ctx.acc.issues++;
			} else ctx.issues.push(i);
		}
	}
}

/** Lists every transcript line without an atom or issue in offPath or metadata. */
export function placeRemainingLines(ctx: Ctx, table: LineTable, lineVerdict: Uint8Array): OffPathLine[] {
	const offPath: OffPathLine[] = [];
	for (const L of table.lines) placeLine(ctx, table, lineVerdict, L, offPath);
	return offPath;
}

/** The home of one line without an atom or issue: offPath (pushed to `offPath`) or ctx.metadata. */
export function placeLine(ctx: Ctx, table: LineTable, lineVerdict: Uint8Array, L: Line, offPath: OffPathLine[]): void {
	const { place, reason } = table;
	const p = place[L.seq];
	if (p === PLACE_ATOM || p === PLACE_ISSUE) return;
	const file = ctx.files[L.fi];
	const call = ctx.viewer ? lineCallOf(L.v) : null;
	if (p === PLACE_OFF) {
		const o: OffPathLine = { file, line: L.rec.line, uuid: L.uuid, reason: reason[L.seq] ?? 'off-path' };
		if (call) o.call = call;
		offPath.push(o);
		return;
	}
	const vd = L.uuid !== null ? lineVerdict[L.seq] : 0;
	if (vd === V_REWIND || vd === V_CLEAR || vd === V_SIDECHAIN || vd === V_DUPLICATE) {
		const o: OffPathLine = { file, line: L.rec.line, uuid: L.uuid, reason: VERDICT_NAME[vd] };
		if (call) o.call = call;
		offPath.push(o);
		return;
	}
	const m: MetadataLine = { file, line: L.rec.line, type: metaType(L), uuid: L.uuid, t: Number.isNaN(L.t) ? null : L.t };
	if (call) m.call = call;
	const why = reason[L.seq];
	if (why) m.reason = why;
	if (ctx.viewer && (!KNOWN_TYPES.has(L.type) || KEEP_VALUE_KINDS.has(L.type) || L.type === 'system')) m.value = L.v;
	ctx.metadata.push(m);
}

function metaType(L: Line): string {
	if (L.type === 'system' && typeof L.v.subtype === 'string') return `system:${L.v.subtype}`;
	if (L.type === 'attachment' && isObj(L.v.attachment) && typeof L.v.attachment.type === 'string') return `attachment:${L.v.attachment.type}`;
	return L.type || '(no type)';
}

/** The accounting totals: lines = atoms + offPath + metadata + issues. */
export function accountingOf(ctx: Ctx, offPath: OffPathLine[]): Accounting {
	return { lines: ctx.acc.lines, atoms: ctx.acc.atoms, offPath: offPath.length, metadata: ctx.metadata.length, issues: ctx.acc.issues };
}
