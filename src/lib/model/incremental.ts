// IncrementalBuilder: a session built from files that grow (following a live session). Appended
// bytes go through their file's RecordReader once; earlier bytes are never read again. build()
// returns what buildSession would for the concatenated files (deep-equal, both modes), one of:
//   fast      the appended lines extend the kept state of the last build (incremental-state.ts);
//             only turns from the first changed atom on are grouped again. Valid only for the
//             shape live sessions append; every condition is checked per line before anything
//             changes (incremental-fast.ts), else:
//   rebuilt   the stages run again over the records already read (no parsing): a rewind, a
//             compaction, a duplicate uuid, a line an earlier one pointed at, a new candidate
//             file, a postal row, a queued prompt, a line out of time order, …;
//   snapshot  a file ends in an unterminated line that parses: a one-off build with that line,
//             while the kept state stays at the complete lines. (One that does not parse yet is
//             only a reader issue and keeps the fast path.)
// Turns deep-equal to the previous result's are returned as the previous objects, so views tell
// by identity what to recompute (.change lists the changed turns). A line still being written is
// parsed again at each build; a follower that appends whole lines only avoids that.
import { buildSession, buildSessionKeeping } from './build.ts';
import { RecordReader } from './reader.ts';
import { readStateRows } from './state-log.ts';
import type { Atom, FileRecords, LineRecord, ParseInput, ParseOptions, ParseResult, Turn } from './types.ts';
import { fastLine } from './incremental-fast.ts';
import { deepEqual, drain, keepLive, liveResult, M_STATES, remapLive, S, type Live } from './incremental-state.ts';

export { deepEqual };

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

interface FileState {
	reader: RecordReader;
	/** records the kept state has taken in */
	taken: number;
}

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
		if (this.live && path !== 'snapshot' && remap.size) remapLive(this.live, remap);
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
		this.live = internals && !this.opts.leafOverride ? keepLive(internals, result, this.states, this.postal) : null;
		return result;
	}

	// ── fast path (incremental-fast.ts) ───────────────────────────────────

	/** Extends the kept state with the records read since; null when a rebuild is needed. */
	private advance(live: Live, input: ParseInput): ParseResult | null {
		if (!sameList(live.files, this.transcripts) || live.states !== this.states || live.postal !== this.postal) return null;
		if (this.postal !== null && this.fresh(this.postal).length) return null; // authors of earlier atoms may change
		const leafName = this.transcripts[this.transcripts.length - 1];
		for (const name of this.transcripts) if (name !== leafName && this.fresh(name).length) return null;
		const newLines = leafName === undefined ? [] : this.fresh(leafName);
		const newRows = this.states === null ? [] : this.fresh(this.states);
		const x = live.x;
		for (const rec of newLines) if (!fastLine(live, rec)) return null;
		if (newLines.length) this.files.get(leafName)!.taken += newLines.length;
		if (newRows.length) {
			const ctx = x.env.ctx;
			const rows = readStateRows(ctx, { file: this.states!, bytes: 0, lines: newRows.length, records: newRows, issues: [] });
			for (const r of rows) x.rows.push(r);
			drain(ctx.issues, live.issues[S]);
			drain(ctx.metadata, live.meta[M_STATES]);
			this.files.get(this.states!)!.taken += newRows.length;
		}
		return liveResult(live, input, this.transcripts, this.opts);
	}

	private fresh(name: string): LineRecord[] {
		const f = this.files.get(name)!;
		const recs = f.reader.completeRecords;
		return recs.length > f.taken ? recs.slice(f.taken) : [];
	}
}

// ── helpers ────────────────────────────────────────────────────────────────

function sameList(a: string[], b: string[]): boolean {
	return a.length === b.length && a.every((v, i) => v === b[i]);
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
