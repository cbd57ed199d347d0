import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSession } from './build.ts';
import { IncrementalBuilder } from './incremental.ts';
import { readRecords } from './reader.ts';

const CORPUS = join(import.meta.dirname, '../../../fixtures/corpus/claude-code-log/test/test_data/real_projects/-src-deep-manifest');
const MAIN = 'a7da6a22-facc-4fcd-8bab-f83c87862004.jsonl';

/** Cuts bytes at pseudo-random places (inside lines and multi-byte characters alike). */
function cuts(bytes: Uint8Array, seed: number): Uint8Array[] {
	const out: Uint8Array[] = [];
	let at = 0;
	let s = seed;
	while (at < bytes.length) {
		s = (s * 1103515245 + 12345) % 2147483648;
		const n = 1 + (s % 700);
		out.push(bytes.subarray(at, at + n));
		at += n;
	}
	return out;
}

describe('IncrementalBuilder', () => {
	const bytes = new Uint8Array(readFileSync(join(CORPUS, MAIN)));

	it('equals buildSession over the concatenated bytes, whatever the chunking, at every step', () => {
		const b = new IncrementalBuilder({ compat: 'viewer' });
		const parts = cuts(bytes, 7);
		let seen = 0;
		parts.forEach((p, i) => {
			b.append('transcript', MAIN, p);
			seen += p.length;
			if (i % 40 === 0 || i === parts.length - 1) {
				const want = buildSession({ transcripts: [readRecords(MAIN, [bytes.subarray(0, seen)])] }, { compat: 'viewer' });
				expect(b.build()).toEqual(want);
			}
		});
	});

	it('reads a split UTF-8 character and a last line without newline like a whole read', () => {
		const text = '{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"S","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"héllo ✓"}}\n{"type":"assistant"';
		const all = new TextEncoder().encode(text);
		const b = new IncrementalBuilder();
		const cut = all.indexOf(0xc3) + 1; // inside "é"
		b.append('transcript', 'S.jsonl', all.subarray(0, cut));
		b.append('transcript', 'S.jsonl', all.subarray(cut));
		const got = b.build();
		expect(got).toEqual(buildSession({ transcripts: [readRecords('S.jsonl', [all])] }));
		expect(got.issues.some((i) => i.kind === 'truncated-line' && i.line === 2)).toBe(true);
	});

	it('orders transcripts as told and keeps the state log apart', () => {
		const a = '{"type":"user","uuid":"a1","parentUuid":null,"sessionId":"A","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"first"}}\n';
		const bLine = '{"type":"user","uuid":"b1","parentUuid":"a1","sessionId":"B","timestamp":"2025-01-01T00:01:00Z","message":{"role":"user","content":"second"}}\n';
		const st = '{"t":1735689700,"state":"idle"}\n';
		const b = new IncrementalBuilder();
		b.append('transcript', 'b.jsonl', bLine);
		b.append('transcript', 'a.jsonl', a);
		b.append('states', 'states/B.jsonl', st);
		b.setTranscriptOrder(['a.jsonl', 'b.jsonl']);
		const want = buildSession({ transcripts: [readRecords('a.jsonl', [a]), readRecords('b.jsonl', [bLine])], states: readRecords('states/B.jsonl', [st]) });
		expect(b.build()).toEqual(want);
		expect(b.build().session.turns.length).toBeGreaterThan(0);
	});
});
