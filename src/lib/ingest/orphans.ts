// Orphaned subagent folders: `<project>/<sid>/subagents/agent-*.jsonl` whose `<project>/<sid>.jsonl`
// is gone (cleaned up, deleted, or a copy that kept only folders). Real histories hold many; each
// is listed as ONE session of its real project, marked "main transcript missing". So that its
// subagents open as they would under their calls (a lane each on the timeline, each transcript
// readable in the chat), the session's main transcript is a synthetic one: one delegation per
// top-level subagent, an Agent tool_use at the subagent's first time and its result at its last,
// carrying the agentId (attach-subagents.ts ties them by it). The synthetic records use model
// `<synthetic>` with no tokens, so they cost $0 and the subagents' own usage is the session's.
// Both the full load (group.ts / load-files.ts) and the big-drop scan (scan.ts) group by this
// folder rule, so both list the same one entry.
import type { FileRecords, LineRecord } from '../model/index.ts';
import { segments } from './paths.ts';

/** The label shown (list, header) and the reason text. */
export const MAIN_MISSING = 'main transcript missing';

/** `<project>/<sid>/subagents/<file>` → its project folder and session id; null for any other path. */
export function orphanFolderOf(path: string): { project: string; sid: string } | null {
	const s = segments(path);
	if (s.length < 3 || s[s.length - 2] !== 'subagents') return null;
	return { project: s.slice(0, -3).join('/'), sid: s[s.length - 3] };
}

/** The path the missing main transcript would have had (names the synthetic records). */
export function missingMainPath(project: string, sid: string): string {
	return project ? `${project}/${sid}.jsonl` : `${sid}.jsonl`;
}

/** What a synthetic delegation needs of one subagent transcript. */
export interface OrphanChild {
	agentId: string | null;
	prompt: string | null;
	description: string | null;
	agentType: string | null;
	firstMs: number | null;
	lastMs: number | null;
	cwd: string | null;
}

const iso = (ms: number | null) => new Date(ms ?? 0).toISOString();

/**
 * The synthetic main transcript of an orphaned folder: for each child (top-level subagents only;
 * nested ones hang off their parent subagent's own call), an assistant line with an Agent
 * tool_use and a user line with its tool_result, in time order, chained by parentUuid.
 */
export function orphanMainRecords(project: string, sid: string, children: readonly OrphanChild[]): FileRecords {
	const file = missingMainPath(project, sid);
	type Ev = { ms: number; order: number; value: Record<string, unknown> };
	const events: Ev[] = [];
	children.forEach((c, i) => {
		const id = c.agentId ?? String(i + 1);
		const toolUseId = `toolu_orphan_${id}`;
		const base = { sessionId: sid, isSidechain: false, userType: 'external', ...(c.cwd ? { cwd: c.cwd } : {}) };
		const input: Record<string, unknown> = { description: c.description ?? `Subagent ${id}`, prompt: c.prompt ?? '' };
		if (c.agentType) input.subagent_type = c.agentType;
		events.push({
			ms: c.firstMs ?? 0,
			order: i * 2,
			value: {
				...base,
				type: 'assistant',
				uuid: `orphan-call-${id}`,
				timestamp: iso(c.firstMs),
				message: {
					id: `msg_orphan_${id}`,
					type: 'message',
					role: 'assistant',
					model: '<synthetic>',
					content: [{ type: 'tool_use', id: toolUseId, name: 'Agent', input }],
					stop_reason: 'tool_use',
					usage: { input_tokens: 0, output_tokens: 0 }
				}
			}
		});
		events.push({
			ms: c.lastMs ?? c.firstMs ?? 0,
			order: i * 2 + 1,
			value: {
				...base,
				type: 'user',
				uuid: `orphan-result-${id}`,
				timestamp: iso(c.lastMs ?? c.firstMs),
				message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: `The ${MAIN_MISSING}: this call is reconstructed from the subagent's own transcript (${sid}/subagents/).` }] },
				toolUseResult: { agentId: c.agentId, ...(c.agentType ? { agentType: c.agentType } : {}) }
			}
		});
	});
	events.sort((a, b) => a.ms - b.ms || a.order - b.order);
	let parent: string | null = null;
	const records: LineRecord[] = events.map((e, i) => {
		const value: Record<string, unknown> = { parentUuid: parent, ...e.value };
		parent = value.uuid as string;
		return { line: i + 1, value, bytes: 0 };
	});
	return { file, bytes: 0, lines: records.length, records, issues: [] };
}
