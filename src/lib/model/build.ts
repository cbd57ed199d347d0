// buildSession: the file adapter of the reference event model (event-model-reference.md §2).
// Candidate transcripts (leaf last) + state log + postal log → Session / Turn / Atom, with the
// issues, off-path lines and metadata records, so nothing is lost silently. Mode 'romp'
// reproduces the reference field for field; 'viewer' (default) applies docs/divergences.md
// (D1–D4, D6–D8, D11). Both: bad timestamps are issues, never crashes (D5).
//
// Stages, in the order build() calls them (each module's header says what it owns):
//   accounting.ts     reader issues first; the home of every unplaced line last
//   authors.ts        postal index → author context
//   line-table.ts     lines in read order with timestamps (D5); uuid-less content → issues
//   graph.ts          uuid graph, leaf choice (D2), compaction stitch repair
//   active-path.ts    active path, kept set, per-line verdicts (D3, D8), with
//   rewind-rescue.ts  side branches that are not rewinds (D4)
//   pre-passes.ts     replays, compaction summaries, Skill ids, command promptIds, stop_reason (D1)
//   emit.ts           atoms from kept lines (assistant, system), with emit-user.ts (user rules 1–11)
//   absorbed.ts       absorbed queued_command prompts
//   state-log.ts      state rows: landed texts, orphan replies, idle atoms
//   atom-sink.ts      where atoms go; ordered by (t, read order)
//   turns.ts          grouping into turns
//   branches.ts       viewer: rewound branches, each rebuilt from its own lines (D11)
// Shared types (Line, Ctx, verdicts): build-context.ts.
//
// Accounting: every non-blank input line has exactly one home, and accounting.lines = atoms +
// offPath + metadata + issues, counting lines that made an atom (one at most; idle and orphan
// atoms come from state rows, counted as metadata), off-path lines (rewound, cleared, sidechain,
// replayed, duplicates), metadata records, and issues with `accounted: true` (broken lines).
// Other issues are warnings about lines that live elsewhere, or file-level (line null).
// buildSession never throws: an internal failure is an 'internal-error' issue and an empty session.
import { accountingOf, accountReaderIssues, placeRemainingLines } from './accounting.ts';
import { lineVerdicts } from './active-path.ts';
import { rewoundBranches } from './branches.ts';
import { AtomSink } from './atom-sink.ts';
import { authorContext } from './authors.ts';
import { fileStem, type Ctx } from './build-context.ts';
import { emitAbsorbed } from './absorbed.ts';
import { emitKeptLines } from './emit.ts';
import type { EmitEnv } from './emit-env.ts';
import { buildGraph, chooseLeaf, repairStitches } from './graph.ts';
import { flagUuidlessContent, LineTexts, readLines } from './line-table.ts';
import { runPrePasses } from './pre-passes.ts';
import { emitIdle, emitOrphanReplies, landedTexts, leafOverrideTime, readStateRows, type StateRow } from './state-log.ts';
import { groupTurns } from './turns.ts';
import type { Branch, Issue, OffPathLine, ParseInput, ParseOptions, ParseResult } from './types.ts';

export function buildSession(input: ParseInput, opts: ParseOptions = {}): ParseResult {
	try {
		return build(input, opts);
	} catch (e) {
		return failed(input, opts, e);
	}
}

/**
 * The stages' state after one build, for incremental.ts to extend with appended lines. Marks
 * are ctx.issues / ctx.metadata lengths at the end of stages, so the lists can be cut into the
 * parts each stage adds to (an appended line adds to several parts, not just the end).
 */
export interface BuildInternals {
	env: EmitEnv;
	leaf: number;
	verdict: Uint8Array;
	landed: Set<string>;
	rows: StateRow[];
	/** sink.atoms[0, lineAtoms) are the atoms of lines; the rest are synthetic (state rows) */
	lineAtoms: number;
	/** ctx.issues length after: reader issues, graph + active path, uuid-less lines, pre-passes, kept-line emission, absorbed prompts, state rows */
	issueMarks: number[];
	/** ctx.metadata length after: postal rows, state rows */
	metaMarks: number[];
	offPath: OffPathLine[];
	/** D11's rewound branches (the fast path only extends the leaf, so they stay as they are) */
	branches: Branch[];
}

/** buildSession, also returning its internals (null when the build failed). */
export function buildSessionKeeping(input: ParseInput, opts: ParseOptions = {}): { result: ParseResult; internals: BuildInternals | null } {
	let internals: BuildInternals | null = null;
	try {
		const result = build(input, opts, (x) => (internals = x));
		return { result, internals };
	} catch (e) {
		return { result: failed(input, opts, e), internals: null };
	}
}

