// Runs every case of the romp conformance pack (fixtures/conformance/romp) in compat 'romp' and
// compares the session, with each turn's derived segments, to the reference's expected.json.
// Each case runs twice: each file fed whole as one string, and fed as its UTF-8 bytes in 7-byte
// chunks (lines and multi-byte characters split across chunk boundaries).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords } from './index.ts';
import type { FileRecords } from './index.ts';
import { chunksOf } from '../../../scripts/lib/chunks.ts';
import { listCases } from '../../../scripts/lib/romp-case.ts';
import type { RompCase } from '../../../scripts/lib/romp-case.ts';
import { withSegments } from '../../../scripts/lib/session-json.ts';

const PACK = resolve(__dirname, '../../../fixtures/conformance/romp');
const CASES = listCases(PACK);

type Feed = (bytes: Buffer) => (Uint8Array | string)[];
const whole: Feed = (bytes) => [bytes.toString('utf8')];
const sevenBytes: Feed = (bytes) => chunksOf(bytes, 7);

function records(c: RompCase, name: string, feed: Feed): FileRecords {
	return readRecords(name, feed(readFileSync(join(c.dir, name))));
}

function run(c: RompCase, feed: Feed): unknown {
	const result = buildSession(
		{
			transcripts: c.transcripts.map((f) => records(c, f, feed)),
			states: c.states ? records(c, c.states, feed) : null,
			postal: c.postal ? records(c, c.postal, feed) : null
		},
		c.options
	);
	// The pack compares parsed JSON: an undefined field is the same as an absent one.
	return JSON.parse(JSON.stringify(withSegments(result.session)));
}

describe('romp conformance pack', () => {
	it('has all 41 cases', () => {
		expect(CASES.length).toBe(41);
	});

	for (const c of CASES) {
		describe(c.name, () => {
			it('whole file', () => {
				expect(run(c, whole)).toStrictEqual(c.expected);
			});
			it('7-byte chunks', () => {
				expect(run(c, sevenBytes)).toStrictEqual(c.expected);
			});
		});
	}
});
