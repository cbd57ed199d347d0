// Grouping: turn classified files into sessions. Main transcripts that link across files (a
// line whose parentUuid / logicalParentUuid lives in another file, or a resume that replays the
// same uuids) form a lineage; every file that is no other file's ancestor is the leaf of one
// session, whose candidates are its ancestors in dependency order, leaf last (the order the
// model wants). A fork with two branches therefore gives two sessions that share their prefix.
// Subagent transcripts (+ .meta.json) attach to the session they name (folder or sessionId), else
// to the session whose Task / Agent result reports their agentId; a
// state log joins the session it is named after; the postal log applies to every session.
// Nothing is dropped: a file that fits nowhere is returned in `leftover` with a reason, a
// `<sid>/subagents/` folder without `<sid>.jsonl` becomes one session marked `mainMissing`
// (orphans.ts), and any other subagent transcript without its parent a session of its own.
import type { ClassifiedFile, FileSummary, GroupResult, SessionPlan, SubagentPlan } from './types.ts';
import { stemOf } from './paths.ts';
import { orphanFolderOf } from './orphans.ts';

interface Node {
	file: ClassifiedFile;
	sum: FileSummary | undefined;
	index: number;
}

const timeKey = (n: Node) => n.sum?.lastMs ?? n.sum?.firstMs ?? -Infinity;
const startKey = (n: Node) => n.sum?.firstMs ?? n.sum?.lastMs ?? Infinity;

/** Older-first comparison used to direct edges that carry no explicit direction and to order ties. */
function olderFirst(a: Node, b: Node): number {
	return startKey(a) - startKey(b) || timeKey(a) - timeKey(b) || (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0);
}

/** Ancestor edges between main transcripts: edges[i] = set of j such that i is an ancestor of j. */
function lineageEdges(nodes: Node[]): Set<number>[] {
	const edges = nodes.map(() => new Set<number>());
	const owner = new Map<string, number>();
	const shared = new Set<string>(); // "a,b" pairs that share a uuid (resume replay)
	for (const n of nodes) {
		for (const u of n.sum?.uuids ?? []) {
			const o = owner.get(u);
			if (o === undefined) owner.set(u, n.index);
			else if (o !== n.index) shared.add(o < n.index ? `${o},${n.index}` : `${n.index},${o}`);
		}
	}
	const referenced = new Set<string>();
	for (const n of nodes) {
		for (const p of n.sum?.externalParents ?? []) {
			const o = owner.get(p);
			if (o !== undefined && o !== n.index) referenced.add(`${o},${n.index}`);
		}
		// Metadata-only files (old `summary` lines) belong to the session their leafUuid names.
		if (n.sum && n.sum.contentLines === 0) {
			for (const s of n.sum.summaries) {
				const o = s.leafUuid ? owner.get(s.leafUuid) : undefined;
				if (o !== undefined && o !== n.index) referenced.add(`${n.index},${o}`);
			}
		}
	}
	for (const key of referenced) {
		const [a, b] = key.split(',').map(Number);
		if (referenced.has(`${b},${a}`)) continue; // mutual: decided by time below
		edges[a].add(b);
	}
	const undirected = new Set<string>(shared);
	for (const key of referenced) {
		const [a, b] = key.split(',').map(Number);
		if (referenced.has(`${b},${a}`)) undirected.add(a < b ? `${a},${b}` : `${b},${a}`);
	}
	for (const key of undirected) {
		const [a, b] = key.split(',').map(Number);
		if (edges[a].has(b) || edges[b].has(a)) continue;
		if (olderFirst(nodes[a], nodes[b]) <= 0) edges[a].add(b);
		else edges[b].add(a);
	}
	return edges;
}

/** Topological order (Kahn), ties older first; nodes left in a cycle follow, older first. */
function topoOrder(nodes: Node[], edges: Set<number>[]): number[] {
	const indeg = nodes.map(() => 0);
	edges.forEach((out) => out.forEach((j) => indeg[j]++));
	const ready = nodes.filter((n) => indeg[n.index] === 0);
	const order: number[] = [];
	const done = new Set<number>();
	while (ready.length) {
		ready.sort(olderFirst);
		const n = ready.shift() as Node;
		order.push(n.index);
		done.add(n.index);
		for (const j of edges[n.index]) if (--indeg[j] === 0) ready.push(nodes[j]);
	}
	const rest = nodes.filter((n) => !done.has(n.index)).sort(olderFirst);
	return [...order, ...rest.map((n) => n.index)];
}

