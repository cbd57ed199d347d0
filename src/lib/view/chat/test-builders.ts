// Test builders: tiny Session / Turn / Atom values for the chat-view unit tests, in the shape the
// model emits in viewer mode (ms, messageId, toolUseResult extras). Not used by production code.

import type { Atom, Author, ContentBlock, Session, Turn } from '../../model/types';

const T0 = 1_781_096_400_000;
let clock = 0;

/** Reset the synthetic clock (each atom is one second after the previous one by default). */
export function resetClock(): void {
	clock = 0;
}
function nextMs(ms?: number): number {
	if (ms !== undefined) return ms;
	clock += 1000;
	return T0 + clock;
}

export function user(uuid: string, text: string, extra: Partial<Atom> = {}): Atom {
	const ms = nextMs(extra.ms);
	return {
		type: 'user',
		uuid,
		session_id: 'S',
		t: Math.floor(ms / 1000),
		ms,
		author: 'human' as Author,
		promptSource: 'typed',
		message: { role: 'user', content: [{ type: 'text', text }] },
		...extra
	};
}

export function assistant(uuid: string, content: ContentBlock[], extra: Partial<Atom> & { stop?: string | null } = {}): Atom {
	const { stop, ...rest } = extra;
	const ms = nextMs(rest.ms);
	return {
		type: 'assistant',
		uuid,
		session_id: 'S',
		t: Math.floor(ms / 1000),
		ms,
		messageId: rest.messageId ?? `msg_${uuid}`,
		message: { role: 'assistant', content, model: 'claude-x', stop_reason: stop === undefined ? 'tool_use' : stop },
		...rest
	};
}

export const text = (t: string): ContentBlock => ({ type: 'text', text: t });
export const thinking = (t: string): ContentBlock => ({ type: 'thinking', thinking: t, signature: 'sig' });
export const toolUse = (id: string, name: string, input: unknown = {}): ContentBlock => ({ type: 'tool_use', id, name, input });

/** A user line carrying one tool_result. */
export function result(uuid: string, toolUseId: string, content: unknown, extra: Partial<Atom> & { isError?: boolean } = {}): Atom {
	const { isError, ...rest } = extra;
	const ms = nextMs(rest.ms);
	const block: ContentBlock = { type: 'tool_result', tool_use_id: toolUseId, content };
	if (isError) (block as { is_error?: boolean }).is_error = true;
	return {
		type: 'user',
		uuid,
		session_id: 'S',
		t: Math.floor(ms / 1000),
		ms,
		message: { role: 'user', content: [block] },
		...rest
	};
}

export function turn(atoms: Atom[], ended = true, id?: string): Turn {
	const first = atoms[0];
	const trig = first && first.type === 'user' && first.author ? { uuid: first.uuid } : null;
	return {
		id: id ?? `S:${first?.t ?? 0}:x`,
		trigger: trig,
		t: first?.t ?? 0,
		end: atoms[atoms.length - 1]?.t ?? 0,
		ended,
		atoms
	};
}

export function session(turns: Turn[]): Session {
	return { rompUuid: 'S', name: 'S', dir: '/', color: '#888888', leafFsid: 'S', landedTextUuids: [], turns };
}

/** A tool call and its result as two atoms: [assistant tool_use, user tool_result]. */
export function call(id: string, name: string, input: unknown = {}, out: unknown = 'ok', extra: { isError?: boolean; toolUseResult?: unknown } = {}): Atom[] {
	return [
		assistant(`a_${id}`, [toolUse(id, name, input)]),
		result(`r_${id}`, id, out, { isError: extra.isError, toolUseResult: extra.toolUseResult })
	];
}

/**
 * The flood: a prompt, then `steps` × (thought, call), then a reply — a Bridge codexFlood-shaped
 * turn (62% commands, 30% reads, 8% edits).
 */
export function floodTurn(steps: number): Turn {
	const atoms: Atom[] = [user('u', 'fix the build')];
	for (let i = 0; i < steps; i++) {
		atoms.push(assistant(`th${i}`, [thinking(`step ${i}: considering`)]));
		const k = i % 50;
		if (k < 31) atoms.push(...call(`b${i}`, 'Bash', { command: `make step${i}` }, 'done'));
		else if (k < 46) atoms.push(...call(`r${i}`, 'Read', { file_path: `/src/f${i}.ts` }, 'contents'));
		else atoms.push(...call(`e${i}`, 'Edit', { file_path: `/src/e${i}.ts`, old_string: 'a', new_string: 'b' }, 'edited'));
	}
	atoms.push(assistant('th_end', [thinking('all done, summarising')]));
	atoms.push(assistant('reply', [text('The build is fixed.')], { stop: 'end_turn' }));
	return turn(atoms, true);
}
