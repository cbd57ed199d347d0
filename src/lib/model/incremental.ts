// IncrementalBuilder: a session built from files that grow (following a live session). Bytes
// appended to any file (main transcript / candidates, state log, postal log) go through that
// file's RecordReader once; earlier bytes are never read or parsed again. build() returns what
// buildSession would return for the concatenated files (deep-equal, both modes), by one of:
//
//   fast      the appended records extend the stages' state of the previous build (kept from
//             buildSessionKeeping): the line table, uuid graph, verdicts, pre-passes, emitted
//             atoms, issue and metadata lists. Only the turns from the first changed atom on are
//             grouped again. Valid only for the shape live sessions append all the time; every
//             condition is checked per line BEFORE anything is changed (see fastLine), else:
//   rebuilt   the stages run again over the records already read (no parsing): a rewind or
//             branch, a compaction, a duplicate uuid, a line an earlier line pointed at, a
//             new or reordered candidate file, a postal row, a queued prompt, a line out of
//             time order, a message id or tool id an off-path line holds, …;
//   snapshot  some file ends in an unterminated line that parses as a record (e.g. a finished
//             file without a final newline): a one-off build over the records plus that line
//             (what buildSession sees); the kept state stays at the complete lines and catches
//             up later. An unterminated line that does not parse (a line still being written)
//             is only a reader issue, so it does not leave the fast path.
//
// Turns equal (deep) to the previous result's are returned as the previous objects, so views can
// tell by identity what to recompute: .change lists the changed turn indices after each build().
// A line still being written is decoded and tried as JSON again at each build (the issue it
// gives must match a whole read); a follower that appends only up to the last newline avoids that.
import { accountReaderIssues, placeLine } from './accounting.ts';
import { buildSession, buildSessionKeeping, type BuildInternals } from './build.ts';
import { fileStem, LOWER_Z, PLACE_ATOM, str, V_ACTIVE, V_KEPT, V_REWIND, type Ctx, type Line } from './build-context.ts';
import { assistantAtom, emitKeptLine } from './emit.ts';
import { isSidechainLine, parentUuidOf } from './graph.ts';
import { flagUuidlessLine, lineOf, type FileClock } from './line-table.ts';
import { noteCommandIds, noteStopGroup, recoveredStop } from './pre-passes.ts';
import { RecordReader } from './reader.ts';
import { emitIdle, emitOrphanReplies, landedTexts, leafOverrideTime, readStateRows } from './state-log.ts';
import { isObj, leadingCommandName } from './text.ts';
import { groupTurns } from './turns.ts';
import type { Atom, FileRecords, Issue, LineRecord, MetadataLine, OffPathLine, ParseInput, ParseOptions, ParseResult, Turn } from './types.ts';

export type AppendRole = 'transcript' | 'states' | 'postal';

/** What one build() changed, for views that recompute only that. */
export interface BuildChange {
	/** how the result was made (see the module comment); 'unchanged': nothing was appended */
	path: 'fast' | 'rebuilt' | 'snapshot' | 'unchanged';
	/** indices (ascending) of turns that are not the previous result's objects */
	changedTurns: number[];
	/** the first of them, or turns.length: turns before it are the previous result's objects */
	firstChangedTurn: number;
	/** the previous result's turn count (turns beyond the new count were dropped) */
	previousTurnCount: number;
}

/** Indices of next's turns that are not the same objects as prev's at that index. */
export function changedTurnIndices(prev: readonly Turn[], next: readonly Turn[]): number[] {
	const out: number[] = [];
	for (let i = 0; i < next.length; i++) if (next[i] !== prev[i]) out.push(i);
	return out;
}

/** The romp reference's active-path walk limit (romp mode only; see active-path.ts). */
const ROMP_WALK_LIMIT = 500000;

interface FileState {
	reader: RecordReader;
	/** records the kept state has taken in */
	taken: number;
}

