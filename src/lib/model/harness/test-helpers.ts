// Test helpers shared by the adapter tests: read a fixture under fixtures/harnesses into
// FileRecords, and list a result's atoms / blocks in a form assertions can read.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readRecords } from '../reader.ts';
import type { Atom, FileRecords, ParseResult } from '../types.ts';

export const HARNESS_FIXTURES = resolve(__dirname, '../../../../fixtures/harnesses');

export function fixtureText(rel: string): string {
	return readFileSync(resolve(HARNESS_FIXTURES, rel), 'utf8');
}

export function fixtureRecords(rel: string): FileRecords {
	return readRecords(rel, [readFileSync(resolve(HARNESS_FIXTURES, rel))]);
}

export function allAtoms(r: Pick<ParseResult, 'session'>): Atom[] {
	return r.session.turns.flatMap((t) => t.atoms);
}

export function blocks(r: Pick<ParseResult, 'session'>, type: string): Record<string, unknown>[] {
	return allAtoms(r).flatMap((a) => (a.message?.content ?? []).filter((b) => b.type === type) as Record<string, unknown>[]);
}

/** accounting.lines = atoms + offPath + metadata + issues (the build.ts rule). */
export function balanced(r: ParseResult): boolean {
	const a = r.accounting;
	return a.lines === a.atoms + a.offPath + a.metadata + a.issues;
}
