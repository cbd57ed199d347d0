// segmentsOf: a turn split at its input atoms (reference §2.13) — the timeline grain. Derived,
// never stored. Inputs are the openers inside the turn (user atoms authored human / sdk / romp
// / peer, incl. absorbed prompts, commands and mid-turn interrupts). Text-less segments hash
// their anchor uuid so they do not all collide on sha1("").
import { atomText, isOpener } from './turns.ts';
import { sha1Hex8 } from './sha1.ts';
import type { Atom, Segment, Turn } from './types.ts';

/** Id of the segment atoms[start, stop) (a non-empty range, or the whole of an empty turn). */
function segId(rompUuid: string, t: number, trigger: Atom | null, atoms: Atom[], start: number, stop: number): string {
	let basis = trigger ? atomText(trigger) : '';
	if (!basis && stop > start) basis = atomText(atoms[start]);
	if (!basis) basis = trigger?.uuid || atoms[start]?.uuid || firstUuid(atoms, start, stop) || '';
	return `${rompUuid}:${t}:${sha1Hex8(basis)}`;
}

function firstUuid(atoms: Atom[], start: number, stop: number): string | undefined {
	for (let i = start; i < stop; i++) if (atoms[i].uuid) return atoms[i].uuid!;
	return undefined;
}

/** Each atom's label (uuid, else its type) for atoms[start, stop). */
function labels(atoms: Atom[], start: number, stop: number): string[] {
	const out = new Array<string>(stop - start);
	for (let i = start; i < stop; i++) out[i - start] = atoms[i].uuid ?? atoms[i].type;
	return out;
}

/** Segments are derived, but hashing every segment's text is the costly part of deriving them,
 *  and the worker derives them twice per load (counts, then the timeline): remember them per
 *  turn object. Turns are never mutated after buildSession returns them. */
const memo = new WeakMap<Turn, { rompUuid: string; segments: Segment[] }>();

export function segmentsOf(turn: Turn, rompUuid: string): Segment[] {
	const hit = memo.get(turn);
	if (hit && hit.rompUuid === rompUuid) return hit.segments;
	const segments = deriveSegments(turn, rompUuid);
	memo.set(turn, { rompUuid, segments });
	return segments;
}

function deriveSegments(turn: Turn, rompUuid: string): Segment[] {
	const atoms = turn.atoms;
	const sid = atoms.length ? atoms[0].session_id || rompUuid : rompUuid;
	const inputs: number[] = [];
	for (let i = 0; i < atoms.length; i++) if (isOpener(atoms[i])) inputs.push(i);
	if (inputs.length === 0) {
		const trig = turn.trigger ? atoms.find((a) => a.uuid === turn.trigger!.uuid) ?? null : null;
		return [{
			id: segId(sid, turn.t, trig, atoms, 0, atoms.length),
			t: turn.t,
			end: turn.end,
			trigger: turn.trigger ? turn.trigger.uuid : null,
			atoms: labels(atoms, 0, atoms.length),
			start: 0,
			stop: atoms.length,
		}];
	}
	const out: Segment[] = [];
	for (let k = 0; k < inputs.length; k++) {
		const first = k === 0;
		const start = first ? 0 : inputs[k];
		const stop = k + 1 < inputs.length ? inputs[k + 1] : atoms.length;
		const input = atoms[inputs[k]];
		const t = first && inputs[0] > 0 ? turn.t : input.t;
		const end = k + 1 < inputs.length ? atoms[inputs[k + 1]].t : turn.end;
		out.push({ id: segId(sid, t, input, atoms, start, stop), t, end, trigger: input.uuid, atoms: labels(atoms, start, stop), start, stop });
	}
	return out;
}
