// The `text` part of a session's history search index (history-index.ts): its search fields,
// stored compressed (lz.ts), and decoded when a history query has to verify the session. Decoding is what a
// broad query pays for every candidate it has not kept, so the format is made to decode fast:
// - one UTF-8 run of every field's text, back to back, each decoded by TextDecoder on its own
//   (a one-byte string for Latin-1 text, where one decode of the whole run would make every
//   field two-byte as soon as one holds a CJK character), with no JSON escapes to undo;
// - the rest of each field (its kind, author, tool, landing data) as a small JSON part of
//   arrays, parsed once.
// Layout before compression (lz.ts): u32 LE byte length of the JSON part, the JSON part, the texts.
// JSON part: { n: [text byte lengths], m: [[kind, author, tool, atomUuid, row, turnIndex, ms,
// opens as [key, defaultOpen ? 1 : 0][], subagent, rewound ? 1 : 0], …] }. A text UTF-8 cannot
// hold as it is (a lone surrogate, which a transcript's JSON escapes can carry) goes into the
// JSON part instead (its length -1, the text an 11th element), so it comes back unchanged.
// Measured on a tenth of the generated 1 GB tree (scripts/bench-history-search.ts): see the commit.
import type { FieldAuthor, FieldKind, OpenStep, SearchField } from './fields.ts';
import { compress, decompress } from './lz.ts';

type Meta = [FieldKind, FieldAuthor, string | null, string, number, number, number | null, [string, 0 | 1][], string[], 0 | 1, string?];

const EMPTY = new Uint8Array(0);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The fields in the index's text format, compressed. */
export function encodeFields(fields: readonly SearchField[]): Uint8Array {
	const odd = fields.map((f) => !f.text.isWellFormed());
	const texts = fields.map((f, i) => (odd[i] ? EMPTY : encoder.encode(f.text)));
	const m: Meta[] = fields.map((f, i) => {
		const row: Meta = [f.kind, f.author, f.tool, f.atomUuid, f.row, f.turnIndex, f.ms, f.opens.map((o) => [o.key, o.defaultOpen ? 1 : 0]), f.subagent, f.rewound ? 1 : 0];
		if (odd[i]) row.push(f.text);
		return row;
	});
	const meta = encoder.encode(JSON.stringify({ n: texts.map((t, i) => (odd[i] ? -1 : t.byteLength)), m }));
	const out = new Uint8Array(4 + meta.byteLength + texts.reduce((n, t) => n + t.byteLength, 0));
	new DataView(out.buffer).setUint32(0, meta.byteLength, true);
	out.set(meta, 4);
	let at = 4 + meta.byteLength;
	for (const t of texts) {
		out.set(t, at);
		at += t.byteLength;
	}
	return compress(out);
}

/** The fields an index's text holds, as they were encoded. Throws on bytes of another format. */
export function decodeFields(bytes: Uint8Array): SearchField[] {
	const raw = decompress(bytes);
	const metaBytes = new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getUint32(0, true);
	if (4 + metaBytes > raw.byteLength) throw new Error('not a search index text');
	const { n, m } = JSON.parse(decoder.decode(raw.subarray(4, 4 + metaBytes))) as { n: number[]; m: Meta[] };
	if (n.length !== m.length) throw new Error('not a search index text');
	const out: SearchField[] = new Array(m.length);
	let at = 4 + metaBytes;
	// Fields of one subagent share their list (as fieldsOfRows makes them): one array, not one each.
	const lists = new Map<string, string[]>();
	for (let i = 0; i < m.length; i++) {
		const [kind, author, tool, atomUuid, row, turnIndex, ms, opens, subagent, rewound, inMeta] = m[i];
		let text: string;
		if (n[i] < 0) text = inMeta ?? '';
		else {
			text = decoder.decode(raw.subarray(at, at + n[i]));
			at += n[i];
		}
		const sig = subagent.length ? subagent.join('\u0000') : '';
		let shared = lists.get(sig);
		if (!shared) lists.set(sig, (shared = subagent));
		out[i] = { text, kind, author, tool, atomUuid, row, turnIndex, ms, opens: opens.map(([key, d]): OpenStep => ({ key, defaultOpen: d === 1 })), subagent: shared, rewound: rewound === 1 };
	}
	if (at !== raw.byteLength) throw new Error('not a search index text');
	return out;
}
