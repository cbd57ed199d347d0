// buildSession: the file adapter of the reference event model (event-model-reference.md §2).
// Candidate transcripts (leaf last) + state log + postal log → Session/Turn/Atom, plus the
// issues, off-path lines and metadata records Loupe needs so that nothing is lost silently.
//
// Modes: compat 'romp' reproduces the reference field for field; 'viewer' (default) applies the
// improvements listed in docs/divergences.md: D1 stop_reason recovered per message.id, D2 leaf
// choice that ignores trailing sidechain / null-rooted system lines, D3 sidechains off the main
// path (unless opts.subagent), D4 parallel tool calls and local-command branches are not
// rewinds, D6 viewer-only atom fields, D7 raw JSON of unknown metadata, D8 null-rooted system
// notes are metadata. Both modes: bad timestamps are issues, never crashes (D5).
//
// Pipeline (reference §2.1): postal index → lines + uuid graph → leaf → stitch repair → active
// path and kept set → pre-passes (replays, compaction summaries, Skill ids, command promptIds)
// → atom emission (user rules 1–11, assistant, system) → absorbed attachments → state rows
// (landed texts, orphan replies, idle) → sort by (t, read order) → turns (turns.ts).
//
// ACCOUNTING. Every non-blank input line (transcripts, state log, postal log) has exactly one
// home, and accounting.lines = atoms + offPath + metadata + issues, where
//   atoms    = number of input LINES that produced at least one atom (a line never produces
//              more than one; synthetic idle/orphan atoms come from state rows, which are
//              counted under metadata, so accounting.atoms <= total atoms);
//   offPath  = offPath.length   (rewound, cleared, sidechain, replayed, duplicate absorbed copy);
//   metadata = metadata.length  (non-atom records: snapshots, queue ops, skipped noise with a
//              `reason`, compact summaries merged into their boundary, state and postal rows);
//   issues   = number of issues with `accounted: true` (lines dropped because they are broken:
//              invalid JSON, not an object, a content line without uuid, ...).
// issues[] may hold further entries with `accounted` unset: warnings about lines that live
// elsewhere (duplicate uuid, parent cycle, missing timestamp that was inherited, ...) and
// file-level issues (line null). buildSession never throws: an internal failure becomes an
// 'internal-error' issue and an empty session.
import { codePointLength, codePointSlice, pySplit, pyStrip } from './pystr.ts';
import {
	blocksText,
	deriveAuthor,
	hasAutoMarker,
	hasPostalMarker,
	hasToolResult,
	isImageEcho,
	isObj,
	leadingCommandName,
	normContent,
	parseCommand,
	parseStdout,
	SKILL_PREAMBLE,
	startsWithWrapper,
	type AuthorContext,
	type Obj,
} from './text.ts';
import { parseTimestamp } from './timestamp.ts';
import { groupTurns } from './turns.ts';
import type {
	ApiMessage,
	Atom,
	Compat,
	Issue,
	LineRecord,
	MetadataLine,
	OffPathLine,
	ParseInput,
	ParseOptions,
	ParseResult,
	Session,
} from './types.ts';

const IDLE_SEQ = 1e12;
const LOWER_Z = 'lower-case "z" time zone';
const SUMMARY_CAP = 8000;
const SKILL_CAP = 16000;
/** Metadata kinds whose raw JSON is kept in viewer mode (small, useful to the chat / titles). */
const KEEP_VALUE_KINDS = new Set(['summary', 'custom-title', 'ai-title', 'last-prompt', 'permission-mode', 'agent-name', 'mode', 'pr-link']);
/** Record types the model knows; unknown types keep their raw JSON in viewer mode. */
const KNOWN_TYPES = new Set(['user', 'assistant', 'system', 'attachment', 'progress', 'file-history-snapshot', 'queue-operation',
	'summary', 'custom-title', 'ai-title', 'last-prompt', 'permission-mode', 'agent-name', 'agent-setting', 'mode', 'pr-link',
	'bridge-session']);

// Where a transcript line ended up; unplaced lines become offPath or metadata at the end.
const PLACE_NONE = 0, PLACE_ATOM = 1, PLACE_OFF = 2, PLACE_ISSUE = 4;
const V_ACTIVE = 1, V_KEPT = 2, V_REWIND = 3, V_CLEAR = 4, V_SIDECHAIN = 5;
const VERDICT_NAME = ['', 'active', 'broken', 'rewind', 'clear', 'sidechain'];

