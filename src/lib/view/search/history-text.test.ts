// The history search index's text format: fields come back exactly as they went in (texts with
// any characters, landing data, subagent lists, nulls), in well under the bytes of the fields' JSON,
// and bytes of another format are refused rather than read as fields.
import { describe, expect, it } from 'vitest';
import type { SearchField } from './fields.ts';
import { decodeFields, encodeFields } from './history-text.ts';

const field = (text: string, extra: Partial<SearchField> = {}): SearchField => ({
	text,
	kind: 'reply',
	author: 'claude',
	tool: null,
	atomUuid: 'u-1',
	row: 3,
	turnIndex: 1,
	ms: 1_700_000_000_000,
	opens: [],
	subagent: [],
	rewound: false,
	...extra
});

describe('history search index text', () => {
	it('gives back every field exactly', () => {
		const agent = ['Explore the parser'];
		const fields = [
			field('the parser reads "each" line\n\ttab \\ back'),
			field('数据 café → ✓ 😀 \u0000 \ud800 lone', { kind: 'tool-output', tool: 'Bash', ms: null, rewound: true }),
			field('', { kind: 'prompt', author: 'you' }),
			field('naïve 数据 → ✓ 😀 in order', { row: 9 }),
			field('ascii after a wide one', { row: 10 }),
			field('in a subagent', { author: 'subagent', subagent: agent, opens: [{ key: 'r:1', defaultOpen: false }, { key: 'r:1~all', defaultOpen: true }] }),
			field('again inside', { author: 'subagent', subagent: agent, row: 4, turnIndex: 2 })
		];
		const back = decodeFields(encodeFields(fields));
		// A lone surrogate (UTF-8 cannot hold it) comes back too.
		expect(back).toEqual(fields);
		expect(back[5].subagent).toBe(back[6].subagent);
		expect(decodeFields(encodeFields([]))).toEqual([]);
		// Decoded again into the same buffer, the first answer's texts stay as they were.
		const again = decodeFields(encodeFields([field('z'.repeat(5_000)), field('ü'.repeat(3_000))]));
		expect(back).toEqual(fields);
		expect(again.map((f) => f.text.length)).toEqual([5_000, 3_000]);
	});

	it('takes a fraction of the bytes of the fields as JSON', () => {
		const fields = Array.from({ length: 200 }, (_, i) => field(`{"path": "src/x${i}.ts"}\nline "${i}" of the transcript; the parser said: ok`, { atomUuid: `atom-${i}`, row: i }));
		expect(encodeFields(fields).byteLength).toBeLessThan(new TextEncoder().encode(JSON.stringify(fields)).byteLength / 3);
	});

	it('refuses bytes of another format', async () => {
		const stream = new Blob([JSON.stringify([field('x')])]).stream().pipeThrough(new CompressionStream('deflate-raw'));
		const v1 = new Uint8Array(await new Response(stream).arrayBuffer());
		expect(() => decodeFields(v1)).toThrow();
		expect(() => decodeFields(new Uint8Array([1, 2, 3]))).toThrow();
	});
});
