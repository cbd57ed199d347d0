import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { RecordReader, readRecords, utf8Length } from './reader.ts';

const enc = new TextEncoder();
function chunked(s: string | Uint8Array, size: number): Uint8Array[] {
	const b = typeof s === 'string' ? enc.encode(s) : s;
	const out: Uint8Array[] = [];
	for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
	return out;
}
const lineOf = (o: unknown) => JSON.stringify(o);
const TEXT = [lineOf({ a: 'naïve café 数据 ✓ 😀' }), lineOf({ b: 2 }), '', '   ', lineOf({ c: [1, 2, 3] })].join('\n') + '\n';

describe('RecordReader', () => {
	it('reads records with 1-based physical line numbers, skipping blank lines', () => {
		const r = readRecords('f.jsonl', [enc.encode(TEXT)]);
		expect(r.records.map((x) => x.line)).toEqual([1, 2, 5]);
		expect(r.records[0].value).toEqual({ a: 'naïve café 数据 ✓ 😀' });
		expect(r.lines).toBe(3);
		expect(r.issues).toEqual([]);
		expect(r.bytes).toBe(enc.encode(TEXT).length);
	});
	it('gives identical records for every chunk size, incl. 1 and 7 bytes (split multi-byte chars)', () => {
		const whole = readRecords('f.jsonl', [enc.encode(TEXT)]);
		for (const size of [1, 2, 3, 7, 13, 64]) {
			const r = readRecords('f.jsonl', chunked(TEXT, size));
			expect(r.records).toEqual(whole.records);
			expect(r.bytes).toBe(whole.bytes);
		}
	});
	it("decodes a chunk's complete lines in runs of one width, one call a run", () => {
		// In a browser each decoded string leaves a weak handle for a collection to finalize
		// (reader.ts), so lines are not decoded one by one; but a wide character would make a
		// whole run two-byte text, so Latin-1 lines and wide lines go in separate runs.
		const narrow = [lineOf({ a: 'café' }), lineOf({ b: 2 }), '', lineOf({ c: 3 })];
		const wide = [lineOf({ d: '数据 ✓' }), lineOf({ e: '😀' })];
		const text = [...narrow, ...wide, ...narrow].join('\n') + '\n';
		const decode = vi.spyOn(TextDecoder.prototype, 'decode');
		try {
			const r = readRecords('f.jsonl', [enc.encode(text)]);
			expect(r.records.map((x) => Object.keys(x.value)[0])).toEqual(['a', 'b', 'c', 'd', 'e', 'a', 'b', 'c']);
			expect(r.records.map((x) => x.bytes)).toEqual([...narrow, ...wide, ...narrow].filter(Boolean).map((l) => enc.encode(l).length));
			expect(decode).toHaveBeenCalledTimes(3);
			const single = readRecords('f.jsonl', [enc.encode(narrow.join('\n') + '\n')]);
			expect(single.records).toHaveLength(3);
			expect(decode).toHaveBeenCalledTimes(4);
		} finally {
			decode.mockRestore();
		}
	});
	it('counts UTF-8 bytes per line without the terminator', () => {
		const r = readRecords('f.jsonl', chunked(TEXT, 7));
		expect(r.records[0].bytes).toBe(enc.encode(lineOf({ a: 'naïve café 数据 ✓ 😀' })).length);
		expect(r.records[1].bytes).toBe(7);
	});
	it('drops a UTF-8 BOM (bytes and string chunks) instead of losing line 1', () => {
		const body = lineOf({ x: 1 }) + '\n';
		const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(body)]);
		for (const chunks of [[withBom], chunked(withBom, 1), chunked(withBom, 2), ['\ufeff' + body]]) {
			const r = readRecords('f.jsonl', chunks);
			expect(r.records.map((x) => x.value)).toEqual([{ x: 1 }]);
			expect(r.records[0].bytes).toBe(body.length - 1);
			expect(r.issues).toEqual([]);
		}
	});
	it('accepts CRLF line ends', () => {
		const r = readRecords('f.jsonl', chunked('{"a":1}\r\n{"b":2}\r\n', 3));
		expect(r.records.map((x) => x.value)).toEqual([{ a: 1 }, { b: 2 }]);
		expect(r.records[0].bytes).toBe(7);
	});
	it('reads a complete last line without a newline', () => {
		const r = readRecords('f.jsonl', ['{"a":1}\n{"b":2}']);
		expect(r.records.map((x) => x.value)).toEqual([{ a: 1 }, { b: 2 }]);
		expect(r.issues).toEqual([]);
	});
	it('reports an unparseable last line without newline as truncated, an inner one as invalid JSON', () => {
		const r = readRecords('f.jsonl', chunked('{"a":1\n{"b":2}\n{"c":', 5));
		expect(r.records.map((x) => x.value)).toEqual([{ b: 2 }]);
		expect(r.issues.map((i) => [i.line, i.kind])).toEqual([[1, 'invalid-json'], [3, 'truncated-line']]);
		expect(r.lines).toBe(3);
	});
	it('reports valid JSON that is not an object', () => {
		const r = readRecords('f.jsonl', ['[1]\n"s"\nnull\n42\n{"ok":true}\n']);
		expect(r.issues.map((i) => i.kind)).toEqual(['not-object', 'not-object', 'not-object', 'not-object']);
		expect(r.records).toHaveLength(1);
	});
	it('handles a line of several MB split over many chunks', () => {
		const big = 'é'.repeat(3_000_000);
		const text = lineOf({ a: 1 }) + '\n' + lineOf({ big }) + '\n' + lineOf({ z: 1 });
		const r = readRecords('f.jsonl', chunked(text, 65536));
		expect(r.records).toHaveLength(3);
		expect((r.records[1].value.big as string).length).toBe(3_000_000);
		expect(r.records[1].bytes).toBe(enc.encode(lineOf({ big })).length);
	});
	it('accepts string chunks split anywhere', () => {
		const r = new RecordReader('f.jsonl');
		for (const c of ['{"a":', '"数', '据"}\n{"b"', ':2}']) r.push(c);
		const out = r.finish();
		expect(out.records.map((x) => x.value)).toEqual([{ a: '数据' }, { b: 2 }]);
		expect(out.records[0].bytes).toBe(utf8Length('{"a":"数据"}'));
	});
	it('reports an empty file', () => {
		expect(readRecords('f.jsonl', []).issues.map((i) => i.kind)).toEqual(['empty-file']);
	});
	it('decodes invalid UTF-8 with replacement characters rather than failing', () => {
		const bytes = new Uint8Array([...enc.encode('{"a":"'), 0xff, 0xfe, ...enc.encode('"}\n')]);
		const r = readRecords('f.jsonl', chunked(bytes, 1));
		expect(r.records[0].value).toEqual({ a: '\ufffd\ufffd' });
	});
	it('snapshot() after any chunk equals finish() over the bytes so far, and reading goes on', () => {
		const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode(TEXT + '{"d":"é"}\r\n[1]\n{"e":'), 0xe6, 0x95]);
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 1, max: bytes.length }), { maxLength: 12 }), (cuts) => {
				const points = [...new Set(cuts)].sort((a, b) => a - b);
				const r = new RecordReader('f.jsonl');
				let prev = 0;
				for (const p of [...points, bytes.length]) {
					const piece = bytes.subarray(prev, p);
					r.push(piece);
					prev = p;
					expect(r.snapshot()).toEqual(readRecords('f.jsonl', [bytes.slice(0, p)]));
				}
				expect(r.finish()).toEqual(readRecords('f.jsonl', [bytes]));
			}),
			{ seed: 3, numRuns: 200 },
		);
	});
});
