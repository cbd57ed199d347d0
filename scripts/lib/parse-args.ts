// Command-line arguments of scripts/parse.ts, parsed and checked without touching the disk, so
// the rules can be tested as data. A bad argument is a UsageError (the CLI exits 2).
import type { Compat } from '../../src/lib/model/index.ts';

export class UsageError extends Error {}

export interface ParseCliArgs {
	leaf: string;
	/** Other candidate transcripts, in read order; the leaf is not included (it is read last). */
	candidates: string[];
	states: string | null;
	postal: string | null;
	now: number | null;
	rompUuid: string | null;
	name: string | null;
	dir: string | null;
	sdkHuman: boolean;
	leafOverride: string | null;
	compat: Compat;
	segments: boolean;
	summary: boolean;
}

export const USAGE = `usage: npm run --silent parse -- LEAF.jsonl [--candidates A.jsonl,B.jsonl] [--states S.jsonl]
       [--postal M.jsonl] [--now EPOCH] [--rompuuid ID] [--name N] [--dir D] [--sdk-human]
       [--leaf-override UUID] [--compat romp|viewer] [--segments] [--summary]`;

const VALUE_FLAGS = new Set(['--candidates', '--states', '--postal', '--now', '--rompuuid', '--name', '--dir', '--leaf-override', '--compat']);
const BOOLEAN_FLAGS = new Set(['--sdk-human', '--segments', '--summary']);

/** `sameFile` decides whether a candidate names the leaf (the CLI resolves paths). */
export function parseCliArgs(argv: string[], sameFile: (a: string, b: string) => boolean = (a, b) => a === b): ParseCliArgs {
	const values = new Map<string, string>();
	const flags = new Set<string>();
	const positional: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
		const flag = eq > 0 ? arg.slice(0, eq) : arg;
		if (VALUE_FLAGS.has(flag)) {
			const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
			if (value === undefined) throw new UsageError(`${flag} needs a value`);
			if (values.has(flag)) throw new UsageError(`${flag} given twice`);
			values.set(flag, value);
		} else if (BOOLEAN_FLAGS.has(arg)) flags.add(arg);
		else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`);
		else positional.push(arg);
	}
	if (positional.length !== 1) throw new UsageError(positional.length ? `one leaf transcript expected, got ${positional.length}: ${positional.join(' ')}` : 'no leaf transcript given');
	const leaf = positional[0];

	const nowText = values.get('--now');
	let now: number | null = null;
	if (nowText !== undefined) {
		if (!/^-?\d+$/.test(nowText)) throw new UsageError(`--now must be integer epoch seconds, got "${nowText}"`);
		now = Number(nowText);
	}
	const compat = values.get('--compat') ?? 'viewer';
	if (compat !== 'romp' && compat !== 'viewer') throw new UsageError(`--compat must be romp or viewer, got "${compat}"`);
	const candidates = (values.get('--candidates') ?? '')
		.split(',')
		.filter((f) => f !== '')
		.filter((f) => !sameFile(f, leaf));

	return {
		leaf,
		candidates,
		states: values.get('--states') ?? null,
		postal: values.get('--postal') ?? null,
		now,
		rompUuid: values.get('--rompuuid') ?? null,
		name: values.get('--name') ?? null,
		dir: values.get('--dir') ?? null,
		sdkHuman: flags.has('--sdk-human'),
		leafOverride: values.get('--leaf-override') ?? null,
		compat,
		segments: flags.has('--segments'),
		summary: flags.has('--summary')
	};
}
