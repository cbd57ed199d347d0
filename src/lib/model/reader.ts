// RecordReader: turns a stream of byte or string chunks into JSON line records plus issues.
// A UTF-8 BOM is dropped, CRLF is accepted, blank lines are skipped, a final line without a
// newline is read, and a multi-byte character split across byte chunks decodes correctly.
//
// Bytes: newlines are found on the bytes (a "\n" byte never occurs inside a multi-byte UTF-8
// sequence), and a chunk's complete lines are decoded in runs of one width (readRuns). The
// bytes after a chunk's last "\n" are carried as bytes (outside the JS heap) and decoded when
// their line ends; a line spread over many chunks is never held as partial strings. Cutting
// the stream just after a "\n" never changes what a UTF-8 decoder produces, so decoding by runs
// equals decoding the whole stream. A line's byte length is its byte span: no re-encoding.
//
// Files still being written: snapshot() returns the records so far plus the unterminated tail
// read as a last line (what finish() would give now) without consuming it, so a live reader can
// be read again after more bytes arrive; earlier lines are never re-read (see incremental.ts).
import type { FileRecords, Issue, LineRecord } from './types.ts';

/** UTF-8 byte length of a JS string (lone surrogates count as 3, like TextEncoder's U+FFFD). */
export function utf8Length(s: string): number {
	let n = s.length;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) continue;
		if (c < 0x800) n += 1;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			n += 2; // 4 bytes for 2 code units
			i++;
		} else n += 2;
	}
	return n;
}

function isBlank(s: string): boolean {
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false;
	}
	return true;
}

function snippet(s: string): string {
	return s.length > 80 ? JSON.stringify(s.slice(0, 80)) + '…' : JSON.stringify(s);
}

function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
	if (parts.length === 1) return parts[0];
	const out = new Uint8Array(total);
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
}

/**
 * Whether bytes[from..to) hold a UTF-8 lead byte of a character above U+00FF (0xC4 and up):
 * such a line decodes to a two-byte string in V8. Latin-1 letters (0xC2 / 0xC3 leads) do not.
 * Most bytes are ASCII, so four are tested at a time for a high bit through a word view when
 * the bytes are aligned for one; only words with a high byte are looked at byte by byte.
 */
function hasWideChar(bytes: Uint8Array, from: number, to: number): boolean {
	let i = from;
	const offset = bytes.byteOffset;
	while (i < to && ((offset + i) & 3) !== 0) if (bytes[i++] >= 0xc4) return true;
	if (to - i >= 16) {
		const words = new Uint32Array(bytes.buffer, offset + i, (to - i) >> 2);
		for (let w = 0; w < words.length; w++) {
			if ((words[w] & 0x80808080) === 0) continue;
			const at = i + 4 * w;
			if (bytes[at] >= 0xc4 || bytes[at + 1] >= 0xc4 || bytes[at + 2] >= 0xc4 || bytes[at + 3] >= 0xc4) return true;
		}
		i += words.length * 4;
	}
	for (; i < to; i++) if (bytes[i] >= 0xc4) return true;
	return false;
}

const isBom = (b: Uint8Array): boolean => b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;

/** One line read: a record, an issue, or nothing (blank). */
type LineOutcome = { record: LineRecord } | { issue: Issue } | null;

export class RecordReader {
	readonly file: string;
	/** Decodes whole-line runs, never mid-character, so each call may start afresh; the BOM is dropped by hand. */
	private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
	/** 'bytes' or 'text': the kind of the first chunk; the other kind is converted to it. */
	private mode: 'bytes' | 'text' | null = null;
	/** bytes mode: the bytes after the last "\n" seen (only snapshot() decodes them again) */
	private carry: Uint8Array[] = [];
	private carryBytes = 0;
	/** the decoded text after the last "\n" seen (both modes) */
	private pending: string[] = [];
	/** text mode: decodes byte chunks pushed into a text-mode reader */
	private textDecoder: TextDecoder | null = null;
	/** Nothing decoded yet: a BOM at the front of the stream is still to be dropped. */
	private atStart = true;
	private lineNo = 0;
	private totalBytes = 0;
	private nonBlank = 0;
	private records: LineRecord[] = [];
	private issues: Issue[] = [];
	private finished = false;

	constructor(file: string) {
		this.file = file;
	}