/** The stages' state of the last fast / rebuilt build, plus what the fast path checks against. */
interface Live {
	x: BuildInternals;
	files: string[];
	states: string | null;
	postal: string | null;
	/** the leaf file's clock (its last timestamp) and how many lines it has */
	clock: FileClock;
	leafLines: number;
	activeLen: number;
	/** uuids some line points at (parent links, stitch candidates) that are no node (yet) */
	wanted: Set<string>;
	/** message ids and tool ids held by rewound / broken lines: a kept line holding one can change the rescues */
	touchy: Set<string>;
	/** sourceToolUseID and promptId values of user lines (a later Skill call / command name changes their rules) */
	sourceIds: Set<string>;
	promptIds: Set<string>;
	keptMaxT: number;
	/** line atoms sorted by (t, seq) */
	atoms: Atom[];
	atomT: number[];
	atomSeq: number[];
	synth: Atom[];
	/** issues by stage: graph, uuid-less, pre-passes, emission, absorbed, state rows */
	issues: Issue[][];
	/** metadata: postal rows, state rows, lines */
	meta: MetadataLine[][];
	offPath: OffPathLine[];
	landedSorted: string[];
	/** the live result's turns, their concatenated atoms and each turn's first index there */
	turns: Turn[];
	merged: Atom[];
	turnStarts: number[];
}

const G = 0, U = 1, P = 2, E = 3, A = 4, S = 5;
const M_POSTAL = 0, M_STATES = 1, M_LINES = 2;

export class IncrementalBuilder {
	private readonly opts: ParseOptions;
	private readonly files = new Map<string, FileState>();
	private transcripts: string[] = [];
	private states: string | null = null;
	private postal: string | null = null;
	private live: Live | null = null;
	private dirty = true;
	private last: ParseResult | null = null;
	private lastChange: BuildChange = { path: 'unchanged', changedTurns: [], firstChangedTurn: 0, previousTurnCount: 0 };

	constructor(opts: ParseOptions = {}) {
		this.opts = { ...opts };
	}

	/**
	 * Bytes appended to one file (any chunking: a split inside a line or a UTF-8 character is
	 * fine). Transcripts keep the order in which they were first appended (leaf = the last one
	 * added), unless setTranscriptOrder is called. A file keeps the role it was first given.
	 */
	append(role: AppendRole, file: string, bytes: Uint8Array | string): void {
		let f = this.files.get(file);
		if (!f || this.roleOf(file) === null) {
			// new, or a transcript a later setTranscriptOrder left out: it (re)joins as the leaf
			if (!f) this.files.set(file, (f = { reader: new RecordReader(file), taken: 0 }));
			if (role === 'transcript') this.transcripts.push(file);
			else if (role === 'states') this.setSingle('states', file);
			else this.setSingle('postal', file);
		} else if (this.roleOf(file) !== role) {
			throw new Error(`IncrementalBuilder: ${file} was appended as ${this.roleOf(file)}, not ${role}`);
		}
		f.reader.push(bytes);
		this.dirty = true;
	}

	/** Candidate transcripts, LEAF LAST (files not appended yet count as empty). */
	setTranscriptOrder(files: string[]): void {
		// the same order changes nothing: the next build stays 'unchanged' (same result object)
		if (sameList(files, this.transcripts)) return;
		for (const file of files) {
			const role = this.roleOf(file);
			if (role !== null && role !== 'transcript') throw new Error(`IncrementalBuilder: ${file} is the ${role} log`);
			if (!this.files.has(file)) this.files.set(file, { reader: new RecordReader(file), taken: 0 });
		}
		this.transcripts = [...files];
		this.dirty = true;
	}

	/** One file's records as a whole read would give them now (null for a file never appended). */
	records(file: string): FileRecords | null {
		const f = this.files.get(file);
		return f ? f.reader.snapshot() : null;
	}

	/** What the last build() changed. */
	get change(): BuildChange {
		return this.lastChange;
	}

