// The user-line rules (reference §2.5, rules 1–11), tried in order on each kept user line: the
// first that matches decides whether the line becomes an atom (a slash command, its stdout, a
// skill's instructions, a prompt or tool result) or is skipped to metadata / offPath with a
// reason. Rule order matters: e.g. a command invocation is shown even when isMeta (rule 1 runs
// before rule 6), and replays are recognised by the pre-passes.
import {
	deriveAuthor,
	hasAutoMarker,
	hasPostalMarker,
	hasToolResult,
	isImageEcho,
	isObj,
	normContent,
	parseCommand,
	isSkillText,
	parseStdout,
	startsWithWrapper,
	type Obj,
} from './text.ts';
import { baseAtom, normMessage } from './atom-sink.ts';
import { cap, type Line } from './build-context.ts';
import type { EmitEnv } from './emit-env.ts';

const SKILL_CAP = 16000;

export function emitUser(env: EmitEnv, L: Line): void {
	const { ctx, sink } = env;
	const v = L.v;
	const m: Obj = isObj(v.message) ? v.message : {};
	const text = env.texts.of(L);
	const isReplay = env.pre.replay.has(L.seq);
	const toolResult = hasToolResult(m.content);
	// 1. command invocation (before the isMeta skip)
	const cmd = isReplay ? null : parseCommand(text);
	if (cmd) {
		const a = baseAtom(ctx, L, 'user');
		a.message = { role: (m.role as string | undefined) ?? 'user', content: [{ type: 'text', text: cmd.display }] };
		a.author = 'human';
		a.command = cmd.name;
		return sink.emitLine(L, a);
	}
	// 2. local command stdout
	const out = isReplay ? null : parseStdout(text, ctx.viewer);
	if (out !== null) {
		const a = baseAtom(ctx, L, 'assistant');
		a.command = true;
		a.message = { role: 'assistant', content: [{ type: 'text', text: out }], stop_reason: 'end_turn' };
		return sink.emitLine(L, a);
	}
	// 3. invocation twin
	if (!toolResult && isCommandTwin(env, v.promptId, text)) return sink.skip(L, 'command-twin');
	// 4. skill instructions
	if (text && !toolResult && !isReplay) {
		const src = v.sourceToolUseID;
		if (isSkillText(text) || (typeof src === 'string' && env.pre.skillIds.has(src))) {
			const a = baseAtom(ctx, L, 'assistant');
			a.message = { role: 'assistant', content: [], stop_reason: null };
			a.skillMd = cap(text, SKILL_CAP, '\n\n…(skill content truncated)');
			return sink.emitLine(L, a);
		}
	}
	// 5. image echo
	if (!toolResult && isImageEcho(text)) return sink.skip(L, 'image-echo');
	// 6. isMeta noise (postal deliveries survive)
	if (v.isMeta === true && !hasPostalMarker(text)) return sink.skip(L, 'isMeta');
	// 7. compaction summary (rides the boundary)
	if (v.isCompactSummary === true) return sink.skip(L, 'compact-summary');
	// 8. replays
	if (isReplay) return sink.offPath(L, 'replay');
	// 9. empty content
	if (normContent(m.content).length === 0) return sink.skip(L, 'empty');
	// 10. remaining wrappers
	if (startsWithWrapper(text)) return sink.skip(L, 'command-wrapper');
	// 11. normal user atom
	const a = baseAtom(ctx, L, 'user');
	a.message = normMessage(m, 'user');
	if (v.promptSource !== undefined && v.promptSource !== null) a.promptSource = v.promptSource as string;
	const author = deriveAuthor(text, v.promptSource, env.authors);
	if (author !== null) a.author = author;
	if (hasAutoMarker(text)) a.rompAuto = true;
	sink.emitLine(L, a);
}

/** Rule 3: the line repeats a slash command invoked under the same promptId. */
function isCommandTwin(env: EmitEnv, pid: unknown, text: string): boolean {
	if (typeof pid !== 'string') return false;
	const names = env.pre.commandPromptIds.get(pid);
	if (!names) return false;
	for (const nm of names) {
		if (text === nm || text.startsWith(nm + ' ')) return true;
	}
	return false;
}
