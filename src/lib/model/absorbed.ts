// Absorbed (mid-turn) prompts (reference §2.5): queued_command attachments, in file order. A
// prompt typed while Claude works is written as an attachment, not a user line; it becomes a
// user atom with `absorbed: true`. Copies of the same prompt at the same time are listed once
// (the rest go to offPath as absorbed-duplicate); a copy on a rewound / cleared / sidechain
// branch stays off the path, and one with a broken timestamp cannot be placed (an issue).
import { pySplit, pyStrip } from './pystr.ts';
import { blocksText, deriveAuthor, hasAutoMarker, isObj } from './text.ts';
import type { Atom } from './types.ts';
import { LOWER_Z, PLACE_ISSUE, PLACE_NONE, type Line } from './build-context.ts';
import { isKept } from './active-path.ts';
import type { EmitEnv } from './emit.ts';

export function emitAbsorbed(env: EmitEnv, lineVerdict: Uint8Array): void {
	const { ctx, table } = env;
	const seen = new Set<string>();
	for (const L of table.lines) {
		if (L.type !== 'attachment') continue;
		const att = L.v.attachment;
		if (!isObj(att) || att.type !== 'queued_command') continue;
		if (table.place[L.seq] !== PLACE_NONE) continue;
		if (L.tsProblem && L.tsProblem !== LOWER_Z) {
			table.place[L.seq] = PLACE_ISSUE;
			ctx.acc.issues++;
			ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: L.tsProblem === 'missing' ? 'missing-timestamp' : 'bad-timestamp', message: `queued_command attachment with timestamp ${L.tsProblem} is not shown`, accounted: true });
			continue;
		}
		if (L.uuid !== null && !isKept(lineVerdict, L.seq)) continue; // rewound/cleared/sidechain copy: off path
		const prompt = att.prompt;
		const text = typeof prompt === 'string' ? prompt : blocksText(prompt);
		const stripped = pyStrip(text);
		if (!stripped) {
			env.sink.skip(L, 'empty');
			continue;
		}
		const key = L.t + '\u0000' + collapseWs(text);
		if (seen.has(key)) {
			env.sink.offPath(L, 'absorbed-duplicate');
			continue;
		}
		seen.add(key);
		env.sink.emitLine(L, absorbedAtom(env, L, text, stripped));
	}
}

function absorbedAtom(env: EmitEnv, L: Line, text: string, stripped: string): Atom {
	const { ctx } = env;
	const a: Atom = {
		type: 'user',
		uuid: L.uuid,
		session_id: ctx.rompUuid,
		t: L.t,
		// The reference knows the file only of attachments that are graph nodes; viewer
		// mode always says where the line lives (D6).
		fsid: L.uuid !== null || ctx.viewer ? ctx.fsids[L.fi] : null,
		// The reference only knows graph fields of attachments that are graph nodes.
		parentUuid: L.uuid !== null ? ((L.v.parentUuid as string | null | undefined) ?? null) : null,
		message: { role: 'user', content: [{ type: 'text', text }] },
		author: deriveAuthor(stripped, undefined, env.authors),
		absorbed: true,
	};
	if (hasAutoMarker(text)) a.rompAuto = true;
	return a;
}

function collapseWs(s: string): string {
	return pySplit(s).join(' ');
}
