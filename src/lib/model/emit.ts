// Atom emission for the kept lines (reference §2.5), in file order: one atom per line at
// most. Assistant lines (with the D1 recovered stop_reason), compact boundaries (with their
// summary from the pre-passes and the stitch-repaired parent) and model refusal fallbacks are
// emitted here; user lines go through the numbered rules of emit-user.ts. Other system lines
// are skipped to metadata as `system:<subtype>`.
import { emitUser } from './emit-user.ts';
import { isObj, type Obj } from './text.ts';
import { baseAtom, normMessage } from './atom-sink.ts';
import { PLACE_NONE, type Line } from './build-context.ts';
import { resolvedParent } from './graph.ts';
import type { Atom } from './types.ts';
import type { EmitEnv } from './emit-env.ts';

export function emitKeptLines(env: EmitEnv): void {
	for (const L of env.pre.keptLines) emitKeptLine(env, L);
}

/** The atom (or skip reason) of one kept line not placed yet. */
export function emitKeptLine(env: EmitEnv, L: Line): void {
	if (env.table.place[L.seq] !== PLACE_NONE) return;
	if (L.type === 'assistant') env.sink.emitLine(L, assistantAtom(env, L));
	else if (L.type === 'user') emitUser(env, L);
	else if (L.type === 'system') emitSystem(env, L);
}

/** An assistant line's atom (before the sink adds the viewer fields); no side effects. */
export function assistantAtom(env: EmitEnv, L: Line): Atom {
	const v = L.v;
	const a = baseAtom(env.ctx, L, 'assistant');
	a.message = normMessage(v.message, 'assistant');
	const rec = env.pre.recovered.get(L.seq);
	if (rec) {
		a.message.stop_reason = rec;
		a.stopReasonRecovered = true;
	}
	if (v.isApiErrorMessage) {
		a.isApiError = true;
		if (Number.isInteger(v.apiErrorStatus) && typeof v.apiErrorStatus === 'number') a.apiErrorStatus = v.apiErrorStatus;
	}
	return a;
}

function emitSystem(env: EmitEnv, L: Line): void {
	const v = L.v;
	const sub = v.subtype;
	if (sub === 'compact_boundary') {
		const a = baseAtom(env.ctx, L, 'system');
		a.subtype = 'compact_boundary';
		a.parentUuid = resolvedParent(env.table.lines, env.graph, L.uuid!);
		const cm: Obj = isObj(v.compactMetadata) ? v.compactMetadata : isObj(v.compact_metadata) ? v.compact_metadata : {};
		a.compact_metadata = {
			trigger: (cm.trigger as string | undefined) ?? null,
			pre_tokens: jsOr(cm.preTokens, cm.pre_tokens) as number | null,
			post_tokens: jsOr(cm.postTokens, cm.post_tokens) as number | null,
		};
		a.summary = env.pre.boundarySummary.get(L.seq) ?? null;
		env.sink.emitLine(L, a);
	} else if (sub === 'model_refusal_fallback') {
		const a = baseAtom(env.ctx, L, 'system');
		a.subtype = 'model_refusal_fallback';
		a.parentUuid = resolvedParent(env.table.lines, env.graph, L.uuid!);
		// rec.get(key, "") semantics: only a missing key defaults to "".
		a.content = v.content === undefined ? '' : v.content;
		a.fallback_from = v.originalModel === undefined ? '' : v.originalModel;
		a.fallback_to = v.fallbackModel === undefined ? '' : v.fallbackModel;
		env.sink.emitLine(L, a);
	} else env.sink.skip(L, `system:${typeof sub === 'string' ? sub : 'none'}`);
}

/** Python's `a or b` for a JSON value (b's absence reads as null). */
function jsOr(a: unknown, b: unknown): unknown {
	if (a) return a;
	return b === undefined ? null : b;
}
