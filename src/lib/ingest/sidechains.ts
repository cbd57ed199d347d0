// Inline sidechains (Claude Code 1.0.x): subagent conversations written into the main file as
// lines with isSidechain: true, each chain rooted at a user line that carries the Task prompt.
// This splits them into one pseudo-file per chain (same line numbers, file
// `<main without .jsonl>#sidechain-<n>.jsonl`, so its stem stays distinct),
// so each can be parsed like a subagent transcript and attached to its Task call by prompt.
import type { FileRecords, LineRecord } from '../model/index.ts';

export interface InlineSidechain {
	records: FileRecords;
	/** agentId on the chain's lines, if any (newer inline lines carry one). */
	agentId: string | null;
}

export function splitInlineSidechains(fr: FileRecords, skipAgentIds: ReadonlySet<string> = new Set()): InlineSidechain[] {
	const side = fr.records.filter((r) => r.value.isSidechain === true && typeof r.value.uuid === 'string');
	if (side.length === 0) return [];
	const byUuid = new Map<string, LineRecord>();
	for (const r of side) byUuid.set(r.value.uuid as string, r);
	const rootOf = new Map<string, string>();
	const findRoot = (r: LineRecord): string => {
		const path: string[] = [];
		let cur: LineRecord = r;
		for (;;) {
			const u = cur.value.uuid as string;
			const known = rootOf.get(u);
			if (known !== undefined) return finish(path, known);
			path.push(u);
			const p = cur.value.parentUuid;
			const parent = typeof p === 'string' ? byUuid.get(p) : undefined;
			// Stop at the chain's root, or at a cycle (a uuid seen on this walk).
			if (!parent || path.includes(parent.value.uuid as string)) return finish(path, u);
			cur = parent;
		}
	};
	const finish = (path: string[], root: string) => {
		for (const u of path) rootOf.set(u, root);
		return root;
	};
	const chains = new Map<string, LineRecord[]>();
	for (const r of side) {
		const root = findRoot(r);
		let list = chains.get(root);
		if (!list) chains.set(root, (list = []));
		list.push(r);
	}
	const out: InlineSidechain[] = [];
	let n = 0;
	for (const records of chains.values()) {
		const agentId = records.map((r) => r.value.agentId).find((a): a is string => typeof a === 'string') ?? null;
		if (agentId && skipAgentIds.has(agentId)) continue; // the agent's own file is loaded instead
		n++;
		out.push({
			agentId,
			records: {
				file: `${fr.file.replace(/\.jsonl$/, '')}#sidechain-${n}.jsonl`,
				bytes: records.reduce((s, r) => s + r.bytes, 0),
				lines: records.length,
				records,
				issues: []
			}
		});
	}
	return out;
}
