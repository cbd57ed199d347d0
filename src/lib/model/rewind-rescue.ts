// Viewer divergence D4 (docs/divergences.md): parallel tool calls, side notes and unanswered side
// prompts are not rewinds. The reference drops every side branch that rejoins the active path as
// a rewind; these passes, run by active-path.ts on the per-line verdicts, turn the side branches
// that are not genuine rewinds back into kept lines. Genuine rewinds (an old prompt and its
// replies, with their own message ids) stay dropped.
import { blocksText, isObj } from './text.ts';
import { str, V_ACTIVE, V_KEPT, V_REWIND, type Line } from './build-context.ts';

/** What the kept lines already hold: message ids, tool_use ids, and tool_use ids with a result. */
interface KeptIds {
	msgIds: Set<string>;
	toolIds: Set<string>;
	answered: Set<string>;
}

function isLocalCommandText(text: string): boolean {
	return text.startsWith('<command-name>') || text.startsWith('<local-command-stdout>') || text.startsWith('<local-command-caveat>') || text.startsWith('<command-message>');
}

function noteKeptLine(ids: KeptIds, L: Line): void {
	const m = L.v.message;
	if (!isObj(m) || !Array.isArray(m.content)) return;
	if (L.type === 'assistant') {
		if (typeof m.id === 'string') ids.msgIds.add(m.id);
		for (const b of m.content) if (isObj(b) && b.type === 'tool_use' && typeof b.id === 'string') ids.toolIds.add(b.id);
	} else if (L.type === 'user') {
		for (const b of m.content) if (isObj(b) && b.type === 'tool_result' && typeof b.tool_use_id === 'string') ids.answered.add(b.tool_use_id);
	}
}

/**
 * viewer divergence: parallel tool calls are not rewinds. Claude Code writes one line per
 * content block, and the tool_result of each parallel tool_use hangs off ITS tool_use line, so
 * every call but the last forms a side branch that rejoins the active path — the reference
 * drops those as rewinds. A "rewound" line is rescued when it is an assistant line of a message
 * (message.id) that is kept, a tool_result line answering only kept tool_use ids that have no
 * kept result yet, or a non-content
 * line (attachment, progress, system) hanging off a rescued line. Local slash-command lines
 * (/doctor, /status and their stdout) hanging off a kept line are side branches too. Lines in file order, so a
 * rescued tool_use line makes its later results rescuable.
 */
export function rescueRewoundSideBranches(lines: Line[], verdict: Uint8Array, keptUuid: (u: string) => boolean): void {
	// Most sessions have no rewound line at all: check that before collecting the kept ids.
	let any = false;
	for (let i = 0; i < lines.length && !any; i++) any = verdict[i] === V_REWIND;
	if (!any) return;
	const ids: KeptIds = { msgIds: new Set(), toolIds: new Set(), answered: new Set() };
	for (const L of lines) {
		const vd = verdict[L.seq];
		if (vd === V_ACTIVE || vd === V_KEPT) noteKeptLine(ids, L);
	}
	const rescued = new Set<string>();
	for (const L of lines) {
		if (verdict[L.seq] !== V_REWIND || L.uuid === null) continue;
		if (rescuable(L, ids, rescued, keptUuid)) {
			verdict[L.seq] = V_KEPT;
			rescued.add(L.uuid);
			noteKeptLine(ids, L);
		}
	}
	rescueUnansweredBranches(lines, verdict);
}

/** The per-line test of rescueRewoundSideBranches. */
function rescuable(L: Line, ids: KeptIds, rescued: Set<string>, keptUuid: (u: string) => boolean): boolean {
	const m = L.v.message;
	if (L.type === 'assistant') return isObj(m) && typeof m.id === 'string' && ids.msgIds.has(m.id);
	if (L.type === 'user') {
		const c = isObj(m) ? m.content : null;
		const p = str(L.v.parentUuid);
		if (p !== null && (rescued.has(p) || keptUuid(p)) && isLocalCommandText(blocksText(c))) return true;
		if (!Array.isArray(c) || c.length === 0) return false;
		for (const b of c) {
			// A result for a call that already has a kept result is a genuine rewind.
			if (!isObj(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string' || !ids.toolIds.has(b.tool_use_id) || ids.answered.has(b.tool_use_id)) {
				return false;
			}
		}
		return true;
	}
	// Progress / hook attachments / system notes hanging off a kept or rescued line are
	// side notes, not branches (a queued_command only via a rescued parent).
	const p = str(L.v.parentUuid);
	const att = L.v.attachment;
	const queued = isObj(att) && att.type === 'queued_command';
	return p !== null && (rescued.has(p) || (!queued && keptUuid(p)));
}

/**
 * viewer divergence (D4): a side branch that holds a prompt but no assistant line was never answered — e.g.
 * a prompt sent while Claude worked and interrupted at once. Nothing the model said is hidden
 * there, so dropping it would only lose a real ask; it is kept. Branches with any assistant line
 * (a genuine rewind: the old prompt and its replies) stay dropped.
 */
function rescueUnansweredBranches(lines: Line[], verdict: Uint8Array): void {
	const rootOf = new Map<string, number>(); // rewound uuid → seq of its branch root
	const answeredRoot = new Set<number>();
	const promptRoot = new Set<number>();
	const members: Line[] = [];
	for (const L of lines) {
		if (verdict[L.seq] !== V_REWIND || L.uuid === null) continue;
		const p = str(L.v.parentUuid) ?? str(L.v.logicalParentUuid);
		const root = (p !== null ? rootOf.get(p) : undefined) ?? L.seq;
		rootOf.set(L.uuid, root);
		members.push(L);
		if (L.type === 'assistant') answeredRoot.add(root);
		else if (L.type === 'user' && L.v.isMeta !== true && isObj(L.v.message) && blocksText(L.v.message.content)) promptRoot.add(root);
	}
	for (const L of members) {
		const root = rootOf.get(L.uuid!)!;
		if (promptRoot.has(root) && !answeredRoot.has(root)) verdict[L.seq] = V_KEPT;
	}
}
