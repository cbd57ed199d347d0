// Attach parsed subagent transcripts to the Task / Agent tool_use that spawned them (the Strap
// fork shape: the child is the call's hidden messages). Evidence, strongest first:
//   1. agentId: the call's tool_result line has toolUseResult.agentId (or "agentId: <id>" in its
//      text), equal to the child's agentId (file name / lines);
//   2. the .meta.json: its toolUseId names the call, else its description (+ agentType) names
//      exactly one unclaimed call;
//   3. the prompt: the child's first prompt equals the call's input.prompt (inline sidechains).
// Calls are looked up in the parent AND in every child, so nested agents attach too (tool ids are
// unique, so one flat map keyed by tool_use id holds every level). A child that matches nothing
// is returned in `unattached` with the reason, never dropped.
import type { Atom, FileRecords, ParseResult } from '../model/index.ts';
import type { ChildTranscript, UnattachedChild } from './types.ts';
import { contentText, normForMatch } from './prompt-text.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

export const AGENT_TOOLS = new Set(['Task', 'Agent']);

export interface ChildInput {
	file: string;
	agentId: string | null;
	/** Parsed .meta.json, if any. */
	meta: Obj | null;
	/** Raw text of the child's first user line (for prompt matching). */
	firstPrompt: string | null;
	result: ParseResult;
	/** The child's raw records (calls it made that its parse put off-path still count). */
	records?: FileRecords | null;
}

export interface AgentCall {
	toolUseId: string;
	name: string;
	prompt: string | null;
	description: string | null;
	subagentType: string | null;
	/** agentId reported by the call's result, if any. */
	agentId: string | null;
	/** agentType reported by the call's result, if any. */
	resultAgentType: string | null;
}

export interface AttachResult {
	children: Record<string, ChildTranscript>;
	unattached: UnattachedChild[];
}

/** Something that may carry tool_use / tool_result blocks: an atom, or a raw line record. */
interface Carrier {
	message?: unknown;
	toolUseResult?: unknown;
}

/** The atoms of a parse. */
export function atomsOf(result: ParseResult): Atom[] {
	return result.session.turns.flatMap((t) => t.atoms);
}

/** Raw line values of read files (covers calls the parse put off the active path). */
export function valuesOf(files: FileRecords[]): Obj[] {
	return files.flatMap((f) => f.records.map((r) => r.value));
}

/** Every Task / Agent call among the carriers, with the agentId its result reported. */
export function agentCallsOf(carriers: Iterable<Carrier>): AgentCall[] {
	const calls = new Map<string, AgentCall>();
	// Every result's blocks are kept and read only for agent calls: the "agentId:" text search
	// would otherwise run over every tool output of the session.
	const results = new Map<string, { content: unknown; tur: Obj | null }[]>();
	for (const a of carriers) {
		const msg = isObj(a.message) ? a.message : null;
		const blocks: unknown[] = Array.isArray(msg?.content) ? (msg.content as unknown[]) : [];
		for (const b of blocks) {
			if (!isObj(b)) continue;
			if (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string' && AGENT_TOOLS.has(b.name)) {
				if (calls.has(b.id)) continue;
				const input = isObj(b.input) ? b.input : {};
				calls.set(b.id, {
					toolUseId: b.id,
					name: b.name,
					prompt: str(input.prompt),
					description: str(input.description),
					subagentType: str(input.subagent_type),
					agentId: null,
					resultAgentType: null
				});
			}
			if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
				const seen = results.get(b.tool_use_id);
				const r = { content: b.content, tur: isObj(a.toolUseResult) ? a.toolUseResult : null };
				if (seen) seen.push(r);
				else results.set(b.tool_use_id, [r]);
			}
		}
	}
	for (const [id, c] of calls) {
		// The first result that names the agent wins, else the first result.
		let info: { agentId: string | null; agentType: string | null } | null = null;
		for (const { content, tur } of results.get(id) ?? []) {
			const agentId = str(tur?.agentId) ?? /agentId:\s*([A-Za-z0-9_-]+)/.exec(textOf(content) ?? '')?.[1] ?? null;
			if (!info || (!info.agentId && agentId)) info = { agentId, agentType: str(tur?.agentType) };
			if (agentId) break;
		}
		if (info) {
			c.agentId = info.agentId;
			c.resultAgentType = info.agentType;
		}
	}
	return [...calls.values()];
}

