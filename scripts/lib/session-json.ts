// Output shaping shared by the parse CLI and the tests: the session with each turn's derived
// segments attached (the shape of the conformance pack's expected.json) and JSON with keys sorted
// recursively, so output is stable and diffable whatever order the model builds objects in.
import { segmentsOf } from '../../src/lib/model/index.ts';
import type { Session, Turn } from '../../src/lib/model/index.ts';

/** A segment as the pack's expected.json has it: the index range (start/stop) is Loupe's own. */
export interface PackSegment { id: string; t: number; end: number; trigger: string | null; atoms: string[] }

export type TurnWithSegments = Turn & { segments: PackSegment[] };
export type SessionWithSegments = Omit<Session, 'turns'> & { turns: TurnWithSegments[] };

export function withSegments(session: Session): SessionWithSegments {
	return {
		...session,
		turns: session.turns.map((turn) => ({
			...turn,
			segments: segmentsOf(turn, session.rompUuid).map(({ id, t, end, trigger, atoms }) => ({ id, t, end, trigger, atoms }))
		}))
	};
}

/** A deep copy with every object's keys in code-unit order (arrays keep their order). */
export function sortKeysDeep(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(sortKeysDeep);
	if (value !== null && typeof value === 'object') {
		const out: Record<string, unknown> = {};
		for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
		return out;
	}
	return value;
}

export function sortedJson(value: unknown, indent?: number): string {
	return JSON.stringify(sortKeysDeep(value), null, indent);
}