	/** The session now: deep-equal to buildSession over the concatenated bytes, both modes. */
	build(): ParseResult {
		const prev = this.last;
		if (!this.dirty && prev) {
			this.lastChange = { path: 'unchanged', changedTurns: [], firstChangedTurn: prev.session.turns.length, previousTurnCount: prev.session.turns.length };
			return prev;
		}
		this.dirty = false;
		let result: ParseResult;
		let path: BuildChange['path'];
		const snaps = new Map<FileState, FileRecords>();
		let tailRecord = false;
		for (const f of this.files.values()) {
			const snap = f.reader.snapshot();
			snaps.set(f, snap);
			if (snap.records.length > f.reader.completeRecords.length) tailRecord = true;
		}
		const input = this.input((f) => snaps.get(f)!);
		if (tailRecord) {
			// An unterminated line that parses: it is a record now, but the next bytes may still
			// change it, so it must not enter the kept state.
			result = buildSession(input, this.opts);
			path = 'snapshot';
		} else {
			// An unterminated line that does not parse (yet) is only a reader issue: the kept
			// state holds the complete lines, and the reader issues are taken afresh each build.
			let fast: ParseResult | null = null;
			if (this.live) {
				try {
					fast = this.advance(this.live, input);
				} catch {
					fast = null; // an internal failure of the fast path: the full build decides
				}
			}
			if (fast) {
				result = fast;
				path = 'fast';
			} else {
				result = this.rebuild(input);
				path = 'rebuilt';
			}
		}
		const prevTurns = prev?.session.turns ?? [];
		const remap = reuseEqualTurns(prevTurns, result.session.turns);
		if (this.live && path !== 'snapshot' && remap.size) this.remapLive(this.live, remap);
		const changedTurns = changedTurnIndices(prevTurns, result.session.turns);
		this.lastChange = { path, changedTurns, firstChangedTurn: changedTurns.length ? changedTurns[0] : result.session.turns.length, previousTurnCount: prevTurns.length };
		this.last = result;
		return result;
	}

	// ── files ──────────────────────────────────────────────────────────────

	private roleOf(file: string): AppendRole | null {
		if (this.transcripts.includes(file)) return 'transcript';
		if (file === this.states) return 'states';
		if (file === this.postal) return 'postal';
		return null;
	}

	private setSingle(which: 'states' | 'postal', file: string): void {
		if (this[which] !== null) throw new Error(`IncrementalBuilder: a session has one ${which} log (${this[which]}), not also ${file}`);
		this[which] = file;
	}

	private input(read: (f: FileState) => FileRecords): ParseInput {
		const get = (name: string | null) => (name === null ? null : read(this.files.get(name)!));
		return { transcripts: this.transcripts.map((n) => read(this.files.get(n)!)), states: get(this.states), postal: get(this.postal) };
	}

	// ── rebuild: every stage over the records read so far ─────────────────

	private rebuild(input: ParseInput): ParseResult {
		for (const f of this.files.values()) f.taken = f.reader.completeRecords.length;
		const { result, internals } = buildSessionKeeping(input, this.opts);
		this.live = internals && !this.opts.leafOverride ? this.keepLive(internals, result) : null;
		return result;
	}

