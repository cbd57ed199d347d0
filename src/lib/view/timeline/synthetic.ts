// Test and benchmark support: builds timeline input (sessions as the model would emit them) with
// a chosen number of segments, deterministic, without parsing any file. Used by the layout tests
// and by the browser benchmark that times layout + draw of 5,000 segments.

import type { Atom, Session, Turn } from '../../model/index.ts';
import type { LaneInput } from './layout.ts';

export interface SyntheticOptions {
	/** Number of lanes the segments are spread over. Default 1. */
	lanes?: number;
	/** Session start, epoch ms. Default 2026-06-10T13:00:00Z. */
	start?: number;
	/** Every this-many turns, a long pause (3 h) the axis should collapse. Default 40. */
	breakEvery?: number;
}

const START = Date.UTC(2026, 5, 10, 13, 0, 0);

function text(t: string) {
	return [{ type: 'text' as const, text: t }];
}

/**
 * One turn: prompt → tool call → tool result → reply (end_turn), then an idle atom until the next
 * turn; every 7th turn also has an absorbed mid-turn prompt (a second segment) and every 11th a
 * Task delegation, every 97th starts with a compaction turn. Returns the turn(s) and the time used.
 */
function syntheticTurns(sid: string, i: number, t: number, breakEvery: number): { turns: Turn[]; next: number } {
	const s = (ms: number) => Math.floor(ms / 1000);
	const atom = (type: Atom['type'], uuid: string | null, ms: number, extra: Partial<Atom> = {}): Atom => ({
		type,
		uuid,
		session_id: sid,
		t: s(ms),
		ms,
		...extra
	});
	const turns: Turn[] = [];
	if (i > 0 && i % 97 === 0) {
		turns.push({
			id: `${sid}:${s(t)}:cmp${i}`,
			trigger: null,
			t: s(t),
			end: s(t),
			ended: true,
			atoms: [
				atom('system', `c${i}`, t, {
					subtype: 'compact_boundary',
					compact_metadata: { trigger: 'auto', pre_tokens: 150_000, post_tokens: null },
					summary: 'summary'
				})
			]
		});
		t += 5_000;
	}
	const p = `u${i}`;
	const atoms: Atom[] = [
		atom('user', p, t, { author: i % 13 === 0 ? 'sdk' : 'human', promptSource: 'typed', message: { role: 'user', content: text(i % 5 === 0 ? `<ide_opened_file>The user opened the file src/m${i}.ts in the IDE.</ide_opened_file>\nplease refactor module ${i} and keep the tests green` : `request number ${i}: refactor the module and keep the tests green\nsecond line`) } }),
		atom('assistant', `a${i}`, t + 4_000, {
			message: {
				role: 'assistant',
				content: [
					{ type: 'text', text: 'Working on it.' },
					i % 11 === 0
						? { type: 'tool_use', id: `tu${i}`, name: 'Task', input: { description: `delegate ${i}`, prompt: 'go' } }
						: { type: 'tool_use', id: `tu${i}`, name: 'Bash', input: { command: 'ls' } }
				],
				stop_reason: 'tool_use'
			}
		}),
		atom('user', `r${i}`, t + 20_000, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tu${i}`, content: 'ok' }] } })
	];
	if (i % 7 === 0) {
		atoms.push(atom('user', `q${i}`, t + 25_000, { author: { peer: 'peer-sid', mid: `m${i}`, kind: 'question' }, absorbed: true, message: { role: 'user', content: text(`also check ${i}`) } }));
	}
	atoms.push(atom('assistant', `z${i}`, t + 40_000, { message: { role: 'assistant', content: text(`Done with ${i}.`), stop_reason: 'end_turn' } }));
	const idleFrom = s(t + 41_000);
	const pause = (i + 1) % breakEvery === 0 ? 3 * 3_600_000 : 120_000;
	atoms.push({ type: 'idle', uuid: null, session_id: sid, t: idleFrom, end: idleFrom + Math.floor(pause / 1000) - 20 });
	turns.push({ id: `${sid}:${s(t)}:${i}`, trigger: { uuid: p }, t: s(t), end: idleFrom + Math.floor(pause / 1000) - 20, ended: true, atoms });
	return { turns, next: t + 41_000 + pause };
}

/** Synthetic lanes holding about `segments` segments in total (absorbed prompts add segments). */
export function syntheticLayoutInput(segments: number, opts: SyntheticOptions = {}): LaneInput[] {
	const laneCount = Math.max(1, opts.lanes ?? 1);
	const out: LaneInput[] = [];
	// A turn with an absorbed prompt yields two segments: 1/7 of turns do, so turns ≈ segments · 7/8.
	const turnsTotal = Math.max(1, Math.round((segments * 7) / 8));
	for (let l = 0; l < laneCount; l++) {
		const sid = `synthetic-${l}`;
		const session: Session = { rompUuid: sid, name: sid, dir: '', color: '', leafFsid: sid, landedTextUuids: [], turns: [] };
		let t = (opts.start ?? START) + l * 17_000;
		const n = Math.floor(turnsTotal / laneCount) + (l < turnsTotal % laneCount ? 1 : 0);
		for (let i = 0; i < n; i++) {
			const r = syntheticTurns(sid, i, t, Math.max(1, opts.breakEvery ?? 40));
			session.turns.push(...r.turns);
			t = r.next;
		}
		out.push({ key: sid, label: `Session ${l + 1}`, session });
	}
	return out;
}