function textOf(content: unknown): string | null {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return null;
	return content.map((b) => (isObj(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

const carriersOf = (result: ParseResult, records: FileRecords[]): Carrier[] => [...atomsOf(result), ...valuesOf(records)];

/** Attach children to calls of the parent (and of the children themselves). `parentRecords`: the
 *  raw records of the parent's files, so calls the parse left off the active path still match. */
export function attachSubagents(parent: ParseResult, children: ChildInput[], parentRecords: FileRecords[] = []): AttachResult {
	const childCalls = new Map(children.map((c) => [c, agentCallsOf(carriersOf(c.result, c.records ? [c.records] : []))]));
	const own = new Map(children.map((c) => [c, new Set((childCalls.get(c) ?? []).map((x) => x.toolUseId))]));
	const seen = new Set<string>();
	const calls = [agentCallsOf(carriersOf(parent, parentRecords)), ...childCalls.values()].flat().filter((c) => !seen.has(c.toolUseId) && (seen.add(c.toolUseId), true));
	const byId = new Map(calls.map((c) => [c.toolUseId, c]));
	const claimed = new Map<string, ChildInput>(); // toolUseId → child
	const placed = new Set<ChildInput>();
	const how = new Map<ChildInput, AgentCall>();
	const claim = (child: ChildInput, call: AgentCall) => {
		claimed.set(call.toolUseId, child);
		placed.add(child);
		how.set(child, call);
	};
	const free = (c: AgentCall, child: ChildInput) => !claimed.has(c.toolUseId) && !ownCall(child, c);
	// A child never attaches to a call in its own transcript.
	const ownCall = (child: ChildInput, c: AgentCall) => own.get(child)?.has(c.toolUseId) ?? false;

	// 1. agentId reported by the call's result.
	for (const child of children) {
		if (!child.agentId) continue;
		const call = calls.find((c) => c.agentId === child.agentId && free(c, child));
		if (call) claim(child, call);
	}
	// 2. the meta sidecar.
	for (const child of children) {
		if (placed.has(child) || !child.meta) continue;
		const tid = str(child.meta.toolUseId);
		const direct = tid ? byId.get(tid) : undefined;
		if (direct && free(direct, child)) {
			claim(child, direct);
			continue;
		}
		const desc = str(child.meta.description);
		const type = str(child.meta.agentType);
		if (!desc) continue;
		const cands = calls.filter((c) => free(c, child) && !c.agentId && c.description === desc && (!type || !c.subagentType || c.subagentType === type));
		if (cands.length === 1) claim(child, cands[0]);
	}
	// 3. the prompt text (inline sidechains, or files whose call result lost its agentId).
	for (const child of children) {
		if (placed.has(child) || !child.firstPrompt) continue;
		const want = normForMatch(child.firstPrompt);
		const open = calls.filter((c) => free(c, child) && c.prompt !== null);
		let cands = open.filter((c) => normForMatch(c.prompt as string) === want);
		if (cands.length === 0 && want.length >= 40) {
			cands = open.filter((c) => {
				const p = normForMatch(c.prompt as string);
				return p.length >= 40 && (p.startsWith(want) || want.startsWith(p));
			});
		}
		if (cands.length >= 1) claim(child, cands[0]); // several identical prompts: first call first
	}

	const out: Record<string, ChildTranscript> = {};
	const unattached: UnattachedChild[] = [];
	for (const child of children) {
		const call = how.get(child);
		if (!call) {
			unattached.push({ file: child.file, agentId: child.agentId, reason: unattachedReason(child, calls), result: child.result });
			continue;
		}
		out[call.toolUseId] = {
			toolUseId: call.toolUseId,
			agentId: child.agentId ?? call.agentId,
			agentType: str(child.meta?.agentType) ?? call.resultAgentType ?? call.subagentType,
			description: str(child.meta?.description) ?? call.description,
			file: child.file,
			result: child.result
		};
	}
	return { children: out, unattached };
}

function unattachedReason(child: ChildInput, calls: AgentCall[]): string {
	if (calls.length === 0) return 'no Task / Agent call in the loaded transcripts';
	if (child.agentId && !calls.some((c) => c.agentId === child.agentId)) {
		return `no Task / Agent call reports agentId ${child.agentId}, and neither its meta nor its prompt matches a call`;
	}
	return 'no Task / Agent call matches its agentId, meta or prompt';
}

/** Raw text of the first user line of a child's records (its prompt), for prompt matching. */
export function firstPromptOf(records: { value: Obj }[]): string | null {
	for (const { value } of records) {
		if (value.type !== 'user' || !isObj(value.message)) continue;
		const t = contentText(value.message.content);
		if (t) return t;
	}
	return null;
}