	private keepLive(x: BuildInternals, result: ParseResult): Live | null {
		const { ctx, table, graph, pre, sink } = x.env;
		const im = x.issueMarks;
		if (im.length !== 7 || ctx.issues.length !== im[6]) return null;
		let readerAccounted = 0;
		for (let i = 0; i < im[0]; i++) if (ctx.issues[i].accounted) readerAccounted++;
		const issues = [G, U, P, E, A, S].map((k) => ctx.issues.slice(im[k], im[k + 1]));
		const mm = x.metaMarks;
		const meta = [ctx.metadata.slice(0, mm[0]), ctx.metadata.slice(mm[0], mm[1]), ctx.metadata.slice(mm[1])];
		ctx.issues = [];
		ctx.metadata = [];
		ctx.acc.issues -= readerAccounted; // reader issues are counted afresh at each build
		ctx.acc.lines = 0;

		// line atoms in (t, seq) order; the synthetic ones are recomputed at each build
		const order: number[] = [];
		for (let i = 0; i < x.lineAtoms; i++) order.push(i);
		order.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
		const synthIdx: number[] = [];
		for (let i = x.lineAtoms; i < sink.atoms.length; i++) synthIdx.push(i);
		synthIdx.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
		const synth = synthIdx.map((i) => sink.atoms[i]);
		const atoms = order.map((i) => sink.atoms[i]);
		const atomT = order.map((i) => sink.atoms[i].t);
		const atomSeq = order.map((i) => sink.seqOf(i));
		sink.truncate(x.lineAtoms);

		const lines = table.lines;
		const leafFi = ctx.files.length - 1;
		let leafLines = 0;
		let timed = false;
		for (let i = lines.length - 1; i >= 0 && lines[i].fi === leafFi; i--) {
			leafLines++;
			const p = lines[i].tsProblem;
			if (p === null || p === LOWER_Z) timed = true;
		}
		const lastLine = lines[lines.length - 1];
		const clock: FileClock = timed ? { t: lastLine.t, ms: lastLine.ms } : { t: NaN, ms: NaN };

		const wanted = new Set<string>();
		const touchy = new Set<string>();
		const sourceIds = new Set<string>();
		const promptIds = new Set<string>();
		for (const L of lines) {
			const v = L.v;
			if (L.type === 'user') {
				if (typeof v.sourceToolUseID === 'string') sourceIds.add(v.sourceToolUseID);
				if (typeof v.promptId === 'string') promptIds.add(v.promptId);
			}
			if (L.uuid === null) continue;
			for (const p of [parentUuidOf(L), str(v.parentUuid)]) if (p !== null && !graph.nodes.has(p)) wanted.add(p);
			const cm = isObj(v.compactMetadata) ? v.compactMetadata : isObj(v.compact_metadata) ? v.compact_metadata : null;
			const ps = cm && isObj(cm.preservedSegment) ? cm.preservedSegment : null;
			if (ps) for (const k of ['tailUuid', 'anchorUuid', 'headUuid']) if (typeof ps[k] === 'string') wanted.add(ps[k] as string);
			const vd = x.verdict[L.seq];
			if (vd === V_REWIND || vd === V_KEPT) for (const id of idsOf(L)) touchy.add(id);
		}
		let activeLen = 0;
		for (const i of graph.nodes.values()) if (x.verdict[i] === V_ACTIVE) activeLen++;
		let keptMaxT = -Infinity;
		for (const L of pre.keptLines) if (L.t > keptMaxT) keptMaxT = L.t;

		const turns = result.session.turns;
		const merged: Atom[] = [];
		const turnStarts: number[] = [];
		for (const t of turns) {
			turnStarts.push(merged.length);
			for (const a of t.atoms) merged.push(a);
		}
		return {
			x, files: [...ctx.files], states: this.states, postal: this.postal, clock, leafLines, activeLen, wanted, touchy, sourceIds, promptIds, keptMaxT,
			atoms, atomT, atomSeq, synth, issues, meta, offPath: x.offPath.slice(), landedSorted: result.session.landedTextUuids, turns, merged, turnStarts,
		};
	}

	// ── fast path ──────────────────────────────────────────────────────────

	/** Extends the kept state with the records read since; null when a rebuild is needed. */
	private advance(live: Live, input: ParseInput): ParseResult | null {
		if (!sameList(live.files, this.transcripts) || live.states !== this.states || live.postal !== this.postal) return null;
		if (this.postal !== null && this.fresh(this.postal).length) return null; // authors of earlier atoms may change
		const leafName = this.transcripts[this.transcripts.length - 1];
		for (const name of this.transcripts) if (name !== leafName && this.fresh(name).length) return null;
		const newLines = leafName === undefined ? [] : this.fresh(leafName);
		const newRows = this.states === null ? [] : this.fresh(this.states);
		const x = live.x;
		for (const rec of newLines) if (!this.fastLine(live, rec)) return null;
		if (newLines.length) this.files.get(leafName)!.taken += newLines.length;
		if (newRows.length) {
			const ctx = x.env.ctx;
			const rows = readStateRows(ctx, { file: this.states!, bytes: 0, lines: newRows.length, records: newRows, issues: [] });
			for (const r of rows) x.rows.push(r);
			drain(ctx.issues, live.issues[S]);
			drain(ctx.metadata, live.meta[M_STATES]);
			this.files.get(this.states!)!.taken += newRows.length;
		}
		return this.liveResult(live, input);
	}

	private fresh(name: string): LineRecord[] {
		const f = this.files.get(name)!;
		const recs = f.reader.completeRecords;
		return recs.length > f.taken ? recs.slice(f.taken) : [];
	}

