// `npm run bench`: the Node benchmark of issue 2. Generates (once, cached in .bench-cache/ keyed by
// size and seed) a synthetic Claude Code session with ../shared/bench/gen-session.mjs, reads its
// files into memory as chunks, then in one run times, alternating and several times each:
//   baseline  the Node model floor (scripts/lib/floors.mjs): the same chunks decoded, split into
//             lines, JSON.parse of each line;
//   model     the same chunks through RecordReader, then buildSession (viewer mode) for the main
//             transcript with its state log and for every subagent transcript.
// It reports MB/s of both, the ratio of the medians model/baseline (target ≤ 1.2) and, from a
// child process that runs the model phase alone streaming from disk as the app does, peak V8 heap
// over the input size (target ≤ 1.5). Then appends (issue 8): the main transcript minus its last
// turn is built with an IncrementalBuilder (untimed); 20 consecutive 1 KB appends, then 5 of
// 100 KB, each followed by build(), and (to another such build) the whole last turn at once are
// timed against a whole parse of the same files (main transcript + state log). appendRatio1k is
// the 1 KB appends' median over the whole parse's (target ≤ 0.02). Then (issue 22) history usage
// reports over ~300k billed calls (scripts/lib/bench-history.ts, target ≤ 100 ms each).
// Targets print PASS or MISS, and again in the verdict table at the end; a miss does not fail the process.
// The last line of output is one JSON object.
//
//   npm run bench [-- --mb 100 --seed 1 --runs 5 --chunk 1048576]
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IncrementalBuilder, RecordReader, buildSession, readRecords } from '../src/lib/model/index.ts';
import type { FileRecords } from '../src/lib/model/index.ts';
import { historyBench, printHistoryBench } from './lib/bench-history.ts';
import { nodeParseFloor, Verdicts } from './lib/floors.mjs';

const REPO = resolve(fileURLToPath(import.meta.url), '../..');
const GENERATOR = '../shared/bench/gen-session.mjs'; // relative to the repo root (shared/ sits beside the repo in CI)
const RATIO_TARGET = 1.2;
const HEAP_TARGET = 1.5;
const APPEND_TARGET = 0.02;

// ── Arguments ────────────────────────────────────────────────────────────────────────────────

function option(name: string, fallback: number): number {
	const i = process.argv.indexOf(`--${name}`);
	if (i < 0) return fallback;
	const v = Number(process.argv[i + 1]);
	if (!Number.isFinite(v) || v <= 0) {
		process.stderr.write(`bench: --${name} needs a positive number\n`);
		process.exit(2);
	}
	return v;
}

// ── The input ────────────────────────────────────────────────────────────────────────────────

interface BenchFiles { main: string; states: string | null; subagents: string[]; bytes: number; dir: string }

function generate(mb: number, seed: number): BenchFiles {
	const dir = join(REPO, '.bench-cache', `session-${mb}mb-seed${seed}`);
	const marker = join(dir, 'generated.json');
	if (!existsSync(marker)) {
		rmSync(dir, { recursive: true, force: true });
		process.stdout.write(`generating a ${mb} MB session (seed ${seed}) in ${dir} …\n`);
		const r = spawnSync(process.execPath, [GENERATOR, '--mb', String(mb), '--seed', String(seed), '--out', dir], { cwd: REPO, encoding: 'utf8' });
		if (r.status !== 0) {
			process.stderr.write(`bench: generator failed (${GENERATOR}):\n${r.stderr}\n`);
			process.exit(1);
		}
		writeFileSync(marker, r.stdout.trim());
	}
	const { sessionId } = JSON.parse(readFileSync(marker, 'utf8')) as { sessionId: string };
	const main = join(dir, `${sessionId}.jsonl`);
	const statesFile = join(dir, 'states', `${sessionId}.jsonl`);
	const subDir = join(dir, sessionId, 'subagents');
	const subagents = existsSync(subDir)
		? readdirSync(subDir).filter((f) => f.startsWith('agent-') && f.endsWith('.jsonl')).sort().map((f) => join(subDir, f))
		: [];
	const states = existsSync(statesFile) ? statesFile : null;
	const bytes = [main, ...(states ? [states] : []), ...subagents].reduce((n, f) => n + statSync(f).size, 0);
	return { main, states, subagents, bytes, dir };
}

