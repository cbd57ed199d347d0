// The model's command line: parses a leaf transcript (plus candidate files, state log, postal
// log) with the same src/lib/model code the worker runs and prints the Session as JSON with
// sorted keys, or with --summary one line {turns, atoms, segments, issues, bytes, ms}.
// Files are streamed through RecordReader in chunks, never read whole. Exit 2 on bad usage or a
// missing file, 1 on an unexpected failure.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildSession, segmentsOf } from '../src/lib/model/index.ts';
import { USAGE, UsageError, parseCliArgs } from './lib/parse-args.ts';
import type { ParseCliArgs } from './lib/parse-args.ts';
import { sortedJson, withSegments } from './lib/session-json.ts';
import { streamRecords } from './lib/stream-records.ts';

function checkFiles(args: ParseCliArgs): number {
	let bytes = 0;
	for (const [what, file] of [
		['leaf transcript', args.leaf],
		...args.candidates.map((f) => ['candidate', f]),
		['state log', args.states],
		['postal log', args.postal]
	] as [string, string | null][]) {
		if (file === null) continue;
		let stat;
		try {
			stat = statSync(file);
		} catch {
			throw new UsageError(`${what} not found: ${file}`);
		}
		if (!stat.isFile()) throw new UsageError(`${what} is not a file: ${file}`);
		bytes += stat.size;
	}
	return bytes;
}

async function main(argv: string[]): Promise<void> {
	const args = parseCliArgs(argv, (a, b) => resolve(a) === resolve(b));
	const bytes = checkFiles(args);
	const started = performance.now();
	const transcripts = [];
	for (const file of [...args.candidates, args.leaf]) transcripts.push(await streamRecords(file));
	const states = args.states === null ? null : await streamRecords(args.states);
	const postal = args.postal === null ? null : await streamRecords(args.postal);
	const result = buildSession(
		{ transcripts, states, postal },
		{
			compat: args.compat,
			now: args.now,
			rompUuid: args.rompUuid,
			name: args.name,
			dir: args.dir ?? dirname(resolve(args.leaf)),
			sdkHuman: args.sdkHuman,
			leafOverride: args.leafOverride
		}
	);
	const ms = performance.now() - started;
	const { session } = result;
	if (args.summary) {
		const segments = session.turns.reduce((n, turn) => n + segmentsOf(turn, session.rompUuid).length, 0);
		const atoms = session.turns.reduce((n, turn) => n + turn.atoms.length, 0);
		const line = { turns: session.turns.length, atoms, segments, issues: result.issues.length, bytes, ms: Math.round(ms) };
		process.stdout.write(JSON.stringify(line) + '\n');
		return;
	}
	process.stdout.write(sortedJson(args.segments ? withSegments(session) : session, 1) + '\n');
}

// Piped into `head` and the like: a closed stdout is the reader's choice, not a failure.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
	if (err.code === 'EPIPE') process.exit(0);
	throw err;
});

main(process.argv.slice(2)).catch((err: unknown) => {
	if (err instanceof UsageError) {
		process.stderr.write(`parse: ${err.message}\n${USAGE}\n`);
		process.exitCode = 2;
	} else {
		process.stderr.write(`parse: failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
		process.exitCode = 1;
	}
});
