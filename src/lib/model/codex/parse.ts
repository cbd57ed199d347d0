// Codex CLI rollout (one JSONL file = one thread) → the shared Session / Turn / Atom model, for
// all three line generations: G0 (bare header and items, record_type:state markers, no per-item
// times), G1 (`{timestamp, type, payload}` envelopes) and G2 (the same, more record types).
// One stream, nothing twice: response_items are the model I/O; their event_msg mirrors are used
// only when the file has no item of that kind, else placed off-path as duplicates. user_message
// marks a human prompt; injected context (AGENTS.md, environment_context, …) becomes a system
// notice. Calls pair with outputs by call_id; failures come from exit codes and the *_end events;
// token_count usage goes on the request it closes; `compacted` is a compaction; a child thread's
// replayed parent prefix is off-path; unknown record types become raw cards.
// records.ts reads the lines; thread.ts holds the state; events.ts / items.ts make the rows.
import type { FileRecords } from '../types.ts';
import { isObj, msOf, SessionDraft, str, type HarnessResult } from '../harness/kit.ts';
import { handleEvent } from './events.ts';
import { handleItem } from './items.ts';
import { normalize, QUIET_TYPES } from './records.ts';
import { CodexThread, type CodexLinks } from './thread.ts';

export { injectedLabel } from './records.ts';
export type { CodexLinks } from './thread.ts';

export interface CodexResult extends HarnessResult {
	links: CodexLinks;
}

export function parseCodex(fr: FileRecords): CodexResult {
	const { recs } = normalize(fr);
	const metaRec = recs.find((r) => r.kind === 'session_meta');
	const meta = metaRec?.p ?? {};
	const id = str(meta.id) ?? str(meta.session_id) ?? fr.file.replace(/^.*\//, '').replace(/\.jsonl?$/, '');
	const d = new SessionDraft(id, fr.file);
	for (const i of fr.issues) {
		if (i.line !== null) d.bad(i.line, i.kind, i.message);
		else d.warn(null, i.kind, i.message);
	}
	for (let i = 0; i < fr.lines; i++) d.countLine();

	const source = meta.source;
	const spawnInfo = isObj(source) && isObj(source.subagent) && isObj(source.subagent.thread_spawn) ? source.subagent.thread_spawn : null;
	const links: CodexLinks = {
		parentThreadId: str(spawnInfo?.parent_thread_id) ?? str(meta.parent_thread_id),
		spawnCallId: str(spawnInfo?.spawn_call_id) ?? null,
		spawns: [],
		nickname: str(spawnInfo?.agent_nickname) ?? str(meta.agent_nickname),
		role: str(spawnInfo?.agent_role) ?? str(meta.agent_role)
	};
	const startMs = metaRec ? (msOf(meta.timestamp) ?? metaRec.when) : null;

	const t = new CodexThread(d, id, links, recs);
	let first = true;

	for (const r of recs) {
		const p = r.p;
		// A child thread replays its parent's prefix with older times before its own first turn.
		if (links.parentThreadId && startMs !== null && r.when !== null && r.when < startMs && r.kind !== 'session_meta') {
			d.off(r.line, 'replay');
			continue;
		}
		switch (r.kind) {
			case 'session_meta':
				d.meta(r.line, first ? 'session_meta' : 'session_meta:copied', r.when);
				first = false;
				continue;
			case 'state':
				d.meta(r.line, 'record_type:state', null, undefined, 'flush marker');
				continue;
			case 'turn_context':
				t.model = str(p.model) ?? t.model;
				t.firstModel ??= t.model;
				d.meta(r.line, 'turn_context', r.when);
				continue;
			case 'compacted': {
				const msg = str(p.message);
				d.compaction(msg && msg.trim() ? msg : null, { when: r.when, line: r.line, trigger: 'auto' });
				continue;
			}
			case 'event':
				handleEvent(t, r);
				continue;
			case 'item':
				handleItem(t, r);
				continue;
			default:
				if (QUIET_TYPES.has(r.kind)) d.meta(r.line, r.kind, r.when);
				else d.meta(r.line, r.kind === 'unknown' ? '(record without type)' : r.kind, r.when, r.kind === 'unknown' ? p : { type: r.kind, payload: p });
		}
	}

	// A call whose output item never came but whose end event did: the event is its result.
	for (const [callId, c] of t.calls) {
		if (c.answered) continue;
		const end = t.ends.get(callId);
		if (!end) continue;
		const rec = t.endRecs.get(end);
		if (!rec) continue;
		const out = str(end.aggregated_output) ?? str(end.formatted_output) ?? str(end.stdout) ?? '';
		t.answer(rec, callId, out);
	}

	// A 2026 rollout says when a turn is still running (task_started without task_complete).
	const lastStart = recs.findLast((r) => r.kind === 'event' && r.p.type === 'task_started')?.line ?? -1;
	const lastDone = recs.findLast((r) => r.kind === 'event' && (r.p.type === 'task_complete' || r.p.type === 'turn_aborted'))?.line ?? -1;
	const base = d.finish({ endedAtEof: t.ended || lastStart <= lastDone });
	const span = d.span();
	return {
		...base,
		harness: 'codex',
		children: {},
		links,
		info: {
			id,
			cwd: str(meta.cwd),
			model: t.firstModel,
			startedAt: startMs ?? span.first,
			endedAt: span.last ?? startMs,
			title: null,
			parentId: links.parentThreadId
		}
	};
}
