// A Codex rollout's lines as one shape (normalize), and the small readers the adapter shares:
// content text and images, token usage, applied diffs, injected-context labels, and the
// record types that are bookkeeping only.
import type { FileRecords } from '../types.ts';
import { isObj, msOf, num, str, unifiedHunks, type Obj, type PatchFile, type When } from '../harness/kit.ts';

const INJECTED: [RegExp, string][] = [
	[/^<environment_context>/, 'Environment context'],
	[/^<user_instructions>/, 'User instructions'],
	[/^# AGENTS\.md instructions/, 'AGENTS.md instructions'],
	[/^<INSTRUCTIONS>/, 'Instructions'],
	[/^<permissions instructions>/, 'Permissions'],
	[/^<developer_instructions>/, 'Developer instructions'],
	[/^<collaboration_mode>/, 'Collaboration mode'],
	[/^<skills?[\s>_]/, 'Skills'],
	[/^<turn_aborted>/, 'Turn aborted'],
	[/^<user_shell_command>/, 'Shell command'],
	[/^<subagent_notification>/, 'Sub-agent notification']
];

/** The label of injected context, or null for text a person typed. */
export function injectedLabel(text: string): string | null {
	const t = text.trimStart();
	for (const [re, label] of INJECTED) if (re.test(t)) return label;
	return null;
}

/** event_msg types that only restate rows or carry settings: bookkeeping, no card. */
export const QUIET_EVENTS = new Set([
	'task_started', 'task_complete', 'context_compacted', 'thread_name_updated', 'thread_goal_updated', 'item_completed',
	'sub_agent_activity', 'thread_settings_applied', 'token_count', 'exec_command_begin', 'patch_apply_begin',
	'mcp_tool_call_begin', 'web_search_begin', 'web_search_end', 'image_generation_end', 'view_image_tool_call',
	'collab_agent_interaction_end', 'collab_waiting_end', 'collab_close_end', 'guardian_assessment',
	'dynamic_tool_call_request', 'dynamic_tool_call_response', 'undo_completed', 'thread_rolled_back', 'collab_tool_call',
	'collab_agent_spawn_end', 'exec_command_end', 'patch_apply_end', 'mcp_tool_call_end', 'agent_reasoning_section_break'
]);
export const QUIET_TYPES = new Set(['turn_context', 'world_state', 'inter_agent_communication', 'inter_agent_communication_metadata']);
export const QUIET_ITEMS = new Set(['ghost_snapshot', 'compaction', 'compaction_summary', 'context_compaction', 'additional_tools']);

export interface Rec {
	line: number;
	when: When;
	/** 'item' = a ResponseItem; 'event' = event_msg; others are envelope record types. */
	kind: string;
	p: Obj;
}

/** Every generation's lines as one shape (G0's bare header and items, G1 / G2's envelopes). */
export function normalize(fr: FileRecords): { recs: Rec[]; header: Obj | null } {
	const out: Rec[] = [];
	let header: Obj | null = null;
	for (const r of fr.records) {
		const v = r.value;
		if (typeof v.type === 'string' && isObj(v.payload)) {
			const kind = v.type === 'response_item' ? 'item' : v.type === 'event_msg' ? 'event' : v.type;
			out.push({ line: r.line, when: msOf(v.timestamp), kind, p: v.payload });
		} else if (header === null && out.length === 0 && typeof v.id === 'string' && !('type' in v)) {
			header = v;
			out.push({ line: r.line, when: msOf(v.timestamp), kind: 'session_meta', p: v });
		} else if ('record_type' in v) {
			out.push({ line: r.line, when: null, kind: 'state', p: v });
		} else if (typeof v.type === 'string') {
			out.push({ line: r.line, when: msOf(v.timestamp), kind: 'item', p: v });
		} else out.push({ line: r.line, when: msOf(v.timestamp), kind: 'unknown', p: v });
	}
	return { recs: out, header };
}

export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content.filter(isObj).map((c) => (typeof c.text === 'string' ? c.text : '')).filter(Boolean).join('\n');
}

export function contentImages(content: unknown): string[] {
	if (!Array.isArray(content)) return [];
	return content.filter(isObj).map((c) => str(c.image_url)).filter((u): u is string => !!u);
}

export function usageOf(info: unknown): Obj | null {
	if (!isObj(info)) return null;
	const last = isObj(info.last_token_usage) ? info.last_token_usage : null;
	if (!last) return null;
	const input = num(last.input_tokens) ?? 0;
	const cached = num(last.cached_input_tokens) ?? 0;
	// Codex counts cached input inside input_tokens; the model's usage keeps them apart.
	return {
		input_tokens: Math.max(0, input - cached),
		cache_read_input_tokens: cached,
		output_tokens: num(last.output_tokens) ?? 0,
		...(num(last.reasoning_output_tokens) !== null ? { reasoning_output_tokens: last.reasoning_output_tokens } : {}),
		...(num(info.model_context_window) !== null ? { context_window: info.model_context_window } : {})
	};
}

/** patch_apply_end recorded the applied unified diff per path: give each patch file its real hunks. */
export function withAppliedDiffs(files: PatchFile[], changes: Obj): PatchFile[] {
	return files.map((f) => {
		const key = Object.keys(changes).find((k) => k === f.filePath || k.endsWith(`/${f.filePath}`));
		const ch = key ? changes[key] : null;
		const hunks = isObj(ch) && typeof ch.unified_diff === 'string' ? unifiedHunks(ch.unified_diff) : null;
		return hunks ? { ...f, structuredPatch: hunks } : f;
	});
}
