// The state of one Codex thread while its records are read: the draft, the spawn links, the
// current model and request, the calls waiting for their output, and which stream carries each
// kind of row. parse.ts runs the records; events.ts and items.ts write through this.
import type { Atom } from '../types.ts';
import { imageBlock, isObj, num, str, type Obj, type PatchFile, type SessionDraft } from '../harness/kit.ts';
import { withAppliedDiffs, type Rec } from './records.ts';
import { readOutput, shellBody, type CanonicalCall } from './tools.ts';

/** The spawn links of a thread: how ingest ties child rollouts to their spawning calls. */
export interface CodexLinks {
	parentThreadId: string | null;
	/** The parent's call that spawned this thread, when the child records it. */
	spawnCallId: string | null;
	/** This thread's spawn_agent calls, with the thread each started when an event says so. */
	spawns: { callId: string; threadId: string | null; nickname: string | null }[];
	nickname: string | null;
	role: string | null;
}

export class CodexThread {
	model: string | null = null;
	firstModel: string | null = null;
	lastAssistant: Atom | null = null;
	/** The model request the next assistant rows belong to (a prompt or a token count closes one). */
	request = 0;
	ended = false;
	readonly calls = new Map<string, { call: CanonicalCall; line: number; answered: boolean }>();
	/** Which stream carries each kind (see parse.ts's header). */
	readonly hasUserEvents: boolean;
	readonly hasAssistantItems: boolean;
	readonly hasReasoningItems: boolean;
	/** The end event of each call id (exit codes, stdout, a spawned thread), and its record. */
	readonly ends = new Map<string, Obj>();
	readonly endRecs = new Map<Obj, Rec>();

	constructor(
		readonly d: SessionDraft,
		readonly id: string,
		readonly links: CodexLinks,
		recs: readonly Rec[]
	) {
		this.hasUserEvents = recs.some((r) => r.kind === 'event' && r.p.type === 'user_message');
		this.hasAssistantItems = recs.some((r) => r.kind === 'item' && r.p.type === 'message' && r.p.role === 'assistant');
		this.hasReasoningItems = recs.some((r) => r.kind === 'item' && r.p.type === 'reasoning');
		for (const r of recs) {
			if (r.kind === 'event' && typeof r.p.call_id === 'string' && (/_end$/.test(String(r.p.type)) || 'new_thread_id' in r.p)) {
				this.ends.set(r.p.call_id, r.p);
				this.endRecs.set(r.p, r);
			}
		}
	}

	assistant(blocks: Obj[], r: Rec): Atom {
		this.lastAssistant = this.d.assistant(blocks as never, { when: r.when, line: r.line, model: this.model, messageId: `${this.id}:req${this.request}` });
		return this.lastAssistant;
	}

	addCall(r: Rec, callId: string, call: CanonicalCall, harnessTool: string): void {
		const ends = this.ends;
		this.calls.set(callId, { call, line: r.line, answered: false });
		if (call.kind === 'spawn') this.links.spawns.push({ callId, threadId: str(ends.get(callId)?.new_thread_id) ?? null, nickname: str(ends.get(callId)?.new_agent_nickname) });
		this.assistant([{ type: 'tool_use', id: callId, name: call.name, input: call.input, harnessTool }], r);
	}

	answer(r: Rec, callId: string, output: unknown): void {
		const c = this.calls.get(callId);
		const read = readOutput(output);
		const end = this.ends.get(callId);
		let isError = read.error;
		let exitCode = read.exitCode;
		if (end) {
			const ec = num(end.exit_code);
			if (ec !== null) exitCode = ec;
			if (ec !== null && ec !== 0) isError = true;
			if (end.success === false || (isObj(end.result) && 'Err' in end.result) || end.status === 'failed') isError = true;
		}
		const tur: Obj = { ...(c?.call.resultBase ?? {}) };
		if (!c || c.call.kind === 'shell') {
			tur.stdout = end && typeof end.stdout === 'string' && end.stdout !== '' ? end.stdout : shellBody(read.text);
			if (end && typeof end.stderr === 'string' && end.stderr) tur.stderr = end.stderr;
		}
		if (exitCode !== null) tur.exitCode = exitCode;
		if (end && isObj(end.changes) && Array.isArray(tur.files)) tur.files = withAppliedDiffs(tur.files as PatchFile[], end.changes);
		const content: unknown[] = [{ type: 'text', text: read.text }];
		for (const u of read.images) {
			const img = imageBlock(u);
			if (img) content.push(img);
		}
		if (c) c.answered = true;
		this.d.result(callId, content, isError, { when: r.when, line: r.line, toolUseResult: tur });
	}
}
