// The `text` part of a session's history search index (history-index.ts): its search fields,
// compressed (lz.ts), decoded when a history query must verify the session. A broad query decodes
// every candidate it has not kept, so the format is made to decode fast:
// - the texts as two UTF-8 runs, one TextDecoder call each: ASCII-only texts (a one-byte string)
//   and the others. Each field's text is a slice of its run, so the heap holds two strings a
//   session, not thousands (with one string per field a first query spent as long in GC as in
//   decoding);
// - the rest of each field as a small JSON part by column: a table of distinct strings and
//   arrays of numbers into it (they parse about twice as fast as a row per field).
// Layout before compression: u32 LE length of the JSON part, the JSON part, u32 LE length of the
// ASCII run, the ASCII run, the other run. Per field the JSON part holds its text's length in
// UTF-16 units and its run (0 ASCII, 1 other, 2 in the JSON part: a lone surrogate survives).
import type { FieldAuthor, FieldKind, OpenStep, SearchField } from './fields.ts';
import { compress, decompress, decompressedSize, DECOMPRESS_SLACK } from './lz.ts';
import { decompressFast } from './lz-wasm.ts';

/** The JSON part. Strings are indexes into `s`; -1 is null (a tool) or none (a subagent list). */
interface Columns {
	s: string[];
	/** Text length (UTF-16 units) and run (ASCII, OTHER, IN_META) of each field. */
	n: number[];
	r: number[];
	kind: number[];
	author: number[];
	tool: number[];
	atom: string[];
	row: number[];
	turn: number[];
	ms: (number | null)[];
	/** Per field: its open steps' count, then each step as key index × 2 + (defaultOpen ? 1 : 0). */
	opens: number[];
	/** The subagent list, as the index of its JSON in `s`. */
	sub: number[];
	rewound: (0 | 1)[];
	/** Texts of the IN_META fields, in order. */
	odd: string[];
}

const ASCII = 0;
const OTHER = 1;
const IN_META = 2;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fields in the index's text format, compressed. */
export function encodeFields(fields: readonly SearchField[]): Uint8Array {
	const runs: [Uint8Array[], Uint8Array[]] = [[], []];
	const runBytes = [0, 0];
	const ids = new Map<string, number>();
	const c: Columns = { s: [], n: [], r: [], kind: [], author: [], tool: [], atom: [], row: [], turn: [], ms: [], opens: [], sub: [], rewound: [], odd: [] };
	const id = (x: string) => {
		let i = ids.get(x);
		if (i === undefined) ids.set(x, (i = c.s.push(x) - 1));
		return i;
	};
	for (const f of fields) {
		c.kind.push(id(f.kind));
		c.author.push(id(f.author));
		c.tool.push(f.tool === null ? -1 : id(f.tool));
		c.atom.push(f.atomUuid);
		c.row.push(f.row);
		c.turn.push(f.turnIndex);
		c.ms.push(f.ms);
		c.opens.push(f.opens.length);
		for (const o of f.opens) c.opens.push(id(o.key) * 2 + (o.defaultOpen ? 1 : 0));
		c.sub.push(f.subagent.length ? id(JSON.stringify(f.subagent)) : -1);
		c.rewound.push(f.rewound ? 1 : 0);
		if (!f.text.isWellFormed()) {
			c.r.push(IN_META);
			c.n.push(0);
			c.odd.push(f.text);
			continue;
		}
		const bytes = encoder.encode(f.text);
		// As many bytes as UTF-16 units: every character is ASCII.
		const run = bytes.byteLength === f.text.length ? ASCII : OTHER;
		c.r.push(run);
		c.n.push(f.text.length);
		runs[run].push(bytes);
		runBytes[run] += bytes.byteLength;
	}
	const meta = encoder.encode(JSON.stringify(c));
	const out = new Uint8Array(8 + meta.byteLength + runBytes[ASCII] + runBytes[OTHER]);
	const view = new DataView(out.buffer);
	view.setUint32(0, meta.byteLength, true);
	out.set(meta, 4);
	view.setUint32(4 + meta.byteLength, runBytes[ASCII], true);
	let at = 8 + meta.byteLength;
	for (const t of [...runs[ASCII], ...runs[OTHER]]) {
		out.set(t, at);
		at += t.byteLength;
	}
	return compress(out);
}