	push(chunk: Uint8Array | string): void {
		if (this.finished) throw new Error('RecordReader: push after finish');
		if (chunk.length === 0) return;
		if (this.mode === null) this.mode = typeof chunk === 'string' ? 'text' : 'bytes';
		if (this.mode === 'bytes') {
			this.pushBytes(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
		} else if (typeof chunk === 'string') {
			this.pushText(chunk);
		} else {
			this.totalBytes += chunk.length; // counted here: the decoded text is not re-measured
			this.textDecoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
			const text = this.textDecoder.decode(chunk, { stream: true });
			if (text) this.pushText(text, true);
		}
	}

	private pushBytes(chunk: Uint8Array): void {
		this.totalBytes += chunk.length;
		const first = chunk.indexOf(10);
		if (first < 0) {
			// No line ends here: keep the bytes (outside the JS heap), decode them once the line ends.
			this.carry.push(chunk);
			this.carryBytes += chunk.length;
			return;
		}
		let from = 0;
		if (this.carryBytes > 0) {
			// The line begun in earlier chunks: its bytes are decoded once, as one piece.
			this.carry.push(chunk.subarray(0, first));
			const run = concatBytes(this.carry, this.carryBytes + first);
			this.carry = [];
			this.carryBytes = 0;
			this.take(this.readLine(this.decodeRun(run), run.length - this.bomOf(run), true));
			from = first + 1;
		}
		const last = chunk.lastIndexOf(10);
		if (from <= last) this.readRuns(chunk, from, last);
		if (last + 1 < chunk.length) {
			this.carry.push(chunk.subarray(last + 1));
			this.carryBytes = chunk.length - last - 1;
		}
	}

	/**
	 * Reads the complete lines chunk[from..last] (chunk[last] is a "\n"). Consecutive lines of
	 * one width are decoded in one call and cut at each "\n": few decodes (in a browser each
	 * returns an engine-external string that a later collection must finalize one by one), yet a
	 * line whose characters all fit in one byte never shares a string with one that does not.
	 * One wide character makes V8 store a whole decoded run as two-byte text, and JSON.parse of
	 * two-byte text is ~40 % slower: whole chunks decoded at once cost the model that much.
	 */
	private readRuns(chunk: Uint8Array, from: number, last: number): void {
		let start = from;
		let wide = false;
		for (let b = from; b <= last; ) {
			const nl = chunk.indexOf(10, b);
			const w = hasWideChar(chunk, b, nl);
			if (b > start && w !== wide) {
				this.readRun(chunk, start, b - 1);
				start = b;
			}
			wide = w;
			b = nl + 1;
		}
		this.readRun(chunk, start, last);
	}

	/** Decodes the lines chunk[from..end] (chunk[end] is a "\n") in one call. */
	private readRun(chunk: Uint8Array, from: number, end: number): void {
		const run = chunk.subarray(from, end);
		const bom = this.bomOf(run);
		const text = this.decodeRun(run);
		// A "\n" byte is never part of a multi-byte character, so the n-th "\n" of the text is
		// the n-th of the bytes: each line's UTF-8 length comes from the bytes.
		let s = 0;
		for (let b = from; b <= end; ) {
			const nl = chunk.indexOf(10, b);
			const e = nl === end ? text.length : text.indexOf('\n', s);
			this.take(this.readLine(text.slice(s, e), nl - b - (b === from ? bom : 0), true));
			s = e + 1;
			b = nl + 1;
		}
	}

	/** 3 when run starts the stream with a UTF-8 BOM (dropped from line 1), else 0. */
	private bomOf(run: Uint8Array): number {
		return this.lineNo === 0 && isBom(run) ? 3 : 0;
	}

	/** Text of one line's bytes (or the stream's last bytes): no character is cut. */
	private decodeRun(run: Uint8Array): string {
		const bom = this.bomOf(run);
		return this.decoder.decode(bom ? run.subarray(bom) : run);
	}

	private pushText(chunk: string, counted = false): void {
		if (this.atStart) {
			this.atStart = false;
			if (chunk.charCodeAt(0) === 0xfeff) {
				if (!counted) this.totalBytes += 3;
				chunk = chunk.slice(1);
			}
		}
		if (!counted) this.totalBytes += utf8Length(chunk);
		const last = chunk.lastIndexOf('\n');
		if (last < 0) {
			if (chunk) this.pending.push(chunk);
			return;
		}
		let s = 0;
		for (;;) {
			const nl = chunk.indexOf('\n', s);
			if (nl < 0) break;
			let line: string;
			if (this.pending.length > 0) {
				this.pending.push(chunk.slice(s, nl));
				line = this.pending.join('');
				this.pending = [];
			} else line = chunk.slice(s, nl);
			this.take(this.readLine(line, utf8Length(line), true));
			s = nl + 1;
		}
		if (s < chunk.length) this.pending.push(chunk.slice(s));
	}

	private take(o: LineOutcome): void {
		if (o === null) return;
		if ('record' in o) this.records.push(o.record);
		else this.issues.push(o.issue);
	}

	/** Reads the next physical line (advancing the line number). */
	private readLine(raw: string, bytes: number, terminated: boolean): LineOutcome {
		this.lineNo++;
		const o = this.lineOutcome(this.lineNo, raw, bytes, terminated);
		if (o !== null) this.nonBlank++;
		return o;
	}

	private lineOutcome(lineNo: number, raw: string, bytes: number, terminated: boolean): LineOutcome {
		let line = raw;
		if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) {
			line = line.slice(0, -1);
			bytes -= 1;
		}
		if (line.length === 0 || isBlank(line)) return null;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (e) {
			const why = e instanceof Error ? e.message : String(e);
			return {
				issue: {
					file: this.file,
					line: lineNo,
					kind: terminated ? 'invalid-json' : 'truncated-line',
					message: terminated
						? `line is not valid JSON (${why}): ${snippet(line)}`
						: `last line has no newline and is not valid JSON (truncated write?): ${snippet(line)}`,
				},
			};
		}
		if (value === null || typeof value !== 'object' || Array.isArray(value)) {
			return {
				issue: {
					file: this.file,
					line: lineNo,
					kind: 'not-object',
					message: `line is valid JSON but not an object (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`,
				},
			};
		}
		return { record: { line: lineNo, value: value as Record<string, unknown>, bytes } };
	}

