// Reads one case folder of the romp conformance pack (fixtures/conformance/romp/<case>/) into
// the files to feed and the ParseOptions to pass, following the pack README's case.json table:
// candidates are read in their order with the leaf always last (null ⇒ the leaf alone);
// null rompUuid / name are passed through so the model's own defaulting is what gets tested.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ParseOptions } from '../../src/lib/model/index.ts';

export interface CaseJson {
	description: string;
	leaf: string;
	candidates: string[] | null;
	states: string | null;
	postal: string | null;
	now: number | null;
	rompUuid: string | null;
	name: string | null;
	dir: string;
	sdkHuman: boolean;
	leafOverride: string | null;
}

export interface RompCase {
	name: string;
	dir: string;
	spec: CaseJson;
	/** Transcript file names (relative to dir) in read order, leaf last. */
	transcripts: string[];
	states: string | null;
	postal: string | null;
	options: ParseOptions;
	expected: unknown;
}

export function transcriptOrder(leaf: string, candidates: string[] | null): string[] {
	return [...(candidates ?? []).filter((f) => f !== leaf), leaf];
}

export function readCase(dir: string, name: string): RompCase {
	const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as CaseJson;
	return {
		name,
		dir,
		spec,
		transcripts: transcriptOrder(spec.leaf, spec.candidates),
		states: spec.states,
		postal: spec.postal,
		options: {
			compat: 'romp',
			now: spec.now,
			rompUuid: spec.rompUuid,
			name: spec.name,
			dir: spec.dir,
			sdkHuman: spec.sdkHuman,
			leafOverride: spec.leafOverride
		},
		expected: JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'))
	};
}

/** Every case folder under the pack root, sorted by name. */
export function listCases(root: string): RompCase[] {
	return readdirSync(root)
		.filter((name) => statSync(join(root, name)).isDirectory())
		.sort()
		.map((name) => readCase(join(root, name), name));
}

/** The parse CLI arguments equivalent to a case (file paths absolute). */
export function cliArgs(c: RompCase): string[] {
	const { spec } = c;
	const args = [join(c.dir, spec.leaf)];
	const others = c.transcripts.slice(0, -1);
	if (others.length) args.push('--candidates', others.map((f) => join(c.dir, f)).join(','));
	if (spec.states) args.push('--states', join(c.dir, spec.states));
	if (spec.postal) args.push('--postal', join(c.dir, spec.postal));
	if (spec.now !== null) args.push('--now', String(spec.now));
	if (spec.rompUuid !== null) args.push('--rompuuid', spec.rompUuid);
	if (spec.name !== null) args.push('--name', spec.name);
	args.push('--dir', spec.dir);
	if (spec.sdkHuman) args.push('--sdk-human');
	if (spec.leafOverride !== null) args.push('--leaf-override', spec.leafOverride);
	args.push('--compat', 'romp', '--segments');
	return args;
}