/** One buffer the blocks are decompressed into without WebAssembly, grown as needed (its bytes are
 *  decoded into strings before the next call, as the WebAssembly decoder's memory is). */
let scratch = new Uint8Array(0);

function notIndexText(): never {
	throw new Error('not a search index text');
}

function decompressToScratch(bytes: Uint8Array): Uint8Array {
	const size = decompressedSize(bytes) + DECOMPRESS_SLACK;
	if (scratch.length < size) scratch = new Uint8Array(Math.max(size, 2 * scratch.length));
	return decompress(bytes, scratch);
}

/** The fields an index's text holds, as they were encoded. Throws on bytes of another format.
 *  Decompressed by WebAssembly where it runs (lz-wasm.ts), else by lz.ts. */
export function decodeFields(bytes: Uint8Array): SearchField[] {
	const raw = decompressFast(bytes) ?? decompressToScratch(bytes);
	const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
	if (raw.byteLength < 8) notIndexText();
	const metaBytes = view.getUint32(0, true);
	if (8 + metaBytes > raw.byteLength) notIndexText();
	const c = JSON.parse(decoder.decode(raw.subarray(4, 4 + metaBytes))) as Columns;
	const count = c.n?.length;
	if (typeof count !== 'number' || [c.r, c.kind, c.author, c.tool, c.atom, c.row, c.turn, c.ms, c.sub, c.rewound].some((col) => col?.length !== count)) notIndexText();
	const asciiBytes = view.getUint32(4 + metaBytes, true);
	const runsAt = 8 + metaBytes;
	if (runsAt + asciiBytes > raw.byteLength) notIndexText();
	const runs = [decoder.decode(raw.subarray(runsAt, runsAt + asciiBytes)), decoder.decode(raw.subarray(runsAt + asciiBytes))];
	const at = [0, 0];
	const { s, n, r, opens } = c;
	// Fields of one subagent share their list (as fieldsOfRows makes them): one array, not one each.
	const lists = new Map<number, string[]>();
	const none: string[] = [];
	const out: SearchField[] = new Array(count);
	let oi = 0;
	let odd = 0;
	for (let i = 0; i < count; i++) {
		const run = r[i];
		let text: string;
		if (run === IN_META) text = c.odd[odd++] ?? notIndexText();
		else if (run === ASCII || run === OTHER) {
			text = runs[run].slice(at[run], at[run] + n[i]);
			at[run] += n[i];
		} else notIndexText();
		const steps: OpenStep[] = new Array(opens[oi++]);
		for (let j = 0; j < steps.length; j++) {
			const v = opens[oi++];
			steps[j] = { key: s[v >> 1], defaultOpen: (v & 1) === 1 };
		}
		const sub = c.sub[i];
		let subagent = none;
		if (sub >= 0) {
			subagent = lists.get(sub) ?? (JSON.parse(s[sub]) as string[]);
			lists.set(sub, subagent);
		}
		const tool = c.tool[i];
		out[i] = { text, kind: s[c.kind[i]] as FieldKind, author: s[c.author[i]] as FieldAuthor, tool: tool < 0 ? null : s[tool], atomUuid: c.atom[i], row: c.row[i], turnIndex: c.turn[i], ms: c.ms[i], opens: steps, subagent, rewound: c.rewound[i] === 1 };
	}
	if (at[ASCII] !== runs[ASCII].length || at[OTHER] !== runs[OTHER].length || oi !== opens.length) notIndexText();
	return out;
}