	/**
	 * One record appended to the leaf file. Returns false (nothing changed yet) when the line
	 * may change what earlier lines became. Checks first, then changes.
	 */
	private fastLine(live: Live, rec: LineRecord): boolean {
		const x = live.x;
		const env = x.env;
		const { ctx, table, graph, pre, texts, sink } = env;
		const lines = table.lines;
		const seq = lines.length;
		const clock = { ...live.clock };
		const L = lineOf(rec, ctx.files.length - 1, seq, clock);
		// A line before the file's first timestamp takes a LATER line's time (fillLeadingTimes).
		if (Number.isNaN(live.clock.t) && (live.leafLines > 0 || Number.isNaN(L.t))) return false;
		// Queued prompts: absorbed.ts reads them across the whole file.
		if (L.type === 'queue-operation') return false;
		if (L.type === 'attachment' && isObj(L.v.attachment) && L.v.attachment.type === 'queued_command') return false;
		let replaced = Infinity;
		let prevLast = -1;
		if (L.uuid !== null) {
			const v = L.v;
			if (graph.nodes.has(L.uuid) || live.wanted.has(L.uuid)) return false;
			if (isSidechainLine(ctx, L)) return false;
			if (L.type === 'system' && (v.subtype === 'compact_boundary' || (ctx.viewer && !str(v.parentUuid) && !str(v.logicalParentUuid)))) return false;
			if (L.type === 'user' && v.isCompactSummary === true) return false;
			// the new leaf must extend the active path: its parent is the current leaf
			const p = parentUuidOf(L);
			if (x.leaf < 0 || p === null || graph.nodes.get(p) !== x.leaf) return false;
			if (!ctx.viewer && live.activeLen >= ROMP_WALK_LIMIT) return false;
			if (L.t < live.keptMaxT || (live.atomT.length && L.t < live.atomT[live.atomT.length - 1])) return false;
			for (const id of idsOf(L)) if (live.touchy.has(id)) return false;
			for (const id of skillIdsOf(L)) if (live.sourceIds.has(id)) return false;
			if (L.type === 'user') {
				const pid = v.promptId;
				if (typeof pid === 'string' && pid && live.promptIds.has(pid) && leadingCommandName(texts.of(L)) !== null) return false;
			}
			const m = v.message;
			if (ctx.viewer && L.type === 'assistant' && isObj(m) && typeof m.id === 'string') {
				const g = pre.stopGroups.get(m.id);
				if (g) {
					prevLast = g.last;
					if (pre.recovered.has(prevLast)) {
						if (table.place[prevLast] !== PLACE_ATOM) return false;
						replaced = findAtom(live, lines[prevLast]);
						if (replaced < 0) return false;
					}
				}
			}
		}

		// ── changes ──
		live.clock = clock;
		live.leafLines++;
		lines.push(L);
		growTo(x, seq + 1);
		if (L.uuid === null) {
			flagUuidlessLine(ctx, table, L);
			drain(ctx.issues, live.issues[U]);
		} else {
			graph.nodes.set(L.uuid, seq);
			graph.parentIdx[seq] = x.leaf;
			x.verdict[seq] = V_ACTIVE;
			x.leaf = seq;
			live.activeLen++;
			pre.keptLines.push(L);
			live.keptMaxT = L.t;
			pre.replayScan.feed(L);
			noteCommandIds(L, texts, pre.skillIds, pre.commandPromptIds);
			drain(ctx.issues, live.issues[P]);
			if (L.type === 'user') {
				if (typeof L.v.sourceToolUseID === 'string') live.sourceIds.add(L.v.sourceToolUseID);
				if (typeof L.v.promptId === 'string') live.promptIds.add(L.v.promptId);
			}
			if (ctx.viewer) {
				const g = noteStopGroup(pre.stopGroups, L);
				if (g) {
					if (prevLast >= 0) pre.recovered.delete(prevLast);
					const r = recoveredStop(lines, g);
					if (r === null) pre.recovered.delete(seq);
					else pre.recovered.set(seq, r);
				}
				if (replaced !== Infinity) {
					// no longer its message's last line: its atom loses the recovered stop_reason
					const old = lines[prevLast];
					live.atoms[replaced] = sink.lineAtom(old, assistantAtom(env, old));
				}
			}
			const n0 = sink.atoms.length;
			emitKeptLine(env, L);
			drain(ctx.issues, live.issues[E]);
			if (sink.atoms.length > n0) {
				live.atoms.push(sink.atoms[n0]);
				live.atomT.push(L.t);
				live.atomSeq.push(seq);
			}
			if (L.type === 'assistant' && landedTexts([L]).landed.size) {
				x.landed.add(L.uuid);
				live.landedSorted = insertSorted(live.landedSorted, L.uuid);
			}
		}
		placeLine(ctx, table, x.verdict, L, live.offPath);
		drain(ctx.metadata, live.meta[M_LINES]);
		return true;
	}

