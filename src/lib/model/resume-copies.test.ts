// Resumed sessions whose new file begins with `summary` records and verbatim copies (same uuids)
// of the previous file's last chain lines (fixtures/model/resume-tail-copy, and
// resume-twice-three-files where a twice-resumed session spans three overlapping files). A uuid
// is one graph node: one atom, whose fsid is the stem of the last file read that holds it; the
// earlier copies are offPath `duplicate` (an absorbed prompt's later copy: `absorbed-duplicate`).
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSession, readRecords } from './index.ts';
import type { Atom, Compat, ParseResult } from './index.ts';

const DIR = resolve(__dirname, '../../../fixtures/model');
const A = 'aaaa1111-0000-4000-8000-000000000001';
const B = 'bbbb2222-0000-4000-8000-000000000002';
const C = 'cccc3333-0000-4000-8000-000000000003';

function parse(fixture: string, order: string[], compat: Compat): ParseResult {
	const transcripts = order.map((stem) => readRecords(`${stem}.jsonl`, [readFileSync(join(DIR, fixture, `${stem}.jsonl`), 'utf8')]));
	return buildSession({ transcripts }, { compat });
}
const atomsOf = (r: ParseResult): Atom[] => r.session.turns.flatMap((t) => t.atoms);
const balanced = (r: ParseResult) => {
	const a = r.accounting;
	expect(a.atoms + a.offPath + a.metadata + a.issues).toBe(a.lines);
};

/** uuid → stem of the last file, in read order, that holds a line with that uuid. */
function lastHolder(fixture: string, order: string[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const stem of order) {
		for (const line of readFileSync(join(DIR, fixture, `${stem}.jsonl`), 'utf8').split('\n')) {
			if (!line.trim()) continue;
			const v = JSON.parse(line) as { uuid?: string };
			if (v.uuid) out.set(v.uuid, stem);
		}
	}
	return out;
}

function permutations<T>(xs: T[]): T[][] {
	if (xs.length <= 1) return [xs];
	return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

describe('resume-tail-copy: the new file copies the previous file tail', () => {
	for (const compat of ['romp', 'viewer'] as Compat[]) {
		it(`${compat}: every uuid is one atom, from the file read last`, () => {
			const r = parse('resume-tail-copy', [A, B], compat);
			const atoms = atomsOf(r);
			expect(atoms.map((a) => [a.uuid, a.fsid])).toEqual([
				['u1', A],
				['a1', A],
				// the absorbed prompt keeps its first copy's place; romp names the node's file
				['q1', compat === 'romp' ? B : A],
				['r1', B],
				['a2', B],
				['u2', B],
				['a3', B]
			]);
			expect(r.session.turns.map((t) => t.trigger?.uuid)).toEqual(['u1', 'u2']);
			expect(r.session.turns[0].ended).toBe(true);
			balanced(r);
		});
		it(`${compat}: the replaced copies are offPath duplicates`, () => {
			const r = parse('resume-tail-copy', [A, B], compat);
			const off = r.offPath.map((o) => [o.file, o.uuid, o.reason]);
			expect(off).toEqual([
				[`${A}.jsonl`, 'r1', 'duplicate'],
				[`${A}.jsonl`, 'a2', 'duplicate'],
				[`${B}.jsonl`, 'q1', 'absorbed-duplicate']
			]);
			// The summary record is metadata, never an atom.
			expect(r.metadata.filter((m) => m.type === 'summary').map((m) => m.file)).toEqual([`${B}.jsonl`]);
			// Verbatim copies are normal: no duplicate-uuid warning.
			expect(r.issues.filter((i) => i.kind === 'duplicate-uuid')).toEqual([]);
		});
	}
});

describe('resume-twice-three-files: three overlapping files', () => {
	const stems = [A, B, C];
	for (const compat of ['romp', 'viewer'] as Compat[]) {
		for (const order of permutations(stems)) {
			const name = order.map((s) => s[0]).join('');
			it(`${compat}, read order ${name}: no uuid twice; fsid = last file read holding it`, () => {
				const r = parse('resume-twice-three-files', order, compat);
				const atoms = atomsOf(r);
				const uuids = atoms.map((a) => a.uuid);
				expect(new Set(uuids).size).toBe(uuids.length);
				const holder = lastHolder('resume-twice-three-files', order);
				for (const a of atoms) {
					if (a.absorbed && compat === 'viewer') continue; // viewer names the shown line's file (D6)
					expect([a.uuid, a.fsid]).toEqual([a.uuid, holder.get(a.uuid!)]);
				}
				balanced(r);
			});
		}
		it(`${compat}: leaf C shows the whole three-file conversation once`, () => {
			const r = parse('resume-twice-three-files', [A, B, C], compat);
			expect(atomsOf(r).map((a) => a.uuid)).toEqual(['u1', 'a1', 'q1', 'r1', 'a2', 'u2', 'a3', 'u3', 'a4']);
			expect(r.session.turns.map((t) => t.trigger?.uuid)).toEqual(['u1', 'u2', 'u3']);
			const a2 = atomsOf(r).find((a) => a.uuid === 'a2')!;
			expect(a2.fsid).toBe(C);
			// a2 is in all three files: the copies in A and B are duplicates.
			expect(r.offPath.filter((o) => o.uuid === 'a2').map((o) => [o.file, o.reason])).toEqual([
				[`${A}.jsonl`, 'duplicate'],
				[`${B}.jsonl`, 'duplicate']
			]);
		});
	}
	it('a copy that differs from the original is still reported', () => {
		const dir = join(DIR, 'resume-tail-copy');
		const b = readFileSync(join(dir, `${B}.jsonl`), 'utf8').replace('"Migrated; the docs are updated too."', '"Migrated (edited copy)."');
		const r = buildSession({ transcripts: [readRecords(`${A}.jsonl`, [readFileSync(join(dir, `${A}.jsonl`), 'utf8')]), readRecords(`${B}.jsonl`, [b])] }, { compat: 'viewer' });
		expect(r.issues.filter((i) => i.kind === 'duplicate-uuid').map((i) => [i.file, i.line])).toEqual([[`${B}.jsonl`, 4]]);
		expect(atomsOf(r).filter((a) => a.uuid === 'a2').map((a) => a.message?.content)).toEqual([[{ type: 'text', text: 'Migrated (edited copy).' }]]);
	});
	it('the fixtures are what the names say', () => {
		const files = readdirSync(join(DIR, 'resume-twice-three-files')).sort();
		expect(files).toEqual([`${A}.jsonl`, `${B}.jsonl`, `${C}.jsonl`]);
		const first = (stem: string) => JSON.parse(readFileSync(join(DIR, 'resume-twice-three-files', `${stem}.jsonl`), 'utf8').split('\n')[0]);
		expect(first(B).type).toBe('summary');
		expect(first(C).type).toBe('summary');
	});
});