const allFiles = (f: BenchFiles): string[] => [f.main, ...(f.states ? [f.states] : []), ...f.subagents];

// ── The two phases ───────────────────────────────────────────────────────────────────────────

/** Where a phase gets a file's chunks: from disk (the heap child) or from memory (timed runs). */
type Source = (file: string) => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
const fromDisk = (chunk: number): Source => (file) => createReadStream(file, { highWaterMark: chunk }) as AsyncIterable<Buffer>;

/** Every file read once into chunks, so the timed phases measure parsing, not disk or page cache. */
async function inMemory(files: BenchFiles, chunk: number): Promise<Source> {
	const byFile = new Map<string, Uint8Array[]>();
	for (const file of allFiles(files)) {
		const chunks: Uint8Array[] = [];
		for await (const buf of createReadStream(file, { highWaterMark: chunk })) chunks.push(buf as Buffer);
		byFile.set(file, chunks);
	}
	return (file) => byFile.get(file)!;
}

/** The Node model floor (scripts/lib/floors.mjs): decode, cut at "\n", JSON.parse every line. */
const baseline = (files: BenchFiles, source: Source): Promise<number> => nodeParseFloor(allFiles(files), source);

async function read(file: string, source: Source, onChunk?: () => void): Promise<FileRecords> {
	const reader = new RecordReader(file.split('/').pop()!);
	for await (const buf of source(file)) {
		reader.push(buf);
		onChunk?.();
	}
	return reader.finish();
}

interface ModelCounts { turns: number; atoms: number; issues: number; subagentAtoms: number }

/** The full model, as the worker will run it: records, then sessions (viewer mode). */
async function model(files: BenchFiles, source: Source, onChunk?: () => void, keep?: unknown[]): Promise<ModelCounts> {
	const main = await read(files.main, source, onChunk);
	const states = files.states ? await read(files.states, source, onChunk) : null;
	const result = buildSession({ transcripts: [main], states }, { compat: 'viewer' });
	keep?.push(result);
	onChunk?.();
	let subagentAtoms = 0;
	for (const f of files.subagents) {
		const sub = buildSession({ transcripts: [await read(f, source, onChunk)] }, { compat: 'viewer', subagent: true });
		subagentAtoms += sub.session.turns.reduce((n, t) => n + t.atoms.length, 0);
		keep?.push(sub);
		onChunk?.();
	}
	return {
		turns: result.session.turns.length,
		atoms: result.session.turns.reduce((n, t) => n + t.atoms.length, 0),
		issues: result.issues.length,
		subagentAtoms
	};
}

// ── Heap child: the model phase alone, heapUsed sampled per chunk plus V8's GC trace ─────────