/** Last-resort result when building threw: an empty session, every line an accounted issue. */
function failed(input: ParseInput, opts: ParseOptions, e: unknown): ParseResult {
	const files = (input?.transcripts ?? []).filter(Boolean);
	const leaf = files.length ? fileStem(files[files.length - 1].file ?? '') : '';
	const rompUuid = opts.rompUuid || leaf;
	const why = e instanceof Error ? e.message : String(e);
	const issues: Issue[] = [];
	for (const f of [...files, input?.states, input?.postal]) {
		if (!f) continue;
		for (const i of f.issues ?? []) issues.push(i.line !== null ? { ...i, accounted: true } : i);
		for (const r of f.records ?? []) {
			issues.push({ file: f.file, line: r.line, kind: 'internal-error', message: `not shown: the model failed (${why})`, accounted: true });
		}
	}
	const accounted = issues.filter((i) => i.accounted).length;
	return {
		session: { rompUuid, name: opts.name || rompUuid, dir: opts.dir ?? '', color: '#888888', leafFsid: leaf, landedTextUuids: [], turns: [] },
		issues,
		offPath: [],
		metadata: [],
		accounting: { lines: accounted, atoms: 0, offPath: 0, metadata: 0, issues: accounted },
	};
}

function build(input: ParseInput, opts: ParseOptions, keep?: (x: BuildInternals) => void): ParseResult {
	const transcripts = input.transcripts ?? [];
	const leafFsid = fileStem(transcripts.length ? transcripts[transcripts.length - 1].file : '');
	const ctx = newContext(opts, transcripts.map((f) => f.file), leafFsid);
	accountReaderIssues(ctx, [...transcripts, input.states ?? null, input.postal ?? null]);
	const issueMarks = [ctx.issues.length];
	const authors = authorContext(ctx, input.postal);
	const metaMarks = [ctx.metadata.length];

	// Lines, uuid graph, leaf, stitch repair, active path and kept set.
	const table = readLines(transcripts);
	const graph = buildGraph(ctx, table.lines);
	const leaf = chooseLeaf(ctx, table.lines, graph);
	repairStitches(table.lines, graph);
	const verdict = lineVerdicts(ctx, table.lines, graph, leaf);
	issueMarks.push(ctx.issues.length);
	flagUuidlessContent(ctx, table);
	issueMarks.push(ctx.issues.length);

	// Pre-passes, then atoms: kept lines (file order), absorbed prompts.
	const texts = new LineTexts(ctx, table.lines.length);
	const pre = runPrePasses(ctx.viewer, table.lines, verdict, texts);
	issueMarks.push(ctx.issues.length);
	const sink = new AtomSink(ctx, table);
	const env = { ctx, table, graph, pre, texts, authors, sink };
	emitKeptLines(env);
	issueMarks.push(ctx.issues.length);
	emitAbsorbed(env, verdict);
	issueMarks.push(ctx.issues.length);

	// State log: landed texts, orphan replies, idle spans.
	const landed = landedTexts(table.lines);
	const rows = readStateRows(ctx, input.states);
	issueMarks.push(ctx.issues.length);
	metaMarks.push(ctx.metadata.length);
	const lineAtoms = sink.atoms.length;
	emitOrphanReplies(ctx, sink, rows, landed.landed, leafOverrideTime(ctx, table.lines, graph));
	emitIdle(ctx, sink, rows);

	// Order, turns, and the home of every line left.
	const turns = groupTurns(sink.ordered(), ctx.rompUuid);
	const offPath = placeRemainingLines(ctx, table, verdict);
	// D11: the rewound branches, rebuilt from their own lines (additive: accounting is done).
	const branches = ctx.viewer ? rewoundBranches(ctx, table, graph, verdict, transcripts, buildSession) : [];
	keep?.({ env, leaf, verdict, landed: landed.landed, rows, lineAtoms, issueMarks, metaMarks, offPath, branches });
	return {
		session: { rompUuid: ctx.rompUuid, name: opts.name || ctx.rompUuid, dir: opts.dir ?? '', color: '#888888', leafFsid, landedTextUuids: landed.sorted, turns, ...(branches.length ? { branches } : {}) },
		issues: ctx.issues,
		offPath,
		metadata: ctx.metadata,
		accounting: accountingOf(ctx, offPath),
	};
}

function newContext(opts: ParseOptions, files: string[], leafFsid: string): Ctx {
	const compat = opts.compat ?? 'viewer';
	return {
		compat,
		viewer: compat === 'viewer',
		subagent: !!opts.subagent,
		rompUuid: opts.rompUuid || leafFsid,
		opts,
		fsids: files.map(fileStem),
		files,
		issues: [],
		metadata: [],
		acc: { lines: 0, atoms: 0, issues: 0 },
	};
}
