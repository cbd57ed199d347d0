import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { billedLines, lineCallOf, usageProblem } from './billing.ts';
import { readRecords } from './reader.ts';

const billed = (text: string) => billedLines(new TextEncoder().encode(text));

const call = (id: string, usage: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
	JSON.stringify({ type: 'assistant', requestId: `req_${id}`, timestamp: '2026-10-01T09:00:00.250Z', message: { id: `msg_${id}`, model: 'claude-opus-4-7', role: 'assistant', content: [{ type: 'text', text: 'ok' }], usage }, ...extra });

/** What the model reads as calls: every record RecordReader gives, through lineCallOf. */
const viaReader = (text: string) =>
	readRecords('f.jsonl', [new TextEncoder().encode(text)]).records.flatMap((r) => {
		const c = lineCallOf(r.value);
		return c ? [{ line: r.line, call: c }] : [];
	});

describe('billedLines', () => {
	it('finds the lines that record a call, numbered as RecordReader numbers them', () => {
		const text = ['', call('a', { input_tokens: 3, output_tokens: 5 }), '{"type":"user","message":{"role":"user","content":"the word \\"usage\\": here"}}', '', call('b', { input_tokens: 1 }) + '\r', '{broken "usage"', call('c', { output_tokens: 2 })].join('\n');
		const got = billed(text);
		expect(got.map((b) => [b.line, b.call.messageId, b.call.requestId])).toEqual([[2, 'msg_a', 'req_a'], [5, 'msg_b', 'req_b'], [7, 'msg_c', 'req_c']]);
		expect(got[0].call).toMatchObject({ model: 'claude-opus-4-7', ms: Date.parse('2026-10-01T09:00:00.250Z'), sidechain: false, usage: { input_tokens: 3, output_tokens: 5 } });
		expect(got).toEqual(viaReader(text));
	});

	it('reads only assistant lines whose message.usage is an object; a BOM is dropped', () => {
		const userWithUsage = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x', usage: { input_tokens: 9 } } });
		const nested = JSON.stringify({ type: 'assistant', toolUseResult: { usage: { input_tokens: 9 } }, message: { id: 'm', content: [] } });
		const text = '\ufeff' + [call('a', { input_tokens: 1 }), userWithUsage, nested].join('\n');
		expect(billed(text).map((b) => b.line)).toEqual([1]);
		expect(billed(text)).toEqual(viaReader(text));
	});

	it('reads a key only as JSON writers write it: a "usage" spelled with \\u escapes is the model\'s alone', () => {
		const escaped = call('e', { input_tokens: 4 }).replace('"usage"', '"\\u0075sag\\u0065"');
		expect(JSON.parse(escaped).message.usage).toEqual({ input_tokens: 4 });
		const text = ['{"type":"user","message":{"content":"\\u001b[31mred\\u001b[0m"}}', escaped, call('f', { input_tokens: 1 })].join('\n');
		expect(billed(text).map((b) => [b.line, b.call.messageId])).toEqual([[3, 'msg_f']]);
		expect(viaReader(text).map((b) => b.line)).toEqual([2, 3]);
	});

	it('a BOM is dropped from the first line only, as RecordReader reads the bytes', () => {
		const text = '\ufeff' + call('a', { input_tokens: 1 }) + '\n\ufeff' + call('b', { input_tokens: 1 });
		expect(billed(text)).toEqual(viaReader(text));
		expect(billed(text).map((b) => b.line)).toEqual([1]);
	});

	it('finds the key wherever the skip search lands: at the start, across chunk-sized runs, at the very end', () => {
		const lines = Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? call(`k${i}`, { input_tokens: i }) : JSON.stringify({ type: 'user', message: { content: 'x'.repeat(i * 13) } })));
		const text = lines.join('\n');
		expect(billed(text)).toEqual(viaReader(text));
		expect(billed('"usage"')).toEqual([]);
	});

	it('names usage fields that are not token counts, and never lets them through as numbers', () => {
		const text = [call('a', { input_tokens: '12', output_tokens: 3 }), call('b', { input_tokens: -1, cache_read_input_tokens: null }), call('c', { input_tokens: 2 })].join('\n');
		const got = billed(text);
		expect(got.map((b) => b.problem ?? null)).toEqual(['usage input_tokens "12" is not a token count (counted as 0)', 'usage input_tokens -1 is not a token count (counted as 0)', null]);
		expect(usageProblem({ input_tokens: Number.NaN })).toContain('input_tokens');
	});

	it('the line own time only: a line without one has no time; the line after a bad one is still read', () => {
		const untimed = JSON.stringify({ type: 'assistant', message: { id: 'u', usage: { input_tokens: 1 } } });
		const text = [untimed, '{"type":"assistant","message":{"usage"', call('d', { input_tokens: 1 })].join('\n');
		const got = billed(text);
		expect(got.map((b) => [b.line, b.call.ms])).toEqual([[1, null], [3, Date.parse('2026-10-01T09:00:00.250Z')]]);
	});

	it('equals RecordReader + lineCallOf for any mix of lines', () => {
		const line = fc.oneof(
			fc.constant(''),
			fc.constant('   '),
			fc.constant('{"type":"assistant","message":{"usage"'),
			fc.constant('[1,"usage"]'),
			fc.constant('"usage"'),
			fc.record({ id: fc.string({ minLength: 1, maxLength: 4 }), input: fc.oneof(fc.nat(), fc.constant('x')), side: fc.boolean(), crlf: fc.boolean(), esc: fc.boolean() }).map(({ id, input, side, crlf, esc }) => {
				const l = call(id, { input_tokens: input, output_tokens: 1 }, { isSidechain: side });
				return l + (crlf ? '\r' : '') + (esc ? ' ' : '');
			}),
			fc.string({ unit: 'binary' }).map((s) => JSON.stringify({ type: 'user', message: { content: s } })),
			fc.string({ unit: 'binary' }).map((s) => call('w', { input_tokens: 2 }).replace('"ok"', JSON.stringify(s)))
		);
		fc.assert(
			fc.property(fc.array(line, { maxLength: 12 }), fc.boolean(), (lines, bom) => {
				const text = (bom ? '\ufeff' : '') + lines.join('\n');
				expect(billed(text)).toEqual(viaReader(text).map((b) => {
					const p = usageProblem(b.call.usage);
					return p ? { ...b, problem: p } : b;
				}));
			}),
			{ numRuns: 300 }
		);
	});
});
