// Turn grouping (reference §2.10–2.12): walk the time-ordered atoms, open a turn at an opener
// that arrives after end_turn (or at a compaction boundary), fold everything else into the
// current turn, then finalise t / end / ended and the anchor-keyed turn id.
import { sha1Hex } from './sha1.ts';
import { blocksText, isInterruptText, isOpenerAuthor } from './text.ts';
import type { Atom, Turn } from './types.ts';

export function atomText(a: Atom): string {
	return a.message ? blocksText(a.message.content) : '';
}

export function isOpener(a: Atom): boolean {
	return a.type === 'user' && isOpenerAuthor(a.author);
}

function isInterrupt(a: Atom): boolean {
	return a.type === 'user' && isInterruptText(atomText(a));
}

function endsTurn(a: Atom): boolean {
	const sr = a.message?.stop_reason;
	return sr === 'end_turn' || sr === 'stop_sequence';
}

export function groupTurns(atoms: Atom[], rompUuid: string): Turn[] {
	const groups: { trigger: string | null | undefined; atoms: Atom[]; openedBy: Atom }[] = [];
	let cur: (typeof groups)[number] | null = null;
	let ended = false;
	for (const a of atoms) {
		if (a.type === 'system' && a.subtype === 'compact_boundary') {
			cur = { trigger: undefined, atoms: [a], openedBy: a };
			groups.push(cur);
			ended = true;
			continue;
		}
		if (isOpener(a)) {
			if (cur === null || ended) {
				cur = { trigger: a.uuid, atoms: [a], openedBy: a };
				groups.push(cur);
				ended = false;
			} else cur.atoms.push(a);
		} else if (cur === null) {
			cur = { trigger: undefined, atoms: [a], openedBy: a };
			groups.push(cur);
		} else cur.atoms.push(a);
		if (a.type === 'assistant') ended = endsTurn(a);
		if (a.command !== undefined || isInterrupt(a)) ended = true;
	}
	const turns: Turn[] = groups.map((g) => finalizeTurn(g.atoms, g.trigger, g.openedBy, rompUuid));
	// stable sort by t (groups are already in time order, but keep the reference's sort)
	return turns.map((t, i) => [t, i] as const).sort((x, y) => x[0].t - y[0].t || x[1] - y[1]).map((x) => x[0]);
}

function finalizeTurn(atoms: Atom[], trigger: string | null | undefined, openedBy: Atom, rompUuid: string): Turn {
	const t = atoms[0].t;
	let end = -Infinity;
	for (const a of atoms) {
		const e = a.end ?? a.t;
		if (e > end) end = e;
	}
	let ended = false;
	let lastAssistant: Atom | null = null;
	for (let i = atoms.length - 1; i >= 0; i--) {
		if (atoms[i].type === 'assistant') {
			lastAssistant = atoms[i];
			break;
		}
	}
	if (lastAssistant) ended = endsTurn(lastAssistant);
	if (!ended && !lastAssistant) {
		if (trigger !== undefined && openedBy.type === 'user' && typeof openedBy.command === 'string') ended = true;
		if (openedBy.type === 'system' && openedBy.subtype === 'compact_boundary') ended = true;
	}
	if (!ended) {
		for (let i = atoms.length - 1; i >= 0; i--) {
			const a = atoms[i];
			if (a.type === 'idle' || a.command !== undefined) continue;
			ended = isInterrupt(a);
			break;
		}
	}
	const hasTrigger = trigger !== undefined;
	const basis = hasTrigger ? atomText(openedBy) : atomText(atoms[0]);
	return {
		id: `${rompUuid}:${t}:${sha1Hex(basis).slice(0, 8)}`,
		trigger: hasTrigger ? { uuid: trigger ?? null } : null,
		t,
		end,
		ended,
		atoms,
	};
}