	/** The unterminated last line as it stands (text and UTF-8 bytes), or null. */
	private tail(): { text: string; bytes: number } | null {
		if (this.mode === 'bytes') {
			if (this.carryBytes === 0) return null;
			const run = concatBytes(this.carry, this.carryBytes);
			return { text: this.decodeRun(run), bytes: run.length - this.bomOf(run) };
		}
		// A byte chunk decoded in text mode may leave an incomplete character in textDecoder;
		// a throwaway copy of the state is not possible, so it is flushed only by finish().
		const text = this.pending.join('');
		return text ? { text, bytes: utf8Length(text) } : null;
	}

	private emptyIssue(): Issue[] {
		return this.totalBytes === 0 ? [{ file: this.file, line: null, kind: 'empty-file', message: 'file is empty' }] : [];
	}

	/**
	 * The file as finish() would return it now, without ending the stream: the unterminated
	 * tail is read as the last line but kept, so later pushes continue it. The arrays returned
	 * are copies only when the tail or an empty-file issue adds to them.
	 */
	snapshot(): FileRecords {
		if (this.finished) return this.finish();
		const t = this.tail();
		const o = t ? this.lineOutcome(this.lineNo + 1, t.text, t.bytes, false) : null;
		const empty = this.emptyIssue();
		return {
			file: this.file,
			bytes: this.totalBytes,
			lines: this.nonBlank + (o ? 1 : 0),
			records: o && 'record' in o ? [...this.records, o.record] : this.records,
			issues: o && 'issue' in o ? [...this.issues, o.issue, ...empty] : empty.length ? [...this.issues, ...empty] : this.issues,
		};
	}

	/** Records of complete lines read so far (a live view: it grows as lines complete). */
	get completeRecords(): readonly LineRecord[] {
		return this.records;
	}

	/** Issues of complete lines so far (a live view). */
	get completeIssues(): readonly Issue[] {
		return this.issues;
	}

	/** Non-blank complete lines so far. */
	get completeLines(): number {
		return this.nonBlank;
	}

	finish(): FileRecords {
		if (!this.finished) {
			this.finished = true;
			if (this.mode === 'text' && this.textDecoder) {
				const rest = this.textDecoder.decode();
				if (rest) this.pending.push(rest);
			}
			const t = this.tail();
			this.carry = [];
			this.carryBytes = 0;
			this.pending = [];
			if (t) this.take(this.readLine(t.text, t.bytes, false));
			this.issues.push(...this.emptyIssue());
		}
		return {
			file: this.file,
			bytes: this.totalBytes,
			lines: this.nonBlank,
			records: this.records,
			issues: this.issues,
		};
	}
}

/** Read a whole file given as chunks (bytes or text, in order). */
export function readRecords(file: string, chunks: Iterable<Uint8Array | string>): FileRecords {
	const r = new RecordReader(file);
	for (const c of chunks) r.push(c);
	return r.finish();
}