async function heapChild(): Promise<void> {
	const files = JSON.parse(process.argv[process.argv.indexOf('--heap-child') + 1]) as BenchFiles;
	const chunk = option('chunk', 1 << 20);
	const gc = (globalThis as { gc?: () => void }).gc;
	gc?.();
	const base = process.memoryUsage().heapUsed;
	let peak = base;
	const sample = () => {
		const used = process.memoryUsage().heapUsed;
		if (used > peak) peak = used;
	};
	const keep: unknown[] = [];
	await model(files, fromDisk(chunk), sample, keep);
	sample();
	gc?.();
	const retained = process.memoryUsage().heapUsed - base; // the parsed sessions, still referenced by `keep`
	process.stdout.write(`HEAP ${JSON.stringify({ base, peak, retained, kept: keep.length, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
}

/** Peak heap of the model phase in a fresh process: max of sampled heapUsed and GC-trace "before" sizes. */
function measureHeap(files: BenchFiles, chunk: number): { peakBytes: number; retained: number; maxRss: number } | { error: string } {
	const r = spawnSync(
		process.execPath,
		['--expose-gc', '--trace-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--heap-child', JSON.stringify(files), '--chunk', String(chunk)],
		{ cwd: REPO, encoding: 'utf8', maxBuffer: 256 << 20 }
	);
	const line = r.stdout.split('\n').find((l) => l.startsWith('HEAP '));
	if (r.status !== 0 || !line) return { error: `heap child failed (status ${r.status}): ${r.stderr.slice(0, 2000)}` };
	const { base, peak, retained, maxRss } = JSON.parse(line.slice(5)) as { base: number; peak: number; retained: number; maxRss: number };
	// "[pid:addr]  123 ms: Mark-Compact 250.1 (270.3) -> 200.5 (260.0) MB, …" — the first number is
	// the heap in use just before that collection, i.e. a local peak the samples may have missed.
	let traced = 0;
	for (const m of r.stdout.matchAll(/ms: [A-Za-z -]+(?:\([a-z]+\) )?([\d.]+) \([\d.]+\) -> [\d.]+ \([\d.]+\) MB/g)) traced = Math.max(traced, Number(m[1]) * 1024 * 1024);
	return { peakBytes: Math.round(Math.max(peak, traced) - base), retained, maxRss };
}

// ── Appends: a built session grows by 1 KB, 100 KB, one turn ────────────────────────────────

interface AppendResult { wholeMs: number[]; wholeBytes: number; kinds: { name: string; bytes: number; ms: number[]; paths: string[] }[] }

async function appendBench(files: BenchFiles, source: Source, runs: number, gc: () => void): Promise<AppendResult> {
	const gather = async (file: string) => {
		const chunks: Uint8Array[] = [];
		for await (const c of source(file)) chunks.push(c);
		return chunks;
	};
	const mainChunks = await gather(files.main);
	const stateChunks = files.states ? await gather(files.states) : [];
	const main = Buffer.concat(mainChunks);
	const name = files.main.split('/').pop()!;
	const statesName = files.states ? 'states/' + files.states.split('/').pop()! : null;
	const wholeParse = () => buildSession(
		{ transcripts: [readRecords(name, mainChunks)], states: statesName ? readRecords(statesName, stateChunks) : null },
		{ compat: 'viewer' }
	);
	// The last turn starts at the line of its trigger.
	const turns = wholeParse().session.turns;
	const trigger = [...turns].reverse().find((t) => t.trigger?.uuid)?.trigger?.uuid;
	const at = trigger ? main.indexOf(`"uuid":"${trigger}"`) : -1;
	const cut = at < 0 ? main.length : main.lastIndexOf(10, at) + 1;
	const kinds = [
		{ name: '1 KB', bytes: 1024, times: 20 },
		{ name: '100 KB', bytes: 100 * 1024, times: 5 },
		{ name: 'one turn', bytes: main.length - cut, times: 1 }
	].map((k) => ({ ...k, ms: [] as number[], paths: [] as string[] }));
	const based = (end: number) => {
		const b = new IncrementalBuilder({ compat: 'viewer' });
		for (let i = 0; i < end; i += 1 << 20) b.append('transcript', name, main.subarray(i, Math.min(end, i + (1 << 20))));
		if (statesName) for (const c of stateChunks) b.append('states', statesName, c);
		b.build();
		return b;
	};
	/** Appends k.times pieces of k.bytes from `at` (each followed by build()), timing each. */
	const timeAppends = (b: IncrementalBuilder, k: (typeof kinds)[number], at: number, keep: boolean): number => {
		for (let i = 0; i < k.times; i++, at += k.bytes) {
			const t0 = performance.now();
			b.append('transcript', name, main.subarray(at, at + k.bytes));
			b.build();
			if (keep) {
				k.ms.push(performance.now() - t0);
				k.paths.push(b.change.path);
			}
		}
		return at;
	};
	// Warm-up of the append path's code on a small session (the whole parse had its warm-up round).
	const smallCut = main.lastIndexOf(10, Math.min(main.length - 1, 4 << 20)) + 1;
	timeAppends(based(smallCut), kinds[0], smallCut, false);
	const wholeMs: number[] = [];
	const appendRuns = Math.min(runs, 3);
	for (let r = 0; r < appendRuns; r++) {
		gc();
		const t = performance.now();
		wholeParse();
		wholeMs.push(performance.now() - t);
		// Consecutive 1 KB appends (as a follower reads them), then 100 KB ones, to one built session;
		// the whole last turn to another.
		let b = based(cut);
		gc();
		timeAppends(b, kinds[1], timeAppends(b, kinds[0], cut, true), true);
		b = based(cut);
		gc();
		timeAppends(b, kinds[2], cut, true);
	}
	return { wholeMs, wholeBytes: main.length + stateChunks.reduce((n, c) => n + c.length, 0), kinds };
}

// ── Main ─────────────────────────────────────────────────────────────────────────────────────

const median = (xs: number[]): number => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n: number, d = 1) => n.toFixed(d);
const spread = (xs: number[]): string => {
	const s = [...xs].sort((a, b) => a - b);
	return `${fmt(s[0])} / ${fmt(s[Math.min(s.length - 1, Math.floor(s.length * 0.9))])} / ${fmt(s[s.length - 1])} (${s.length})`;
};
const pad = (s: string, n: number) => s.padEnd(n);

async function main(): Promise<void> {
	const mb = option('mb', 100);
	const seed = option('seed', 1);
	const runs = option('runs', 5);
	const chunk = option('chunk', 1 << 20);
	setFlagsFromString('--expose-gc');
	const gc = runInNewContext('gc') as () => void;

	const files = generate(mb, seed);
	const MB = files.bytes / 1e6;
	const load = loadavg()[0];
	process.stdout.write(`input: ${fmt(MB)} MB in ${allFiles(files).length} files (main transcript, state log, ${files.subagents.length} subagents), read into memory as chunks of ${chunk} bytes (timings exclude disk), ${runs} runs each after one warm-up round; load average ${fmt(load, 2)} on ${cpus().length} CPUs\n`);

	// One untimed round first (JIT warm-up), so the runs compare steady states.
	const source = await inMemory(files, chunk);
	await baseline(files, source);
	try {
		await model(files, source);
	} catch {
		// reported by the timed runs below
	}
	const times = { baseline: [] as number[], model: [] as number[] };
	// CPU time of this process (all threads) per run: unlike wall time it barely moves when other
	// processes load the machine, so its ratio is the figure to trust on a busy box.
	const cpu = { baseline: [] as number[], model: [] as number[] };
	const cpuMs = () => {
		const u = process.cpuUsage();
		return (u.user + u.system) / 1000;
	};
	let counts: ModelCounts | null = null;
	let lines = 0;
	let modelError: string | null = null;
	for (let i = 0; i < runs; i++) {
		gc();
		let t = performance.now();
		let c = cpuMs();
		lines = await baseline(files, source);
		times.baseline.push(performance.now() - t);
		cpu.baseline.push(cpuMs() - c);
		if (modelError) continue;
		gc();
		t = performance.now();
		c = cpuMs();
		try {
			counts = await model(files, source);
			times.model.push(performance.now() - t);
			cpu.model.push(cpuMs() - c);
		} catch (err) {
			modelError = err instanceof Error ? err.message : String(err);
		}
	}

	const baseMs = median(times.baseline);
	const baseMBps = MB / (baseMs / 1000);
	const modelMs = times.model.length ? median(times.model) : NaN;
	const modelMBps = MB / (modelMs / 1000);
	const ratio = modelMs / baseMs;
	// Runs alternate, so each pair saw the same machine load; their median ratio is a drift check.
	const pairRatio = times.model.length ? median(times.model.map((m, i) => m / times.baseline[i])) : NaN;
	const cpuRatio = cpu.model.length ? median(cpu.model) / median(cpu.baseline) : NaN;
	const heap = modelError ? { error: 'model failed' } : measureHeap(files, chunk);
	const heapRatio = 'peakBytes' in heap ? heap.peakBytes / files.bytes : NaN;
	const verdict = (ok: boolean, measured: boolean) => (!measured ? 'n/a ' : ok ? 'PASS' : 'MISS');
	const appends = modelError ? null : await appendBench(files, source, runs, gc);
	const wholeMainMs = appends ? median(appends.wholeMs) : NaN;
	const appendMs = (name: string) => (appends ? median(appends.kinds.find((k) => k.name === name)!.ms) : NaN);
	const appendRatio1k = appendMs('1 KB') / wholeMainMs;

	const best = (xs: number[]) => (xs.length ? fmt(Math.min(...xs), 0) : '-');
	const rows = [
		['phase', 'median ms', 'MB/s', 'best ms', 'runs (ms)'],
		['baseline: split lines + JSON.parse', fmt(baseMs, 0), fmt(baseMBps), best(times.baseline), times.baseline.map((x) => fmt(x, 0)).join(' ')],
		['model: RecordReader + buildSession', modelError ? 'failed' : fmt(modelMs, 0), modelError ? '-' : fmt(modelMBps), best(times.model), times.model.map((x) => fmt(x, 0)).join(' ')]
	];
	const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)) + 2);
	process.stdout.write('\n' + rows.map((r) => r.map((cell, c) => pad(cell, widths[c])).join('').trimEnd()).join('\n') + '\n\n');
	process.stdout.write(`lines parsed: ${lines}` + (counts ? `; main session: ${counts.turns} turns, ${counts.atoms} atoms, ${counts.issues} issues; subagent atoms: ${counts.subagentAtoms}` : '') + '\n');
	if (modelError) process.stdout.write(`model failed: ${modelError}\n`);
	if ('error' in heap && !modelError) process.stdout.write(`${heap.error}\n`);
	process.stdout.write(
		`${verdict(ratio <= RATIO_TARGET, !modelError)}  time ratio model/baseline ${modelError ? '-' : fmt(ratio, 2)} (target ≤ ${RATIO_TARGET})` +
			(modelError ? '' : `; median of per-round ratios ${fmt(pairRatio, 2)}; best/best ${fmt(Math.min(...times.model) / Math.min(...times.baseline), 2)}`) + '\n'
	);
	process.stdout.write(
		// Process CPU time counts V8's helper threads too: the model keeps what it parses, so its
		// GC does parallel marking work the baseline (which drops every parse) never needs. The
		// issue's target is on time; this line is for reading alongside it, with no target.
		`info  cpu-time ratio model/baseline ${modelError ? '-' : fmt(cpuRatio, 2)} (median CPU ms ${fmt(median(cpu.baseline), 0)} vs ${modelError ? '-' : fmt(median(cpu.model), 0)}, all threads; no target)\n`
	);
	process.stdout.write(
		`${verdict(heapRatio <= HEAP_TARGET, 'peakBytes' in heap)}  peak heap ${'peakBytes' in heap ? `${fmt(heap.peakBytes / 1e6)} MB = ${fmt(heapRatio, 2)}× input` : '-'} (target ≤ ${HEAP_TARGET}×)` +
			('maxRss' in heap ? `; retained after GC ${fmt(heap.retained / 1e6)} MB = ${fmt(heap.retained / files.bytes, 2)}×; child max RSS ${fmt(heap.maxRss / 1e6)} MB` : '') + '\n'
	);
	if (appends) {
		const arows = [
			['append to the built session, then build()', 'bytes', 'median ms', '× whole parse', 'path', 'min / p90 / max ms (n)'],
			['whole parse (main transcript + state log)', String(appends.wholeBytes), fmt(wholeMainMs, 0), '1', '-', spread(appends.wholeMs)],
			...appends.kinds.map((k) => [k.name, String(k.bytes), fmt(median(k.ms), 1), fmt(median(k.ms) / wholeMainMs, 4), [...new Set(k.paths)].join(','), spread(k.ms)])
		];
		const aw = arows[0].map((_, c) => Math.max(...arows.map((r) => r[c].length)) + 2);
		process.stdout.write('\n' + arows.map((r) => r.map((cell, c) => pad(cell, aw[c])).join('').trimEnd()).join('\n') + '\n');
		process.stdout.write(`${verdict(appendRatio1k <= APPEND_TARGET, true)}  1 KB append / whole parse ${fmt(appendRatio1k, 4)} (target ≤ ${APPEND_TARGET})\n`);
	}
	const history = historyBench(runs);
	printHistoryBench(history, (x) => process.stdout.write(x));
	const summary = {
		bench: 'model-node',
		node: process.version,
		loadAverage: Number(fmt(load, 2)),
		inputBytes: files.bytes,
		files: allFiles(files).length,
		chunk,
		runs,
		lines,
		baselineMs: Math.round(baseMs),
		baselineMBps: Number(fmt(baseMBps)),
		modelMs: modelError ? null : Math.round(modelMs),
		modelMBps: modelError ? null : Number(fmt(modelMBps)),
		ratio: modelError ? null : Number(fmt(ratio, 3)),
		pairRatio: modelError ? null : Number(fmt(pairRatio, 3)),
		cpuRatio: modelError ? null : Number(fmt(cpuRatio, 3)),
		bestRatio: modelError ? null : Number(fmt(Math.min(...times.model) / Math.min(...times.baseline), 3)),
		ratioTarget: RATIO_TARGET,
		ratioPass: modelError ? null : ratio <= RATIO_TARGET,
		peakHeapBytes: 'peakBytes' in heap ? heap.peakBytes : null,
		peakHeapRatio: 'peakBytes' in heap ? Number(fmt(heapRatio, 3)) : null,
		retainedHeapBytes: 'peakBytes' in heap ? heap.retained : null,
		heapTarget: HEAP_TARGET,
		heapPass: 'peakBytes' in heap ? heapRatio <= HEAP_TARGET : null,
		wholeMainMs: appends ? Math.round(wholeMainMs) : null,
		append1kMs: appends ? Number(fmt(appendMs('1 KB'), 2)) : null,
		append100kMs: appends ? Number(fmt(appendMs('100 KB'), 2)) : null,
		appendTurnMs: appends ? Number(fmt(appendMs('one turn'), 2)) : null,
		appendTurnBytes: appends ? appends.kinds[2].bytes : null,
		appendRatio1k: appends ? Number(fmt(appendRatio1k, 4)) : null,
		appendRatioTarget: APPEND_TARGET,
		appendPass: appends ? appendRatio1k <= APPEND_TARGET : null,
		historyCalls: history.calls,
		historyReportWorstMs: Number(fmt(history.worstMs, 1)),
		historyPass: history.pass,
		modelError
	};
	const verdicts = new Verdicts();
	verdicts.add('model / Node floor (time, median)', modelError ? 'failed' : `${fmt(ratio, 2)}× (${Math.round(modelMs)} / ${Math.round(baseMs)} ms)`, `≤ ${RATIO_TARGET}×`, !modelError && ratio <= RATIO_TARGET);
	verdicts.add('model peak heap / input', 'peakBytes' in heap ? `${fmt(heapRatio, 2)}×` : '-', `≤ ${HEAP_TARGET}×`, heapRatio <= HEAP_TARGET);
	verdicts.add('1 KB append / whole parse', appends ? fmt(appendRatio1k, 4) : '-', `≤ ${APPEND_TARGET}`, appendRatio1k <= APPEND_TARGET);
	verdicts.add('slowest history report (median)', `${fmt(history.worstMs, 1)} ms`, '≤ 100 ms', history.pass);
	verdicts.print(`npm run bench: verdicts (floor: the Node model floor, ${Math.round(baseMs)} ms for ${fmt(MB)} MB, interleaved with the model's runs)`);
	process.stdout.write(JSON.stringify(summary) + '\n');
}

if (process.argv.includes('--heap-child')) await heapChild();
else await main();
