// Test helper: a fixtures/model case (one .jsonl file) built as the app builds it (viewer mode),
// each line optionally changed first. For the view tests of rewound branches. Not used by production code.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSession, readRecords } from '../../model/index.ts';
import type { Session } from '../../model/index.ts';

export const MODEL_FIXTURES = resolve(__dirname, '../../../../fixtures/model');

export function fixtureSession(fixture: string, mutate: (line: Record<string, unknown>) => void = () => {}): Session {
	const name = readdirSync(join(MODEL_FIXTURES, fixture)).find((f) => f.endsWith('.jsonl'))!;
	const lines = readFileSync(join(MODEL_FIXTURES, fixture, name), 'utf8').trim().split('\n');
	const text = lines.map((l) => {
		const v = JSON.parse(l) as Record<string, unknown>;
		mutate(v);
		return JSON.stringify(v);
	}).join('\n') + '\n';
	return buildSession({ transcripts: [readRecords(name, [text])] }).session;
}
