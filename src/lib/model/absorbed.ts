// Absorbed (mid-turn) prompts (reference §2.5): queued_command attachments, in file order. A
// prompt typed while Claude works is written as an attachment, not a user line; it becomes a
// user atom with `absorbed: true`. The queue-operation ledger (enqueue / dequeue / remove /
// popAll) is never read: a dead enqueue or a popAll recall has no attachment and shows nothing.
//
// Which attachments count: any whose `prompt` is truthy in Python's sense — a string with any
// character (whitespace-only too: it gives an atom with author null) or a non-empty block list
// (an image alone too: text "", author null, so it opens nothing); "" / [] / null do not.
// Copies of the same prompt at the same time are listed once (the rest go to offPath as
// absorbed-duplicate); a copy whose uuid's node is on a rewound / cleared / sidechain branch stays
// off the path; one with a broken timestamp cannot be placed (an issue).
//
// A uuid is one graph node: the atom's fsid and parentUuid come from the node (the last copy
// read), its sort key from the copy that is emitted (the first of its (time, text) pair).
// Viewer mode also keeps a list prompt's blocks (an image stays visible, D9) and never emits a
// uuid twice.
import { pySplit, pyStrip } from './pystr.ts';
import { blocksText, deriveAuthor, hasAutoMarker, isObj } from './text.ts';
import type { Atom, ContentBlock } from './types.ts';
import { LOWER_Z, PLACE_ISSUE, PLACE_NONE, type Line } from './build-context.ts';
import { isKept } from './active-path.ts';
import type { EmitEnv } from './emit-env.ts';

export function emitAbsorbed(env: EmitEnv, lineVerdict: Uint8Array): void {
	const { ctx, table, graph } = env;
	const seen = new Set<string>();
	const seenUuids = new Set<string>();
	for (const L of table.lines) {
		if (L.type !== 'attachment') continue;
		const att = L.v.attachment;
		if (!isObj(att) || att.type !== 'queued_command') continue;
		if (table.place[L.seq] !== PLACE_NONE) continue;
		const prompt = att.prompt;
		if (!pyTruthy(prompt)) {
			env.sink.skip(L, 'empty');
			continue;
		}
		if (L.tsProblem && L.tsProblem !== LOWER_Z) {
			table.place[L.seq] = PLACE_ISSUE;
			ctx.acc.issues++;
			ctx.issues.push({ file: ctx.files[L.fi], line: L.rec.line, kind: L.tsProblem === 'missing' ? 'missing-timestamp' : 'bad-timestamp', message: `queued_command attachment with timestamp ${L.tsProblem} is not shown`, accounted: true });
			continue;
		}
		const text = typeof prompt === 'string' ? prompt : blocksText(prompt);
		const key = L.t + '\u0000' + collapseWs(text);
		if (seen.has(key)) {
			env.sink.offPath(L, 'absorbed-duplicate');
			continue;
		}
		const node = L.uuid !== null ? graph.nodes.get(L.uuid)! : -1;
		if (node >= 0 && !isKept(lineVerdict, node)) continue; // rewound/cleared/sidechain copy: off path
		if (ctx.viewer && L.uuid !== null) {
			if (seenUuids.has(L.uuid)) {
				env.sink.offPath(L, 'duplicate');
				continue;
			}
			seenUuids.add(L.uuid);
		}
		seen.add(key);
		env.sink.emitLine(L, absorbedAtom(env, L, node >= 0 ? table.lines[node] : null, text, prompt));
	}
}

function absorbedAtom(env: EmitEnv, L: Line, node: Line | null, text: string, prompt: unknown): Atom {
	const { ctx } = env;
	const a: Atom = {
		type: 'user',
		uuid: L.uuid,
		session_id: ctx.rompUuid,
		t: L.t,
		// The reference knows the file of an attachment only through its uuid's node; viewer mode
		// always names the file of the line shown (D6).
		fsid: ctx.viewer ? ctx.fsids[L.fi] : node ? ctx.fsids[node.fi] : null,
		parentUuid: node ? ((node.v.parentUuid as string | null | undefined) ?? null) : null,
		message: { role: 'user', content: ctx.viewer && Array.isArray(prompt) ? (prompt as ContentBlock[]) : [{ type: 'text', text }] },
		author: deriveAuthor(pyStrip(text), undefined, env.authors),
		absorbed: true,
	};
	if (hasAutoMarker(text)) a.rompAuto = true;
	return a;
}

/** Python's bool() of a JSON value. */
function pyTruthy(v: unknown): boolean {
	if (Array.isArray(v)) return v.length > 0;
	if (isObj(v)) return Object.keys(v).length > 0;
	return !!v;
}

function collapseWs(s: string): string {
	return pySplit(s).join(' ');
}