/** One transcript line, in global read order (files in candidate order, leaf last). */
interface Line {
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

interface Ctx {
	compat: Compat;
	viewer: boolean;
	subagent: boolean;
	rompUuid: string;
	issues: Issue[];
	fsids: string[];
	files: string[];
}

function fileStem(file: string): string {
	const base = file.replace(/\\/g, '/').split('/').pop() ?? file;
	return base.endsWith('.jsonl') ? base.slice(0, -6) : base;
}

function str(v: unknown): string | null {
	return typeof v === 'string' && v ? v : null;
}

function cap(text: string, n: number, suffix: string): string {
	return codePointLength(text) > n ? codePointSlice(text, n) + suffix : text;
}

export function buildSession(input: ParseInput, opts: ParseOptions = {}): ParseResult {
	try {
		return build(input, opts);
	} catch (e) {
		return failed(input, opts, e);
	}
}

/** Last-resort result when building threw: an empty session, every line an accounted issue. */
function failed(input: ParseInput, opts: ParseOptions, e: unknown): ParseResult {
	const files = (input?.transcripts ?? []).filter(Boolean);
	const leaf = files.length ? fileStem(files[files.length - 1].file ?? '') : '';
	const rompUuid = opts.rompUuid || leaf;
	const why = e instanceof Error ? e.message : String(e);
	const issues: Issue[] = [];
	for (const f of [...files, input?.states, input?.postal]) {
		if (!f) continue;
		for (const i of f.issues ?? []) issues.push(i.line !== null ? { ...i, accounted: true } : i);
		for (const r of f.records ?? []) {
			issues.push({ file: f.file, line: r.line, kind: 'internal-error', message: `not shown: the model failed (${why})`, accounted: true });
		}
	}
	const accounted = issues.filter((i) => i.accounted).length;
	return {
		session: { rompUuid, name: opts.name || rompUuid, dir: opts.dir ?? '', color: '#888888', leafFsid: leaf, landedTextUuids: [], turns: [] },
		issues,
		offPath: [],
		metadata: [],
		accounting: { lines: accounted, atoms: 0, offPath: 0, metadata: 0, issues: accounted },
	};
}

function build(input: ParseInput, opts: ParseOptions): ParseResult {
	const compat: Compat = opts.compat ?? 'viewer';
	const viewer = compat === 'viewer';
	const subagent = !!opts.subagent;
	const transcripts = input.transcripts ?? [];
	const leafFile = transcripts.length ? transcripts[transcripts.length - 1].file : '';
	const leafFsid = fileStem(leafFile);
	const rompUuid = opts.rompUuid || leafFsid;
	const issues: Issue[] = [];
	const ctx: Ctx = { compat, viewer, subagent, rompUuid, issues, fsids: transcripts.map((f) => fileStem(f.file)), files: transcripts.map((f) => f.file) };
	const offPath: OffPathLine[] = [];
	const metadata: MetadataLine[] = [];
	let accLines = 0;
	let accAtoms = 0;
	let accIssues = 0;

	// Reader-level issues: each is the home of one line (file-level ones have line null).
	for (const f of [...transcripts, input.states ?? null, input.postal ?? null]) {
		if (!f) continue;
		accLines += f.lines;
		for (const i of f.issues) {
			if (i.line !== null) {
				issues.push({ ...i, accounted: true });
				accIssues++;
			} else issues.push(i);
		}
	}

	// ── 1. postal index: message id → sender anchor sid (first row with both wins) ──
	const postal = new Map<string, string>();
	if (input.postal) {
		for (const r of input.postal.records) {
			const v = r.value;
			const id = v.id;
			const from = v.from_id;
			if (typeof id === 'string' && id && typeof from === 'string' && from && !postal.has(id)) postal.set(id, from);
			metadata.push({ file: input.postal.file, line: r.line, type: 'postal', t: typeof v.t === 'number' ? v.t : null });
		}
	}

	// ── 2. lines, timestamps, uuid graph ──
	const lines: Line[] = [];
	for (let fi = 0; fi < transcripts.length; fi++) {
		const f = transcripts[fi];
		let lastT = NaN;
		let lastMs = NaN;
		const firstOfFile = lines.length;
		for (const rec of f.records) {
			const v = rec.value;
			const type = typeof v.type === 'string' ? v.type : '';
			const uuid = str(v.uuid);
			const pt = parseTimestamp(v.timestamp);
			let t: number, ms: number, tsProblem: string | null = null;
			if (pt) {
				t = pt.t;
				ms = pt.ms;
				lastT = t;
				lastMs = ms;
				if (pt.warn) tsProblem = pt.warn;
			} else {
				t = lastT;
				ms = lastMs;
				tsProblem = v.timestamp === undefined || v.timestamp === null ? 'missing' : `unparseable ${JSON.stringify(v.timestamp).slice(0, 60)}`;
			}
			lines.push({ seq: lines.length, fi, rec, v, type, uuid, t, ms, tsProblem });
		}
		// Lines before the file's first timestamp take the first one that follows.
		let k = firstOfFile;
		while (k < lines.length && Number.isNaN(lines[k].t)) k++;
		const fillT = k < lines.length ? lines[k].t : 0;
		const fillMs = k < lines.length ? lines[k].ms : 0;
		for (let j = firstOfFile; j < k; j++) {
			lines[j].t = fillT;
			lines[j].ms = fillMs;
		}
	}
	const n = lines.length;
	const place = new Uint8Array(n);
	const reason: (string | undefined)[] = new Array(n);

	// uuid → index of its line (last copy wins, like a dict assignment).
	const nodes = new Map<string, number>();
	for (const L of lines) {
		if (L.uuid === null) continue;
		const prev = nodes.get(L.uuid);
		if (prev !== undefined) {
			issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'duplicate-uuid', message: `uuid ${L.uuid} also on ${ctx.files[lines[prev].fi]}:${lines[prev].rec.line}; the later line defines the graph node` });
		}
		nodes.set(L.uuid, L.seq);
	}
	// Graph as arrays indexed by line seq (one Map lookup per link, no per-node Sets).
	// parentIdx: seq of the parent's node line; -1 = no parent (root); -2 = parent uuid absent everywhere.
	const NO_PARENT = -1, DANGLING = -2;
	const parentIdx = new Int32Array(n).fill(NO_PARENT);
	const parentUuidOf = (i: number): string | null => str(lines[i].v.parentUuid) ?? str(lines[i].v.logicalParentUuid);
	for (const i of nodes.values()) {
		const p = parentUuidOf(i);
		parentIdx[i] = p === null ? NO_PARENT : nodes.get(p) ?? DANGLING;
	}
	const isSidechainLine = (L: Line) => !subagent && viewer && L.v.isSidechain === true;

	// ── 3. leaf ──
	let leaf = -1;
	if (transcripts.length) {
		const lastFi = transcripts.length - 1;
		for (let i = n - 1; i >= 0 && lines[i].fi === lastFi; i--) {
			const L = lines[i];
			if (L.uuid === null) continue;
			if (viewer) {
				if (isSidechainLine(L)) continue;
				if (L.type === 'system' && !str(L.v.parentUuid) && !str(L.v.logicalParentUuid) && L.v.subtype !== 'compact_boundary') continue;
			}
			leaf = nodes.get(L.uuid)!;
			break;
		}
	}
	if (opts.leafOverride && nodes.has(opts.leafOverride)) leaf = nodes.get(opts.leafOverride)!;

	// ── 4. stitch repair: a boundary whose link dangles → preservedSegment tail, anchor, head ──
	const stitched = new Map<number, string>();
	for (const i of nodes.values()) {
		const L = lines[i];
		if (parentIdx[i] !== DANGLING || L.type !== 'system' || L.v.subtype !== 'compact_boundary') continue;
		const cm = isObj(L.v.compactMetadata) ? L.v.compactMetadata : isObj(L.v.compact_metadata) ? L.v.compact_metadata : null;
		const ps = cm && isObj(cm.preservedSegment) ? cm.preservedSegment : null;
		if (!ps) continue;
		for (const k of ['tailUuid', 'anchorUuid', 'headUuid']) {
			const c = str(ps[k]);
			if (c && nodes.has(c)) {
				parentIdx[i] = nodes.get(c)!;
				stitched.set(i, c);
				break;
			}
		}
	}
	/** The resolved parent link of a node line (after stitch repair), as the atom shows it. */
	const resolvedParent = (i: number): string | null => stitched.get(i) ?? parentUuidOf(i);

	// ── 5. active path and kept set (verdicts on node lines) ──
	const VISITING = 9;
	const verdict = new Uint8Array(n);
	if (leaf >= 0) {
		let cur = leaf;
		// The reference stops after 500k steps; the visited check already prevents loops, so
		// viewer mode walks the whole path (a very long session must not lose its start).
		const maxSteps = viewer ? Infinity : 500000;
		let steps = 0;
		while (cur >= 0 && verdict[cur] === 0 && steps++ < maxSteps) {
			verdict[cur] = V_ACTIVE;
			cur = parentIdx[cur];
		}
		if (cur >= 0 && verdict[cur] !== 0) {
			const L = lines[cur];
			issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'parent-cycle', message: `parentUuid links loop back to ${L.uuid}; the walk from the leaf stops there` });
		}
	}
	const path: number[] = [];
	for (const u of nodes.values()) {
		if (verdict[u] !== 0) continue;
		path.length = 0;
		let cur = u;
		let result = V_KEPT;
		for (;;) {
			path.push(cur);
			verdict[cur] = VISITING;
			const p = parentIdx[cur];
			if (p === NO_PARENT) { result = V_CLEAR; break; }
			if (p === DANGLING) { result = V_KEPT; break; }
			const known = verdict[p];
			if (known === VISITING) {
				result = V_KEPT;
				const L = lines[p];
				issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'parent-cycle', message: `parentUuid links loop through ${L.uuid}; the branch is kept as broken` });
				break;
			}
			if (known !== 0) { result = known === V_ACTIVE ? V_REWIND : known; break; }
			cur = p;
		}
		for (const q of path) verdict[q] = result;
	}
	// Per line (duplicates share their node's verdict). Sidechain lines (viewer mode, main
	// transcript) never sit on the main path.
	const lineVerdict = new Uint8Array(n);
	for (const L of lines) {
		if (L.uuid === null) continue;
		const node = nodes.get(L.uuid)!;
		let vd = verdict[node];
		if (isSidechainLine(L) && vd !== V_ACTIVE) vd = V_SIDECHAIN;
		lineVerdict[L.seq] = vd;
	}
	if (viewer) {
		// D8: a null-rooted system note (local_command output, informational, ...) is not a
		// cleared conversation: it is metadata on its own.
		for (const L of lines) {
			if (lineVerdict[L.seq] !== V_CLEAR || L.type !== 'system') continue;
			const sub = L.v.subtype;
			if (sub === 'compact_boundary' || sub === 'model_refusal_fallback') continue;
			if (!str(L.v.parentUuid) && !str(L.v.logicalParentUuid)) lineVerdict[L.seq] = V_KEPT;
		}
		rescueParallelToolLines(lines, lineVerdict, (u) => {
			const i = nodes.get(u);
			return i !== undefined && (lineVerdict[i] === V_ACTIVE || lineVerdict[i] === V_KEPT);
		});
	}
	const kept = (L: Line) => lineVerdict[L.seq] === V_ACTIVE || lineVerdict[L.seq] === V_KEPT;

	// Content lines without a uuid can never join the graph: they are issues.
	for (const L of lines) {
		if (L.uuid !== null) continue;
		const sub = L.v.subtype;
		if (L.type === 'user' || L.type === 'assistant' || (L.type === 'system' && (sub === 'compact_boundary' || sub === 'model_refusal_fallback'))) {
			place[L.seq] = PLACE_ISSUE;
			accIssues++;
			issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'missing-uuid', message: `${L.type} line has no uuid, so it cannot be placed in the conversation`, accounted: true });
		}
	}

	// ── 6. pre-passes over kept lines in time order ──
	const keptLines: Line[] = [];
	let sorted = true;
	for (const L of lines) {
		if (L.uuid === null || !kept(L)) continue;
		if (keptLines.length && L.t < keptLines[keptLines.length - 1].t) sorted = false;
		keptLines.push(L);
	}
	const timeOrder = sorted ? keptLines : keptLines.slice().sort((a, b) => a.t - b.t || a.seq - b.seq);
	const textCache: (string | undefined)[] = new Array(n);
	const badText = { nullText: false };
	const lineText = (L: Line): string => {
		let s = textCache[L.seq];
		if (s === undefined) {
			const m = L.v.message;
			badText.nullText = false;
			s = isObj(m) ? blocksText(m.content, badText) : '';
			if (badText.nullText) issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: 'bad-content', message: 'a text block has no string text (read as "")' });
			textCache[L.seq] = s;
		}
		return s;
	};
	const replay = new Set<number>();
	const boundarySummary = new Map<number, string>();
	{
		let compacted = false;
		let restoring = false;
		let lastBoundary = -1;
		const seenPairs = new Set<string>();
		const seenTexts = new Set<string>();
		for (const L of timeOrder) {
			if (L.type === 'system' && L.v.subtype === 'compact_boundary') {
				compacted = true;
				restoring = true;
				lastBoundary = L.seq;
			} else if (L.type === 'assistant') {
				restoring = false;
			} else if (L.type === 'user') {
				const text = lineText(L);
				if (L.v.isCompactSummary === true) {
					if (lastBoundary >= 0) boundarySummary.set(lastBoundary, cap(text, SUMMARY_CAP, '\n\n…(summary truncated)'));
					continue;
				}
				if (L.v.isMeta === true || !text) continue;
				const key = L.t + '\u0000' + text;
				if (seenPairs.has(key) || (compacted && restoring && seenTexts.has(text))) {
					replay.add(L.seq);
				} else {
					seenPairs.add(key);
					seenTexts.add(text);
				}
			}
		}
	}
	const skillIds = new Set<string>();
	const commandPromptIds = new Map<string, Set<string>>();
	for (const L of keptLines) {
		if (L.type === 'assistant') {
			const m = L.v.message;
			if (isObj(m) && Array.isArray(m.content)) {
				for (const b of m.content) if (isObj(b) && b.type === 'tool_use' && b.name === 'Skill' && typeof b.id === 'string') skillIds.add(b.id);
			}
		} else if (L.type === 'user') {
			const pid = L.v.promptId;
			if (typeof pid !== 'string' || !pid) continue;
			const name = leadingCommandName(lineText(L));
			if (name === null) continue;
			let set = commandPromptIds.get(pid);
			if (!set) commandPromptIds.set(pid, (set = new Set()));
			set.add(name);
		}
	}

	// viewer: recover null stop_reason per message.id (last line of the group in file order).
	const recovered = new Map<number, string>();
	if (viewer) {
		const groups = new Map<string, { last: number; toolUse: boolean }>();
		for (const L of keptLines) {
			if (L.type !== 'assistant') continue;
			const m = L.v.message;
			if (!isObj(m) || typeof m.id !== 'string') continue;
			let g = groups.get(m.id);
			if (!g) groups.set(m.id, (g = { last: L.seq, toolUse: false }));
			g.last = L.seq;
			if (Array.isArray(m.content)) for (const b of m.content) if (isObj(b) && b.type === 'tool_use') g.toolUse = true;
		}
		for (const g of groups.values()) {
			const m = lines[g.last].v.message as Obj;
			if (m.stop_reason !== null && m.stop_reason !== undefined) continue;
			if (g.toolUse) recovered.set(g.last, 'tool_use');
			else {
				const c = m.content;
				const lastBlock = Array.isArray(c) && c.length ? c[c.length - 1] : null;
				if (isObj(lastBlock) && lastBlock.type === 'text') recovered.set(g.last, 'end_turn');
			}
		}
	}

	// ── 7. atom emission ──
	const authorCtx: AuthorContext = { postal, sdkHuman: !!opts.sdkHuman };
	const atoms: Atom[] = [];
	const atomSeq: number[] = [];
	const emit = (L: Line | null, a: Atom, seq: number) => {
		atoms.push(a);
		atomSeq.push(seq);
		if (L) {
			place[L.seq] = PLACE_ATOM;
			accAtoms++;
			if (L.tsProblem) {
				const kind = L.tsProblem === 'missing' ? 'missing-timestamp' : 'bad-timestamp';
				const message = L.tsProblem === LOWER_Z
					? `timestamp has a ${LOWER_Z}; read as UTC`
					: `timestamp ${L.tsProblem}; the line is placed at the time of its neighbour`;
				issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind, message });
			}
		}
	};
	const skip = (L: Line, why: string) => {
		reason[L.seq] = why;
	};
	const base = (L: Line, type: Atom['type']): Atom => {
		const a: Atom = { type, uuid: L.uuid, session_id: rompUuid, t: L.t, fsid: ctx.fsids[L.fi], parentUuid: (L.v.parentUuid as string | null | undefined) ?? null };
		return a;
	};
	const extras = (L: Line, a: Atom) => {
		if (!viewer) return a;
		a.ms = L.ms;
		a.line = L.rec.line;
		const v = L.v;
		if (v.toolUseResult !== undefined) a.toolUseResult = v.toolUseResult;
		const m = v.message;
		if (isObj(m) && typeof m.id === 'string') a.messageId = m.id;
		if (typeof v.isSidechain === 'boolean') a.isSidechain = v.isSidechain;
		if (v.isMeta === true) a.isMeta = true;
		if (typeof v.agentId === 'string') a.agentId = v.agentId;
		return a;
	};

	for (const L of keptLines) {
		if (place[L.seq] !== PLACE_NONE) continue;
		const v = L.v;
		if (L.type === 'assistant') {
			const a = base(L, 'assistant');
			a.message = normMessage(v.message, 'assistant');
			const rec = recovered.get(L.seq);
			if (rec) {
				a.message.stop_reason = rec;
				a.stopReasonRecovered = true;
			}
			if (v.isApiErrorMessage) {
				a.isApiError = true;
				if (Number.isInteger(v.apiErrorStatus) && typeof v.apiErrorStatus === 'number') a.apiErrorStatus = v.apiErrorStatus;
			}
			emit(L, extras(L, a), L.seq);
		} else if (L.type === 'user') {
			emitUser(L);
		} else if (L.type === 'system') {
			const sub = v.subtype;
			if (sub === 'compact_boundary') {
				const a = base(L, 'system');
				a.subtype = 'compact_boundary';
				a.parentUuid = resolvedParent(nodes.get(L.uuid!)!);
				const cm = isObj(v.compactMetadata) ? v.compactMetadata : isObj(v.compact_metadata) ? v.compact_metadata : {};
				a.compact_metadata = {
					trigger: (cm.trigger as string | undefined) ?? null,
					pre_tokens: jsOr(cm.preTokens, cm.pre_tokens) as number | null,
					post_tokens: jsOr(cm.postTokens, cm.post_tokens) as number | null,
				};
				a.summary = boundarySummary.get(L.seq) ?? null;
				emit(L, extras(L, a), L.seq);
			} else if (sub === 'model_refusal_fallback') {
				const a = base(L, 'system');
				a.subtype = 'model_refusal_fallback';
				a.parentUuid = resolvedParent(nodes.get(L.uuid!)!);
				// rec.get(key, "") semantics: only a missing key defaults to "".
				a.content = v.content === undefined ? '' : v.content;
				a.fallback_from = v.originalModel === undefined ? '' : v.originalModel;
				a.fallback_to = v.fallbackModel === undefined ? '' : v.fallbackModel;
				emit(L, extras(L, a), L.seq);
			} else skip(L, `system:${typeof sub === 'string' ? sub : 'none'}`);
		}
	}

	function emitUser(L: Line): void {
		const v = L.v;
		const m = isObj(v.message) ? v.message : {};
		const text = lineText(L);
		const isReplay = replay.has(L.seq);
		const toolResult = hasToolResult(m.content);
		// 1. command invocation (before the isMeta skip)
		const cmd = isReplay ? null : parseCommand(text);
		if (cmd) {
			const a = base(L, 'user');
			a.message = { role: (m.role as string | undefined) ?? 'user', content: [{ type: 'text', text: cmd.display }] };
			a.author = 'human';
			a.command = cmd.name;
			emit(L, extras(L, a), L.seq);
			return;
		}
		// 2. local command stdout
		const out = isReplay ? null : parseStdout(text);
		if (out !== null) {
			const a = base(L, 'assistant');
			a.command = true;
			a.message = { role: 'assistant', content: [{ type: 'text', text: out }], stop_reason: 'end_turn' };
			emit(L, extras(L, a), L.seq);
			return;
		}
		// 3. invocation twin
		const pid = v.promptId;
		if (typeof pid === 'string' && !toolResult) {
			const names = commandPromptIds.get(pid);
			if (names) {
				for (const nm of names) {
					if (text === nm || text.startsWith(nm + ' ')) return skip(L, 'command-twin');
				}
			}
		}
		// 4. skill instructions
		if (text && !toolResult && !isReplay) {
			const src = v.sourceToolUseID;
			if (text.startsWith(SKILL_PREAMBLE) || (typeof src === 'string' && skillIds.has(src))) {
				const a = base(L, 'assistant');
				a.message = { role: 'assistant', content: [], stop_reason: null };
				a.skillMd = cap(text, SKILL_CAP, '\n\n…(skill content truncated)');
				emit(L, extras(L, a), L.seq);
				return;
			}
		}
		// 5. image echo
		if (!toolResult && isImageEcho(text)) return skip(L, 'image-echo');
		// 6. isMeta noise (postal deliveries survive)
		if (v.isMeta === true && !hasPostalMarker(text)) return skip(L, 'isMeta');
		// 7. compaction summary (rides the boundary)
		if (v.isCompactSummary === true) return skip(L, 'compact-summary');
		// 8. replays
		if (isReplay) {
			place[L.seq] = PLACE_OFF;
			reason[L.seq] = 'replay';
			return;
		}
		// 9. empty content
		const content = normContent(m.content);
		if (content.length === 0) return skip(L, 'empty');
		// 10. remaining wrappers
		if (startsWithWrapper(text)) return skip(L, 'command-wrapper');
		// 11. normal user atom
		const a = base(L, 'user');
		a.message = normMessage(m, 'user');
		if (v.promptSource !== undefined && v.promptSource !== null) a.promptSource = v.promptSource as string;
		const author = deriveAuthor(text, v.promptSource, authorCtx);
		if (author !== null) a.author = author;
		if (hasAutoMarker(text)) a.rompAuto = true;
		emit(L, extras(L, a), L.seq);
	}

	// absorbed (mid-turn) prompts: queued_command attachments, in file order
	{
		const seen = new Set<string>();
		for (const L of lines) {
			if (L.type !== 'attachment') continue;
			const att = L.v.attachment;
			if (!isObj(att) || att.type !== 'queued_command') continue;
			if (place[L.seq] !== PLACE_NONE) continue;
			if (L.tsProblem && L.tsProblem !== LOWER_Z) {
				place[L.seq] = PLACE_ISSUE;
				accIssues++;
				issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: L.tsProblem === 'missing' ? 'missing-timestamp' : 'bad-timestamp', message: `queued_command attachment with timestamp ${L.tsProblem} is not shown`, accounted: true });
				continue;
			}
			if (L.uuid !== null && !kept(L)) continue; // rewound/cleared/sidechain copy: off path
			const prompt = att.prompt;
			const text = typeof prompt === 'string' ? prompt : blocksText(prompt);
			const stripped = pyStrip(text);
			if (!stripped) {
				skip(L, 'empty');
				continue;
			}
			const key = L.t + '\u0000' + collapseWs(text);
			if (seen.has(key)) {
				place[L.seq] = PLACE_OFF;
				reason[L.seq] = 'absorbed-duplicate';
				continue;
			}
			seen.add(key);
			const a: Atom = {
				type: 'user',
				uuid: L.uuid,
				session_id: rompUuid,
				t: L.t,
				// The reference knows the file only of attachments that are graph nodes; viewer
				// mode always says where the line lives (D6).
				fsid: L.uuid !== null || viewer ? ctx.fsids[L.fi] : null,
				// The reference only knows graph fields of attachments that are graph nodes.
				parentUuid: L.uuid !== null ? ((L.v.parentUuid as string | null | undefined) ?? null) : null,
				message: { role: 'user', content: [{ type: 'text', text }] },
				author: deriveAuthor(stripped, undefined, authorCtx),
				absorbed: true,
			};
			if (hasAutoMarker(text)) a.rompAuto = true;
			emit(L, extras(L, a), L.seq);
		}
	}

	// ── 8. state rows: landed texts, orphans, idle ──
	const landed = new Set<string>();
	for (const L of lines) {
		if (L.type === 'assistant' && L.uuid !== null && hasNonBlankText(L.v.message)) landed.add(L.uuid);
	}
	const landedTextUuids = [...landed].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

	const stateRows: { t: number; v: Obj; line: number }[] = [];
	if (input.states) {
		const sf = input.states.file;
		for (const r of input.states.records) {
			const v = r.value;
			if (typeof v.t !== 'number' || !Number.isFinite(v.t)) {
				issues.push({ file: sf, line: r.line, kind: 'bad-state-row', message: `state row has no numeric t (${JSON.stringify(v.t ?? null).slice(0, 40)}); ignored` });
				metadata.push({ file: sf, line: r.line, type: 'state', t: null, reason: 'bad-state-row' });
				continue;
			}
			stateRows.push({ t: v.t, v, line: r.line });
			metadata.push({ file: sf, line: r.line, type: 'state', t: v.t });
		}
	}
	// orphan replies
	if (stateRows.some((r) => isObj(r.v.orphanReply))) {
		const textAtoms = new Set<string>();
		const assistantTexts: string[] = [];
		for (const a of atoms) {
			if (a.type !== 'assistant') continue;
			const t = blocksText(a.message?.content);
			if (t) {
				if (a.uuid) textAtoms.add(a.uuid);
				assistantTexts.push(t);
			}
		}
		let cutT: number | null = null;
		if (opts.leafOverride && nodes.has(opts.leafOverride)) cutT = lines[nodes.get(opts.leafOverride)!].t;
		const markerTexts: string[] = [];
		for (const row of stateRows) {
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
				session_id: rompUuid,
				t: row.t,
				fsid: null,
				parentUuid: null,
				message: { role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
				orphaned: true,
			};
			if (viewer) a.ms = row.t * 1000;
			emit(null, a, IDLE_SEQ + row.t);
		}
	}
	// idle atoms
	if (stateRows.length && atoms.length) {
		const rows = stateRows.slice().sort((a, b) => a.t - b.t);
		let lo = Infinity;
		let hi = -Infinity;
		for (const a of atoms) {
			if (a.t < lo) lo = a.t;
			const e = a.end ?? a.t;
			if (e > hi) hi = e;
		}
		const now = opts.now ?? null;
		const top = now === null ? hi : Math.max(hi, now);
		for (let i = 0; i < rows.length; i++) {
			const s = rows[i].v.state;
			if (s !== 'idle' && s !== 'waiting') continue;
			const start = rows[i].t;
			const end = i + 1 < rows.length ? rows[i + 1].t : now ?? hi;
			if (end <= start || end < lo || start > top) continue;
			const a: Atom = { type: 'idle', uuid: null, session_id: rompUuid, t: start, end };
			if (viewer) a.ms = start * 1000;
			emit(null, a, IDLE_SEQ + start);
		}
	}

	// ── 9. order, turns ──
	const order = atoms.map((_, i) => i);
	order.sort((x, y) => atoms[x].t - atoms[y].t || atomSeq[x] - atomSeq[y]);
	const sortedAtoms = order.map((i) => atoms[i]);
	const turns = groupTurns(sortedAtoms, rompUuid);

	// ── 10. accounting of the remaining lines ──
	let accOff = 0;
	for (const L of lines) {
		const p = place[L.seq];
		if (p === PLACE_ATOM || p === PLACE_ISSUE) continue;
		const file = ctx.files[L.fi];
		if (p === PLACE_OFF) {
			offPath.push({ file, line: L.rec.line, uuid: L.uuid, reason: reason[L.seq] ?? 'off-path' });
			accOff++;
			continue;
		}
		const vd = L.uuid !== null ? lineVerdict[L.seq] : 0;
		if (vd === V_REWIND || vd === V_CLEAR || vd === V_SIDECHAIN) {
			offPath.push({ file, line: L.rec.line, uuid: L.uuid, reason: VERDICT_NAME[vd] });
			accOff++;
			continue;
		}
		const m: MetadataLine = { file, line: L.rec.line, type: metaType(L), uuid: L.uuid, t: Number.isNaN(L.t) ? null : L.t };
		const why = reason[L.seq];
		if (why) m.reason = why;
		if (viewer && (!KNOWN_TYPES.has(L.type) || KEEP_VALUE_KINDS.has(L.type) || L.type === 'system')) m.value = L.v;
		metadata.push(m);
	}

	const session: Session = {
		rompUuid,
		name: opts.name || rompUuid,
		dir: opts.dir ?? '',
		color: '#888888',
		leafFsid,
		landedTextUuids,
		turns,
	};
	return {
		session,
		issues,
		offPath,
		metadata,
		accounting: { lines: accLines, atoms: accAtoms, offPath: accOff, metadata: metadata.length, issues: accIssues },
	};
}

