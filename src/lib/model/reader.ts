// RecordReader: turns a stream of byte or string chunks into JSON line records plus issues.
// Built for finished files read whole (not for tailing a live file): a UTF-8 BOM is dropped,
// CRLF is accepted, blank lines are skipped, a final line without a newline is read, and a
// multi-byte character split across byte chunks decodes correctly (TextDecoder stream mode).
// Bytes are decoded once per chunk; lines are found by scanning the decoded text for "\n".
// A line's byte length comes from the matching "\n" positions in the byte chunk (a "\n" byte
// never occurs inside a multi-byte UTF-8 sequence), so no per-line re-encoding is needed.
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

export class RecordReader {
	readonly file: string;
	private decoder = new TextDecoder('utf-8');
	private pending: string[] = [];
	private pendingBytes = 0;
	private lineNo = 0;
	private totalBytes = 0;
	private nonBlank = 0;
	private records: LineRecord[] = [];
	private issues: Issue[] = [];
	private started = false;
	private finished = false;
	private sawBytes = false;
	/** Byte-mode BOM: TextDecoder drops it from the text, so line 1's byte count must too. */
	private bomBytes = 0;
	private head: number[] = [];

	constructor(file: string) {
		this.file = file;
	}

	push(chunk: Uint8Array | string): void {
		if (this.finished) throw new Error('RecordReader: push after finish');
		if (typeof chunk === 'string') {
			if (!this.started && chunk.length > 0) {
				this.started = true;
				if (chunk.charCodeAt(0) === 0xfeff) {
					this.totalBytes += 3;
					chunk = chunk.slice(1);
				}
			}
			this.totalBytes += utf8Length(chunk);
			this.consumeText(chunk, null);
			return;
		}
		if (chunk.length === 0) return;
		this.started = true;
		this.sawBytes = true;
		for (let i = 0; this.head.length < 3 && i < chunk.length; i++) {
			this.head.push(chunk[i]);
			if (this.head.length === 3 && this.head[0] === 0xef && this.head[1] === 0xbb && this.head[2] === 0xbf) this.bomBytes = 3;
		}
		this.totalBytes += chunk.length;
		const text = this.decoder.decode(chunk, { stream: true });
		this.consumeText(text, chunk);
	}

	/** Split decoded text at "\n". With bytes given, line byte lengths come from the byte chunk. */
	private consumeText(text: string, bytes: Uint8Array | null): void {
		let start = 0;
		let bytePos = 0; // byte index in `bytes` just after the previous "\n"
		for (;;) {
			const nl = text.indexOf('\n', start);
			if (nl < 0) break;
			let lineBytes: number;
			if (bytes) {
				const bnl = bytes.indexOf(10, bytePos);
				lineBytes = this.pendingBytes + (bnl - bytePos);
				bytePos = bnl + 1;
			} else {
				lineBytes = -1;
			}
			let line: string;
			if (this.pending.length > 0) {
				this.pending.push(text.slice(start, nl));
				line = this.pending.join('');
				this.pending = [];
			} else {
				line = text.slice(start, nl);
			}
			if (lineBytes < 0) lineBytes = utf8Length(line);
			this.pendingBytes = 0;
			this.handleLine(line, lineBytes, true);
			start = nl + 1;
		}
		if (start < text.length) {
			this.pending.push(start === 0 ? text : text.slice(start));
		}
		if (bytes) this.pendingBytes += bytes.length - bytePos;
	}

	private handleLine(raw: string, bytes: number, terminated: boolean): void {
		this.lineNo++;
		if (this.lineNo === 1 && this.bomBytes) bytes -= this.bomBytes;
		let line = raw;
		if (line.length > 0 && line.charCodeAt(line.length - 1) === 13) {
			line = line.slice(0, -1);
			bytes -= 1;
		}
		if (line.length === 0 || isBlank(line)) return;
		this.nonBlank++;
		let value: unknown;
		try {
			value = JSON.parse(line);
		} catch (e) {
			const kind = terminated ? 'invalid-json' : 'truncated-line';
			const why = e instanceof Error ? e.message : String(e);
			this.issues.push({
				file: this.file,
				line: this.lineNo,
				kind,
				message: terminated
					? `line is not valid JSON (${why}): ${snippet(line)}`
					: `last line has no newline and is not valid JSON (truncated write?): ${snippet(line)}`,
			});
			return;
		}
		if (value === null || typeof value !== 'object' || Array.isArray(value)) {
			this.issues.push({
				file: this.file,
				line: this.lineNo,
				kind: 'not-object',
				message: `line is valid JSON but not an object (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`,
			});
			return;
		}
		this.records.push({ line: this.lineNo, value: value as Record<string, unknown>, bytes });
	}

	finish(): FileRecords {
		if (!this.finished) {
			this.finished = true;
			const tail = this.decoder.decode();
			if (tail) this.pending.push(tail);
			if (this.pending.length > 0) {
				const line = this.pending.join('');
				this.pending = [];
				const bytes = this.sawBytes ? this.pendingBytes : utf8Length(line);
				this.handleLine(line, bytes, false);
			}
			if (this.totalBytes === 0) {
				this.issues.push({ file: this.file, line: null, kind: 'empty-file', message: 'file is empty' });
			}
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
