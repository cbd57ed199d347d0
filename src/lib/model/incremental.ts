// IncrementalBuilder (placeholder until the model issue's builder lands): bytes arrive per file in
// any chunking; build() equals buildSession over each file's concatenated bytes. Each file keeps
// one RecordReader fed up to its last "\n" (so its records are final) and the bytes after it;
// build() reads only that unterminated tail again, never earlier bytes.
import { buildSession } from './build.ts';
import { RecordReader } from './reader.ts';
import type { FileRecords, Issue, LineRecord, ParseOptions, ParseResult } from './types.ts';

export type AppendRole = 'transcript' | 'states' | 'postal';

interface FileState {
	reader: RecordReader;
	tail: Uint8Array;
	bytes: number;
	/** "\n" bytes pushed into the reader: line numbers of the tail start after them. */
	newlines: number;
}

/** The reader's parsed state without finishing it (its fields are private to the model). */
interface ReaderInside {
	records: LineRecord[];
	issues: Issue[];
	nonBlank: number;
}

const encoder = new TextEncoder();

export class IncrementalBuilder {
	#opts: ParseOptions;
	#files = new Map<string, FileState>();
	#roles = new Map<string, AppendRole>();
	#order: string[] = [];

	constructor(opts: ParseOptions = {}) {
		this.#opts = opts;
	}

	append(role: AppendRole, file: string, bytes: Uint8Array | string): void {
		const chunk = typeof bytes === 'string' ? encoder.encode(bytes) : bytes;
		let f = this.#files.get(file);
		if (!f) {
			f = { reader: new RecordReader(file), tail: new Uint8Array(0), bytes: 0, newlines: 0 };
			this.#files.set(file, f);
			this.#roles.set(file, role);
			if (role === 'transcript') this.#order.push(file);
		}
		f.bytes += chunk.length;
		const nl = chunk.lastIndexOf(10);
		if (nl < 0) {
			f.tail = concat(f.tail, chunk);
			return;
		}
		const head = concat(f.tail, chunk.subarray(0, nl + 1));
		for (let i = head.indexOf(10); i >= 0; i = head.indexOf(10, i + 1)) f.newlines++;
		f.reader.push(head);
		f.tail = chunk.slice(nl + 1);
	}

	setTranscriptOrder(files: string[]): void {
		this.#order = [...files];
	}

	build(): ParseResult {
		const rec = (file: string) => {
			const f = this.#files.get(file);
			return f ? snapshot(file, f) : null;
		};
		const of = (role: AppendRole) => [...this.#roles].find(([, r]) => r === role)?.[0];
		const states = of('states');
		const postal = of('postal');
		return buildSession(
			{
				transcripts: this.#order.map(rec).filter((r): r is FileRecords => r !== null),
				states: states ? rec(states) : null,
				postal: postal ? rec(postal) : null
			},
			this.#opts
		);
	}
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	if (!a.length) return b;
	const out = new Uint8Array(a.length + b.length);
	out.set(a);
	out.set(b, a.length);
	return out;
}

/** The file's records as a whole read would give them, the unterminated tail read as its last line. */
function snapshot(file: string, f: FileState): FileRecords {
	const inside = f.reader as unknown as ReaderInside;
	const records = inside.records.slice();
	const issues = inside.issues.slice();
	let lines = inside.nonBlank;
	if (f.tail.length) {
		// At the start of the file the tail is the whole file (BOM included); later it is one line.
		const last = new RecordReader(file);
		last.push(f.tail);
		const t = last.finish();
		for (const r of t.records) records.push({ ...r, line: r.line + f.newlines });
		for (const i of t.issues) issues.push(i.line === null ? i : { ...i, line: i.line + f.newlines });
		lines += t.lines;
	} else if (f.bytes === 0) {
		issues.push({ file, line: null, kind: 'empty-file', message: 'file is empty' });
	}
	return { file, bytes: f.bytes, lines, records, issues };
}
