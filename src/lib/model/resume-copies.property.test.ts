// Property: random resumed sessions (scripts/lib/resume-chains.ts: each file after the first may
// start with summary records and copies of the previous file's last chain lines), read in a
// random order (the last file read is the leaf). In both modes no uuid yields two atoms, every
// line is accounted for, and each atom's fsid is the stem of the last file read that holds its
// uuid (romp: every atom; viewer: every atom but absorbed ones, which name the line shown, D6).
// With copies that are not verbatim (shifted timestamps) viewer mode still never shows a uuid
// twice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords } from './index.ts';
import type { Compat, ParseResult } from './index.ts';
import { buildChain, chainSpec, jsonlOf, lastHolders, type ChainFile } from '../../../scripts/lib/resume-chains.ts';

function parse(files: ChainFile[], compat: Compat): ParseResult {
	return buildSession({ transcripts: files.map((f) => readRecords(`${f.stem}.jsonl`, [jsonlOf(f)])) }, { compat });
}

function permute<T>(xs: T[], keys: number[]): T[] {
	return xs.map((x, i) => [x, keys[i] ?? 0] as const).sort((a, b) => a[1] - b[1]).map(([x]) => x);
}

function check(files: ChainFile[], compat: Compat, fsidRule: boolean): void {
	const r = parse(files, compat);
	const atoms = r.session.turns.flatMap((t) => t.atoms).filter((a) => a.uuid !== null);
	const uuids = atoms.map((a) => a.uuid);
	expect(new Set(uuids).size).toBe(uuids.length);
	const a = r.accounting;
	expect(a.atoms + a.offPath + a.metadata + a.issues).toBe(a.lines);
	if (!fsidRule) return;
	const holder = lastHolders(files);
	for (const atom of atoms) {
		if (atom.absorbed && compat === 'viewer') continue;
		expect([atom.uuid, atom.fsid]).toEqual([atom.uuid, holder.get(atom.uuid!)]);
	}
}

const order = fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 4, maxLength: 4 });

describe('resumed files that copy the previous tail, in any read order', () => {
	it('verbatim copies: one atom per uuid and fsid = last file read holding it, both modes', () => {
		fc.assert(
			fc.property(chainSpec(), order, (spec, keys) => {
				const files = permute(buildChain(spec, false), keys);
				check(files, 'romp', true);
				check(files, 'viewer', true);
			}),
			{ numRuns: 300 }
		);
	});
	it('copies with shifted timestamps: viewer mode still shows each uuid once', () => {
		fc.assert(
			fc.property(chainSpec(), order, (spec, keys) => {
				check(permute(buildChain(spec, true), keys), 'viewer', false);
			}),
			{ numRuns: 300 }
		);
	});
});