function isLocalCommandText(text: string): boolean {
	return text.startsWith('<command-name>') || text.startsWith('<local-command-stdout>') || text.startsWith('<local-command-caveat>') || text.startsWith('<command-message>');
}

function metaType(L: Line): string {
	if (L.type === 'system' && typeof L.v.subtype === 'string') return `system:${L.v.subtype}`;
	if (L.type === 'attachment' && isObj(L.v.attachment) && typeof L.v.attachment.type === 'string') return `attachment:${L.v.attachment.type}`;
	return L.type || '(no type)';
}

function jsOr(a: unknown, b: unknown): unknown {
	if (a) return a;
	return b === undefined ? null : b;
}

function collapseWs(s: string): string {
	return pySplit(s).join(' ');
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

function normMessage(m: unknown, role: 'user' | 'assistant'): ApiMessage {
	if (!isObj(m)) return { role, content: [] };
	const out: ApiMessage = { role: (m.role as string | undefined) ?? role, content: normContent(m.content) };
	if (m.model !== undefined && m.model !== null) out.model = m.model as string;
	if (m.stop_reason !== undefined && m.stop_reason !== null) out.stop_reason = m.stop_reason as string;
	if (m.usage !== undefined && m.usage !== null) out.usage = m.usage as ApiMessage['usage'];
	return out;
}

/**
 * viewer divergence: parallel tool calls are not rewinds. Claude Code writes one line per
 * content block, and the tool_result of each parallel tool_use hangs off ITS tool_use line, so
 * every call but the last forms a side branch that rejoins the active path — the reference
 * drops those as rewinds. A "rewound" line is rescued when it is an assistant line of a message
 * (message.id) that is kept, a tool_result line answering only kept tool_use ids that have no
 * kept result yet, or a non-content
 * line (attachment, progress, system) hanging off a rescued line. Local slash-command lines
 * (/doctor, /status and their stdout) hanging off a kept line are side branches too. Lines in file order, so a
 * rescued tool_use line makes its later results rescuable.
 */
function rescueParallelToolLines(lines: Line[], verdict: Uint8Array, keptUuid: (u: string) => boolean): void {
	const msgIds = new Set<string>();
	const toolIds = new Set<string>();
	const answered = new Set<string>();
	const note = (L: Line) => {
		const m = L.v.message;
		if (!isObj(m) || !Array.isArray(m.content)) return;
		if (L.type === 'assistant') {
			if (typeof m.id === 'string') msgIds.add(m.id);
			for (const b of m.content) if (isObj(b) && b.type === 'tool_use' && typeof b.id === 'string') toolIds.add(b.id);
		} else if (L.type === 'user') {
			for (const b of m.content) if (isObj(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string') answered.add(b.tool_use_id);
		}
	};
	let any = false;
	for (const L of lines) {
		const vd = verdict[L.seq];
		if (vd === V_ACTIVE || vd === V_KEPT) note(L);
		else if (vd === V_REWIND) any = true;
	}
	if (!any) return;
	const rescued = new Set<string>();
	for (const L of lines) {
		if (verdict[L.seq] !== V_REWIND || L.uuid === null) continue;
		const m = L.v.message;
		let ok = false;
		if (L.type === 'assistant') ok = isObj(m) && typeof m.id === 'string' && msgIds.has(m.id);
		else if (L.type === 'user') {
			const c = isObj(m) ? m.content : null;
			const p = str(L.v.parentUuid);
			if (p !== null && (rescued.has(p) || keptUuid(p)) && isLocalCommandText(blocksText(c))) ok = true;
			else if (Array.isArray(c) && c.length > 0) {
				ok = true;
				for (const b of c) {
					// A result for a call that already has a kept result is a genuine rewind.
					if (!isObj(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string' || !toolIds.has(b.tool_use_id) || answered.has(b.tool_use_id)) {
						ok = false;
						break;
					}
				}
			}
		} else {
			// Progress / hook attachments / system notes hanging off a kept or rescued line are
			// side notes, not branches (a queued_command only via a rescued parent).
			const p = str(L.v.parentUuid);
			const att = L.v.attachment;
			const queued = isObj(att) && att.type === 'queued_command';
			ok = p !== null && (rescued.has(p) || (!queued && keptUuid(p)));
		}
		if (ok) {
			verdict[L.seq] = V_KEPT;
			rescued.add(L.uuid);
			note(L);
		}
	}
	rescueUnansweredBranches(lines, verdict);
}

/**
 * viewer divergence (D4): a side branch that holds a prompt but no assistant line was never answered — e.g.
 * a prompt sent while Claude worked and interrupted at once. Nothing the model said is hidden
 * there, so dropping it would only lose a real ask; it is kept. Branches with any assistant line
 * (a genuine rewind: the old prompt and its replies) stay dropped.
 */
function rescueUnansweredBranches(lines: Line[], verdict: Uint8Array): void {
	const rootOf = new Map<string, number>(); // rewound uuid → seq of its branch root
	const answeredRoot = new Set<number>();
	const promptRoot = new Set<number>();
	const members: Line[] = [];
	for (const L of lines) {
		if (verdict[L.seq] !== V_REWIND || L.uuid === null) continue;
		const p = str(L.v.parentUuid) ?? str(L.v.logicalParentUuid);
		const root = (p !== null ? rootOf.get(p) : undefined) ?? L.seq;
		rootOf.set(L.uuid, root);
		members.push(L);
		if (L.type === 'assistant') answeredRoot.add(root);
		else if (L.type === 'user' && L.v.isMeta !== true && isObj(L.v.message) && blocksText(L.v.message.content)) promptRoot.add(root);
	}
	for (const L of members) {
		const root = rootOf.get(L.uuid!)!;
		if (promptRoot.has(root) && !answeredRoot.has(root)) verdict[L.seq] = V_KEPT;
	}
}
