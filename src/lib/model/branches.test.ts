// D11, rewound branches (model/branches.ts) on the fixtures/model/rewind and rewind-nested cases:
// each abandoned branch is found where it left the path, holds its atoms in order, nests the
// branches rewound inside it, stays additive (offPath still lists every rewound line) and is
// absent in romp mode. The incremental builder gives the same branches as the whole parse.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSession, IncrementalBuilder, readRecords } from './index.ts';
import type { Branch, Compat, ParseResult } from './index.ts';

const DIR = resolve(__dirname, '../../../fixtures/model');
const fileOf = (fixture: string) => readdirSync(join(DIR, fixture)).find((f) => f.endsWith('.jsonl'))!;
function parse(fixture: string, compat: Compat = 'viewer'): ParseResult {
	const name = fileOf(fixture);
	return buildSession({ transcripts: [readRecords(name, [readFileSync(join(DIR, fixture, name), 'utf8')])] }, { compat });
}
const uuids = (turns: { atoms: { uuid: string | null }[] }[]) => turns.flatMap((t) => t.atoms.map((a) => a.uuid));
/** A branch tree as [fork, after, uuids, lines, children]. */
type Shape = [string | null, string | null, (string | null)[], number, Shape[]];
const shape = (bs: Branch[] | undefined): Shape[] => (bs ?? []).map((b) => [b.forkUuid, b.afterUuid, uuids(b.turns), b.lines, shape(b.children)]);
const rewoundLines = (r: ParseResult) => r.offPath.filter((o) => o.reason === 'rewind').map((o) => o.line).sort((a, b) => a - b);
function branchLines(r: ParseResult): number[] {
	// every line of a top-level branch's records, nested ones included: the atoms' lines of the whole tree
	const out: number[] = [];
	const walk = (b: Branch) => {
		for (const t of b.turns) for (const a of t.atoms) if (a.line) out.push(a.line);
		b.children.forEach(walk);
	};
	(r.session.branches ?? []).forEach(walk);
	return out.sort((a, b) => a - b);
}

describe('D11 rewound branches', () => {
	it('one rewind: the abandoned prompt, call, result and reply, after the reply it left from', () => {
		const r = parse('rewind');
		expect(uuids(r.session.turns)).toEqual(['u1', 'a1', 'u3', 'a4', 'r4', 'a5']);
		expect(shape(r.session.branches)).toEqual([['a1', 'a1', ['u2', 'a2', 'r2', 'a3'], 4, []]]);
		const b = r.session.branches![0];
		expect(b.rootUuid).toBe('u2');
		expect([b.t, b.end]).toEqual([r.session.turns[0].t + 10, r.session.turns[0].t + 34]);
	});

	it('a rewind inside a rewound branch nests; a second rewind on the path is its own branch', () => {
		const r = parse('rewind-nested');
		expect(uuids(r.session.turns)).toEqual(['u1', 'a1', 'u6', 'a7', 'u8', 'a9']);
		expect(shape(r.session.branches)).toEqual([
			['a1', 'a1', ['u2', 'a2', 'r2', 'a3', 'u5', 'a5', 'r5', 'a6'], 10, [['a3', 'a3', ['u4', 'a4'], 2, []]]],
			['a7', 'a7', ['u7', 'a8'], 2, []],
		]);
	});

	it('additive: offPath still holds every rewound line, each exactly once in the branch tree', () => {
		for (const fx of ['rewind', 'rewind-nested']) {
			const r = parse(fx);
			const a = r.accounting;
			expect(a.atoms + a.offPath + a.metadata + a.issues).toBe(a.lines);
			expect(branchLines(r)).toEqual(rewoundLines(r));
			expect(r.session.branches!.reduce((n, b) => n + b.lines, 0)).toBe(rewoundLines(r).length);
		}
	});

	it('romp mode is unchanged: no branches, the same path', () => {
		for (const fx of ['rewind', 'rewind-nested']) {
			const romp = parse(fx, 'romp');
			expect('branches' in romp.session).toBe(false);
			expect(uuids(romp.session.turns)).toEqual(uuids(parse(fx).session.turns));
		}
	});

	it('a session without a rewind has no branches field', () => {
		const body = JSON.stringify({ type: 'user', uuid: 'x', parentUuid: null, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: 'hi' } }) + '\n';
		expect('branches' in buildSession({ transcripts: [readRecords('s.jsonl', [body])] }).session).toBe(false);
	});

	it('the incremental builder gives the whole parse, branches included, and keeps them as the leaf grows', () => {
		const name = fileOf('rewind-nested');
		const text = readFileSync(join(DIR, 'rewind-nested', name), 'utf8');
		const b = new IncrementalBuilder({ compat: 'viewer' });
		b.append('transcript', name, new TextEncoder().encode(text));
		expect(b.build()).toStrictEqual(parse('rewind-nested'));
		const more = JSON.stringify({ type: 'user', uuid: 'u9', parentUuid: 'a9', timestamp: '2026-03-03T09:03:00.000Z', promptSource: 'typed', message: { role: 'user', content: 'Thanks.' } }) + '\n';
		b.append('transcript', name, new TextEncoder().encode(more));
		const got = b.build();
		expect(b.change.path).toBe('fast');
		expect(got).toStrictEqual(buildSession({ transcripts: [readRecords(name, [text + more])] }));
		expect(shape(got.session.branches)).toEqual(shape(parse('rewind-nested').session.branches));
	});
});