function ancestorsOf(leaf: number, edges: Set<number>[]): Set<number> {
	const parents = edges.map(() => [] as number[]);
	edges.forEach((out, i) => out.forEach((j) => parents[j].push(i)));
	const seen = new Set<number>([leaf]);
	const stack = [leaf];
	while (stack.length) {
		const i = stack.pop() as number;
		for (const p of parents[i]) if (!seen.has(p)) (seen.add(p), stack.push(p));
	}
	return seen;
}

/** Every uuid of `n` (it has some) also appears in one of `later`. */
function isReplayed(n: Node, later: Node[]): boolean {
	const own = n.sum?.uuids;
	if (!own || own.size === 0) return false;
	for (const u of own) if (!later.some((m) => m.sum?.uuids.has(u))) return false;
	return true;
}

/** The ids a main file answers to: its stem, its classified session id, the sessionIds on its lines. */
function idsOf(file: ClassifiedFile, sum: FileSummary | undefined): Set<string> {
	const ids = new Set<string>([stemOf(file.path)]);
	if (file.sessionId) ids.add(file.sessionId);
	for (const s of sum?.sessionIds ?? []) ids.add(s);
	return ids;
}

export function groupSessions(files: ClassifiedFile[], summaries: Map<string, FileSummary>): GroupResult {
	const leftover: ClassifiedFile[] = [];
	const nodes: Node[] = files
		.filter((f) => f.kind === 'transcript')
		.map((file, index) => ({ file, sum: summaries.get(file.path), index }));
	const edges = lineageEdges(nodes);
	const order = topoOrder(nodes, edges);
	const rank = new Map(order.map((i, r) => [i, r]));
	const plans: SessionPlan[] = [];
	const planIds: Set<string>[] = [];
	const leafIds: Set<string>[] = [];
	for (const n of nodes) {
		if (edges[n.index].size > 0) continue; // an ancestor of another file: not a leaf
		// A leaf with no conversation line, on its own (an old summary-only file whose session is
		// not in the drop, or only metadata records): nothing to show, so not a session.
		if (n.sum && n.sum.contentLines === 0 && ancestorsOf(n.index, edges).size === 1) {
			leftover.push({ ...n.file, reason: metadataOnlyReason(n.sum) });
			continue;
		}
		const anc = [...ancestorsOf(n.index, edges)].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
		// The leaf goes last even if a cycle put it elsewhere.
		const chainIdx = [...anc.filter((i) => i !== n.index), n.index];
		// An ancestor whose every line a later file replays (same uuids) adds nothing but
		// duplicate-uuid noise: it is kept out of the model's input and listed as replayed.
		const replayed = new Set(chainIdx.filter((i, at) => i !== n.index && isReplayed(nodes[i], chainIdx.slice(at + 1).map((j) => nodes[j]))));
		const mainIdx = chainIdx.filter((i) => !replayed.has(i));
		plans.push({
			key: stemOf(n.file.path),
			mainFiles: mainIdx.map((i) => nodes[i].file),
			replayed: chainIdx.filter((i) => replayed.has(i)).map((i) => nodes[i].file),
			states: null,
			postal: null,
			subagents: []
		});
		const ids = new Set<string>();
		for (const i of chainIdx) idsOf(nodes[i].file, nodes[i].sum).forEach((x) => ids.add(x));
		planIds.push(ids);
		leafIds.push(idsOf(n.file, n.sum));
	}

	/** Plans a session id belongs to: the plan whose leaf has it, else every plan that contains it. */
	const plansFor = (sid: string | null): number[] => {
		if (!sid) return [];
		const byLeaf = leafIds.flatMap((ids, i) => (ids.has(sid) ? [i] : []));
		return byLeaf.length ? byLeaf : planIds.flatMap((ids, i) => (ids.has(sid) ? [i] : []));
	};

	// Subagents and their meta sidecars.
	const metas = files.filter((f) => f.kind === 'subagent-meta');
	const usedMeta = new Set<ClassifiedFile>();
	const metaFor = (sub: ClassifiedFile): ClassifiedFile | null => {
		if (!sub.agentId) return null;
		const dir = sub.path.slice(0, sub.path.length - sub.name.length);
		const m =
			metas.find((x) => x.agentId === sub.agentId && x.path.startsWith(dir) && !x.path.slice(dir.length).includes('/')) ??
			metas.find((x) => x.agentId === sub.agentId && (x.sessionId === sub.sessionId || x.sessionId === null));
		if (m) usedMeta.add(m);
		return m ?? null;
	};
	// Plans whose main files report spawning an agent (toolUseResult.agentId).
	const spawnedBy = (agentId: string | undefined): number[] =>
		agentId ? plans.flatMap((p, i) => (p.mainFiles.some((f) => summaries.get(f.path)?.spawnedAgentIds.includes(agentId)) ? [i] : [])) : [];
	const orphanPlans = new Map<string, SessionPlan>(); // `${project}\n${sid}` → its one plan
	for (const sub of files.filter((f) => f.kind === 'subagent')) {
		const entry: SubagentPlan = { file: sub, meta: metaFor(sub) };
		let targets = plansFor(sub.sessionId);
		if (targets.length === 0) targets = spawnedBy(sub.agentId);
		const folder = targets.length === 0 ? orphanFolderOf(sub.path) : null;
		if (folder) {
			// `<project>/<sid>/subagents/` without `<sid>.jsonl`: one session for the folder (orphans.ts).
			const k = `${folder.project}\n${folder.sid}`;
			let plan = orphanPlans.get(k);
			if (!plan) {
				plan = { key: folder.sid, mainFiles: [], replayed: [], states: null, postal: null, subagents: [], mainMissing: folder };
				orphanPlans.set(k, plan);
			}
			plan.subagents.push(entry);
			continue;
		}
		if (targets.length === 0) {
			// No parent in the drop: the subagent is shown as a session of its own.
			plans.push({ key: stemOf(sub.path), mainFiles: [sub], replayed: [], states: null, postal: null, subagents: [], standalone: 'subagent' });
			planIds.push(new Set([stemOf(sub.path)]));
			leafIds.push(new Set([stemOf(sub.path)]));
			if (entry.meta) plans[plans.length - 1].subagentMeta = entry.meta;
			continue;
		}
		for (const t of targets) plans[t].subagents.push(entry);
	}
	// Listed once every subagent is placed: the same sid in another project's folder is its own orphan.
	for (const plan of orphanPlans.values()) {
		plans.push(plan);
		planIds.push(new Set([plan.key]));
		leafIds.push(new Set([plan.key]));
	}
	for (const m of metas) {
		if (!usedMeta.has(m)) leftover.push({ ...m, reason: 'subagent .meta.json without its agent transcript' });
	}

	// State logs.
	for (const st of files.filter((f) => f.kind === 'state-log')) {
		const targets = plansFor(st.sessionId).filter((i) => plans[i].states === null);
		if (targets.length === 0) {
			const why = plansFor(st.sessionId).length ? 'a second state log for the same session' : `state log for session ${st.sessionId ?? '?'}, which is not among the dropped transcripts`;
			leftover.push({ ...st, reason: why });
			continue;
		}
		for (const t of targets) plans[t].states = st;
	}

	// Postal log: the first applies to every session.
	const postals = files.filter((f) => f.kind === 'postal-log');
	postals.forEach((p, i) => {
		if (i > 0) leftover.push({ ...p, reason: 'a second postal log (only the first is used)' });
		else if (plans.length === 0) leftover.push({ ...p, reason: 'postal log without any session' });
	});
	if (postals.length) for (const plan of plans) plan.postal = postals[0];

	for (const f of files) if (f.kind === 'unknown') leftover.push(f);
	return { plans, leftover };
}

/** Why a transcript file without conversation lines is not a session (shared with the scan). */
export function metadataOnlyReason(sum: Pick<FileSummary, 'summaries'>): string {
	return sum.summaries.length
		? 'only `summary` records, for a session that is not among the dropped files: no conversation to show'
		: 'no conversation lines (only metadata records): no conversation to show';
}

/** Every file of a session plan, in the order a loaded session lists them. */
export function planFiles(plan: SessionPlan): ClassifiedFile[] {
	return [
		...plan.replayed,
		...plan.mainFiles,
		...plan.subagents.flatMap((s) => (s.meta ? [s.file, s.meta] : [s.file])),
		...(plan.subagentMeta ? [plan.subagentMeta] : []),
		...(plan.states ? [plan.states] : []),
		...(plan.postal ? [plan.postal] : [])
	];
}
