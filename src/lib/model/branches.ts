// Rewound branches (viewer mode, D11 in docs/divergences.md): what a person tried and threw away.
// The active path (active-path.ts) drops every genuine rewind — the lines that hang off the path
// but are not on it once rewind-rescue.ts has taken back parallel calls and side notes. This
// module groups those lines into branches, one per line that left the path (its parent is kept,
// its verdict is rewind), and builds each branch's atoms by running the whole model again over
// the branch's own records with its latest line as the leaf: the same emission rules as the main
// path, and a rewind inside the branch comes back from that build as a nested branch. The
// branches are additive: accounting still lists every rewound line in offPath (reason 'rewind').
import { PLACE_ATOM, V_REWIND, type Ctx, type LineTable } from './build-context.ts';
import type { Graph } from './graph.ts';
import type { Branch, FileRecords, ParseInput, ParseOptions, ParseResult } from './types.ts';

/** The build a branch runs its records through (build.ts's buildSession, passed in to keep imports one-way). */
export type BranchBuild = (input: ParseInput, opts: ParseOptions) => ParseResult;

/**
 * The rewound branches of one build, in file order of the line that left the path. `transcripts`
 * are the build's input files (a branch keeps its records' files and line numbers).
 */
export function rewoundBranches(ctx: Ctx, table: LineTable, g: Graph, verdict: Uint8Array, transcripts: FileRecords[], build: BranchBuild): Branch[] {
	const { lines } = table;
	let any = false;
	for (let i = 0; i < lines.length && !any; i++) any = verdict[i] === V_REWIND;
	if (!any) return [];
	// root of each rewound node line: its own seq when its parent is not rewound
	const rootOf = new Int32Array(lines.length).fill(-1);
	const rootOfLine = (s: number): number => {
		const chain: number[] = [];
		let cur = s;
		while (rootOf[cur] < 0) {
			chain.push(cur);
			const p = g.parentIdx[cur];
			if (p < 0 || verdict[p] !== V_REWIND || chain.length > lines.length) break;
			cur = p;
		}
		const root = rootOf[cur] >= 0 ? rootOf[cur] : cur;
		for (const q of chain) rootOf[q] = root;
		return root;
	};
	const members = new Map<number, number[]>(); // root seq → member seqs in read order
	for (const L of lines) {
		if (L.uuid === null || verdict[L.seq] !== V_REWIND) continue;
		const root = rootOfLine(L.seq);
		let m = members.get(root);
		if (!m) members.set(root, (m = []));
		m.push(L.seq);
	}
	const out: Branch[] = [];
	for (const [root, seqs] of [...members].sort((a, b) => a[0] - b[0])) {
		const fork = g.parentIdx[root];
		out.push(branchOf(ctx, table, g, transcripts, build, root, fork >= 0 ? fork : -1, seqs));
	}
	return out;
}

/** One branch: its records rebuilt with the branch's latest line as the leaf. */
function branchOf(ctx: Ctx, table: LineTable, g: Graph, transcripts: FileRecords[], build: BranchBuild, root: number, fork: number, seqs: number[]): Branch {
	const { lines } = table;
	const perFile = transcripts.map((f) => ({ file: f.file, bytes: 0, lines: 0, records: [] as FileRecords['records'], issues: [] }));
	for (const s of seqs) {
		const L = lines[s];
		const f = perFile[L.fi];
		f.records.push(L.rec);
		f.lines++;
		f.bytes += L.rec.bytes;
	}
	let leaf: string | null = null;
	for (let i = seqs.length - 1; i >= 0 && leaf === null; i--) {
		const L = lines[seqs[i]];
		if (L.v.isSidechain !== true || ctx.subagent) leaf = L.uuid;
	}
	const sub = build({ transcripts: perFile }, { ...ctx.opts, compat: 'viewer', rompUuid: ctx.rompUuid, leafOverride: leaf });
	const turns = sub.session.turns;
	const atoms = turns.flatMap((t) => t.atoms);
	return {
		forkUuid: fork >= 0 ? lines[fork].uuid : null,
		afterUuid: fork >= 0 ? atomAncestor(table, g, fork) : null,
		rootUuid: lines[root].uuid!,
		t: atoms.length ? atoms[0].t : lines[root].t,
		end: turns.reduce((e, t) => Math.max(e, t.end), lines[root].t),
		lines: seqs.length,
		turns,
		children: sub.session.branches ?? [],
	};
}

/** The uuid of the nearest line at or above `seq` on its path that became an atom (null: none). */
function atomAncestor(table: LineTable, g: Graph, seq: number): string | null {
	let cur = seq;
	for (let steps = 0; cur >= 0 && steps <= table.lines.length; steps++) {
		if (table.place[cur] === PLACE_ATOM) return table.lines[cur].uuid;
		cur = g.parentIdx[cur];
	}
	return null;
}
