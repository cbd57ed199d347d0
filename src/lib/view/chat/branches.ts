// Rewound branches in the chat (model D11): each branch the active path left becomes one fold row
// (kind 'branch') right after the row holding the atom it left from, carrying the abandoned rows
// (built by the same rules, by the caller) and its label "Rewound here — N messages, M tool
// calls, $X". A branch inside a branch is a branch row among the fold's rows, so folds nest.
import type { Branch, Session } from '../../model/types';
import { addBranchCost, branchCost, branchCostLabel, type BranchCost } from '../usage/branch';
import { countToolCalls } from './items';
import type { BranchRow, ChatRow } from './types';

/** Builds a branch's own rows: the branch as a session (its turns, its nested branches), under `keyPrefix`. */
export type BranchRowsBuilder = (branchSession: Session, keyPrefix: string) => ChatRow[];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Rewound here — 3 messages, 2 tool calls, $0.41" (the cost part only when the branch made calls). */
export function branchLabel(messages: number, toolCalls: number, cost: string | null): string {
	const parts = [plural(messages, 'message', 'messages'), plural(toolCalls, 'tool call', 'tool calls')];
	if (cost) parts.push(cost);
	return `Rewound here — ${parts.join(', ')}`;
}

/** What a fold says of a branch (nested branches included): prompts and replies, tool calls, cost. */
export interface BranchTally {
	messages: number;
	toolCalls: number;
	cost: BranchCost;
}

function hasText(content: unknown): boolean {
	if (typeof content === 'string') return content.trim() !== '';
	return Array.isArray(content) && content.some((b) => b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string' && (b as { text: string }).text.trim() !== '');
}

/** Prompts (user atoms with text) and replies (API messages with text) of a branch and its nested branches. */
export function branchTally(b: Branch): BranchTally {
	const atoms = b.turns.flatMap((t) => t.atoms);
	const replies = new Set<string>();
	let prompts = 0;
	for (const a of atoms) {
		if (a.type === 'user' && !a.isMeta && hasText(a.message?.content)) prompts++;
		else if (a.type === 'assistant' && hasText(a.message?.content)) replies.add(a.messageId ?? a.uuid ?? '');
	}
	const out: BranchTally = { messages: prompts + replies.size, toolCalls: countToolCalls({ turns: b.turns } as Session), cost: branchCost(atoms) };
	for (const ch of b.children) {
		const t = branchTally(ch);
		out.messages += t.messages;
		out.toolCalls += t.toolCalls;
		out.cost = addBranchCost(out.cost, t.cost);
	}
	return out;
}

/** The fold's words for a branch: "Rewound here — 3 messages, 2 tool calls, $0.41". */
export function branchLabelOf(b: Branch): string {
	const t = branchTally(b);
	return branchLabel(t.messages, t.toolCalls, branchCostLabel(t.cost));
}

/** The fold row of one branch (its rows built by `build`). */
export function branchRow(session: Session, b: Branch, keyPrefix: string, turnIndex: number, build: BranchRowsBuilder): BranchRow {
	const own: Session = { ...session, turns: b.turns, branches: b.children };
	const branchRows = build(own, `${keyPrefix}b:${b.rootUuid}/`);
	const t = branchTally(b);
	const cost = branchCostLabel(t.cost);
	return {
		key: `${keyPrefix}branch:${b.rootUuid}`,
		kind: 'branch',
		atomUuid: b.rootUuid,
		// a landing on any abandoned atom (search, a link) finds the fold that holds it
		atomUuids: branchRows.flatMap((r) => r.atomUuids),
		turnIndex,
		ms: b.t * 1000,
		defaultOpen: false,
		forkUuid: b.forkUuid,
		rootUuid: b.rootUuid,
		label: branchLabel(t.messages, t.toolCalls, cost),
		messages: t.messages,
		toolCalls: t.toolCalls,
		cost,
		branchRows
	};
}

/**
 * `rows` with each of the session's branches as a fold right after the row holding its afterUuid
 * (several at one point: in file order); a branch whose afterUuid no row holds goes first when the
 * rows start at the session's start (`fromStart`), else it belongs to rows built before.
 */
export function withBranchRows(rows: ChatRow[], session: Session, keyPrefix: string, fromStart: boolean, build: BranchRowsBuilder): ChatRow[] {
	const branches = session.branches;
	if (!branches?.length) return rows;
	const rowOf = new Map<string, number>();
	rows.forEach((r, i) => {
		for (const u of r.atomUuids) if (!rowOf.has(u)) rowOf.set(u, i);
	});
	const after = new Map<number, Branch[]>(); // row index (-1: before the first) → branches
	for (const b of branches) {
		const i = b.afterUuid !== null ? rowOf.get(b.afterUuid) : undefined;
		const at = i ?? (fromStart ? -1 : null);
		if (at === null) continue;
		const list = after.get(at);
		if (list) list.push(b);
		else after.set(at, [b]);
	}
	if (!after.size) return rows;
	const out: ChatRow[] = [];
	const fold = (at: number, turnIndex: number) => {
		for (const b of after.get(at) ?? []) out.push(branchRow(session, b, keyPrefix, turnIndex, build));
	};
	fold(-1, rows.length ? rows[0].turnIndex : 0);
	rows.forEach((r, i) => {
		out.push(r);
		fold(i, r.turnIndex);
	});
	return out;
}