	/** The result of the kept state: synthetic atoms afresh, turns regrouped from the first changed atom. */
	private liveResult(live: Live, files: ParseInput): ParseResult {
		const x = live.x;
		const { ctx, table, graph, sink } = x.env;
		// synthetic atoms (state rows): recomputed, the previous objects kept where equal
		let synth: Atom[] = [];
		if (x.rows.length) {
			const n = sink.atoms.length;
			emitOrphanReplies(ctx, sink, x.rows, x.landed, leafOverrideTime(ctx, table.lines, graph));
			emitIdle(ctx, sink, x.rows);
			const idx: number[] = [];
			for (let i = n; i < sink.atoms.length; i++) idx.push(i);
			idx.sort((a, b) => sink.atoms[a].t - sink.atoms[b].t || sink.seqOf(a) - sink.seqOf(b));
			synth = idx.map((i, k) => (live.synth[k] !== undefined && deepEqual(live.synth[k], sink.atoms[i]) ? live.synth[k] : sink.atoms[i]));
			sink.truncate(n);
		}
		live.synth = synth;
		// merge line atoms and synthetic atoms by (t, seq): a line sorts before a synthetic atom at the same t
		const merged: Atom[] = new Array(live.atoms.length + synth.length);
		for (let i = 0, j = 0, k = 0; k < merged.length; k++) {
			if (j >= synth.length || (i < live.atoms.length && live.atomT[i] <= synth[j].t)) merged[k] = live.atoms[i++];
			else merged[k] = synth[j++];
		}
		let d = 0;
		const old = live.merged;
		while (d < merged.length && d < old.length && merged[d] === old[d]) d++;
		let turns = live.turns;
		let turnStarts = live.turnStarts;
		if (d < merged.length || d < old.length) {
			// Regroup from the last turn that starts before the first changed atom: its opening
			// atom and everything before it are unchanged, so the grouping scan reaches it in the
			// same state and opens a turn there again (groupTurns restarted with no current turn).
			let k = upperBound(turnStarts, d - 1) - 1;
			if (k < 0) k = 0;
			const start = turns.length ? turnStarts[k] : 0;
			const tail = groupTurns(merged.slice(start), ctx.rompUuid);
			turns = turns.slice(0, k);
			turnStarts = turnStarts.slice(0, k);
			let at = start;
			for (const t of tail) {
				turnStarts.push(at);
				at += t.atoms.length;
				turns.push(t);
			}
		}
		live.turns = turns;
		live.turnStarts = turnStarts;
		live.merged = merged;

		// reader issues and line counts afresh (they are per file, in file order, first)
		const rctx = { issues: [] as Issue[], acc: { lines: 0, atoms: 0, issues: 0 } } as unknown as Ctx;
		accountReaderIssues(rctx, [...files.transcripts, files.states, files.postal]);
		const issues = rctx.issues.concat(...live.issues);
		const metadata = ([] as MetadataLine[]).concat(...live.meta);
		const offPath = live.offPath.slice();
		const leafFsid = fileStem(this.transcripts.length ? this.transcripts[this.transcripts.length - 1] : '');
		return {
			session: { rompUuid: ctx.rompUuid, name: this.opts.name || ctx.rompUuid, dir: this.opts.dir ?? '', color: '#888888', leafFsid, landedTextUuids: live.landedSorted, turns, ...(x.branches.length ? { branches: x.branches } : {}) },
			issues,
			offPath,
			metadata,
			accounting: { lines: rctx.acc.lines, atoms: ctx.acc.atoms, offPath: offPath.length, metadata: metadata.length, issues: rctx.acc.issues + ctx.acc.issues },
		};
	}

	/** After turns were swapped for equal previous ones: the kept atoms become those objects too. */
	private remapLive(live: Live, remap: Map<Atom, Atom>): void {
		const to = (a: Atom) => remap.get(a) ?? a;
		live.atoms = live.atoms.map(to);
		live.synth = live.synth.map(to);
		live.merged = live.merged.map(to);
	}
}

// ── helpers ────────────────────────────────────────────────────────────────

/** Message id and tool ids a line would add to the rescue pass's kept-id sets (rewind-rescue.ts). */
function idsOf(L: Line): string[] {
	const out: string[] = [];
	const m = L.v.message;
	if (!isObj(m)) return out;
	if (L.type === 'assistant' && typeof m.id === 'string') out.push(m.id);
	if (Array.isArray(m.content)) {
		for (const b of m.content) {
			if (!isObj(b)) continue;
			if (L.type === 'assistant' && b.type === 'tool_use' && typeof b.id === 'string') out.push(b.id);
			if (L.type === 'user' && b.type === 'tool_result' && typeof b.tool_use_id === 'string') out.push(b.tool_use_id);
		}
	}
	return out;
}

function skillIdsOf(L: Line): string[] {
	const m = L.v.message;
	if (L.type !== 'assistant' || !isObj(m) || !Array.isArray(m.content)) return [];
	return m.content.filter((b) => isObj(b) && b.type === 'tool_use' && b.name === 'Skill' && typeof b.id === 'string').map((b) => (b as { id: string }).id);
}

/** Index in live.atoms of a line's atom (sorted by (t, seq)), or -1. */
function findAtom(live: Live, L: Line): number {
	let lo = 0;
	let hi = live.atoms.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (live.atomT[mid] < L.t || (live.atomT[mid] === L.t && live.atomSeq[mid] < L.seq)) lo = mid + 1;
		else hi = mid;
	}
	return lo < live.atoms.length && live.atomSeq[lo] === L.seq ? lo : -1;
}

/** First index whose value is > v (xs ascending). */
function upperBound(xs: number[], v: number): number {
	let lo = 0;
	let hi = xs.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (xs[mid] <= v) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** A new sorted array with s inserted (code-unit order, like landedTexts' sort). */
function insertSorted(xs: string[], s: string): string[] {
	let lo = 0;
	let hi = xs.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (xs[mid] < s) lo = mid + 1;
		else hi = mid;
	}
	if (xs[lo] === s) return xs;
	return [...xs.slice(0, lo), s, ...xs.slice(lo)];
}

/** Moves everything from `from` to the end of `to`. */
function drain<T>(from: T[], to: T[]): void {
	for (const v of from) to.push(v);
	from.length = 0;
}

function sameList(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Typed arrays of the line table and graph sized for n lines (doubling, so appends stay cheap). */
function growTo(x: BuildInternals, n: number): void {
	const { table, graph } = x.env;
	if (table.place.length < n) {
		const cap = Math.max(n, table.place.length * 2, 1024);
		const place = new Uint8Array(cap);
		place.set(table.place);
		table.place = place;
		const verdict = new Uint8Array(cap);
		verdict.set(x.verdict);
		x.verdict = verdict;
		const parentIdx = new Int32Array(cap).fill(-1);
		parentIdx.set(graph.parentIdx);
		graph.parentIdx = parentIdx;
	}
}

/** Structural equality of JSON-like values (identity short-cuts shared sub-objects). */
export function deepEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (Array.isArray(a)) {
		const bb = b as unknown[];
		if (a.length !== bb.length) return false;
		for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], bb[i])) return false;
		return true;
	}
	const ka = Object.keys(a);
	const kb = Object.keys(b);
	if (ka.length !== kb.length) return false;
	for (const k of ka) {
		if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
		if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
	}
	return true;
}

/**
 * Puts the previous result's turn objects in place of equal new ones (same index), so identity
 * says what changed. Returns new atom → previous atom for the atoms of the turns swapped.
 */
function reuseEqualTurns(prev: readonly Turn[], next: Turn[]): Map<Atom, Atom> {
	const remap = new Map<Atom, Atom>();
	for (let i = 0; i < next.length && i < prev.length; i++) {
		if (next[i] === prev[i] || !deepEqual(next[i], prev[i])) continue;
		const a = next[i].atoms;
		const b = prev[i].atoms;
		for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) remap.set(a[k], b[k]);
		next[i] = prev[i];
	}
	return remap;
}
