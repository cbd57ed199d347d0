// What every chat item shares: the Item and its context, an atom's time, content blocks, author
// and the row fields every kind starts from. The items themselves are made in item-atoms.ts
// (one atom → items) and item-calls.ts (one tool call → an item).
import type { Atom } from '../../model/types';
import { isRecord, toJson } from './content';
import type { AuthorView, CallStatus, ChatRow, RowBase } from './types';

export type ItemType =
	| 'prompt'
	| 'prose'
	| 'thinking'
	| 'tool'
	| 'plan'
	| 'delegation'
	| 'question'
	| 'approval'
	| 'error'
	| 'compaction'
	| 'notice'
	| 'raw';

export interface Item {
	type: ItemType;
	turnIndex: number;
	/** Call status for tool-like items, else null. */
	status: CallStatus | null;
	/** message.id of the assistant line (to merge prose split over lines), else null. */
	messageId: string | null;
	row: ChatRow;
}

export interface ItemContext {
	/** Child rows for a Task/Agent call id, or null when no child transcript is attached. */
	childRows: (toolUseId: string, parentOver: boolean) => ChatRow[] | null;
	/** Tool calls of a child transcript (for the step count), or null. */
	childSteps: (toolUseId: string) => number | null;
	/** The whole session is over (used for child transcripts whose parent call finished). */
	sessionOver: boolean;
	/** Prefix for row keys (child transcripts are namespaced under their call). */
	keyPrefix: string;
}

export function atomMs(a: Atom): number | null {
	if (typeof a.ms === 'number' && Number.isFinite(a.ms)) return a.ms;
	return typeof a.t === 'number' && Number.isFinite(a.t) ? a.t * 1000 : null;
}

export function blocksOf(a: Atom): unknown[] {
	const c = a.message?.content as unknown;
	if (Array.isArray(c)) return c;
	if (typeof c === 'string' && c.trim()) return [{ type: 'text', text: c }];
	return [];
}

export function textOf(blocks: unknown[]): string {
	return blocks
		.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === 'text' && typeof b.text === 'string')
		.map((b) => b.text as string)
		.join('\n\n');
}

export function authorView(a: Atom): AuthorView {
	const au = a.author;
	if (au === 'human') return { kind: 'human', label: a.speaker ?? 'User' };
	if (au === 'sdk') return { kind: 'sdk', label: 'SDK' };
	if (au === 'romp') return { kind: 'romp', label: 'romp' };
	if (au === 'teammate') return { kind: 'teammate', label: 'Teammate' };
	if (au === 'system') return { kind: 'system', label: a.speaker ?? 'System' };
	if (isRecord(au)) {
		const peer = typeof au.peer === 'string' ? au.peer : null;
		return {
			kind: 'peer',
			label: peer ? `Peer \u00b7 ${peer.slice(0, 8)}` : 'Peer (sender unknown)',
			peer,
			msgKind: typeof au.kind === 'string' ? au.kind : ''
		};
	}
	return { kind: 'unknown', label: 'User' };
}

export function base(ctx: ItemContext, prefix: string, a: Atom, ti: number, suffix = ''): Omit<RowBase, 'kind'> {
	const uuid = a.uuid ?? '';
	return {
		key: `${ctx.keyPrefix}${prefix}:${uuid || `${a.type}@${a.t}`}${suffix}`,
		atomUuid: uuid,
		atomUuids: uuid ? [uuid] : [],
		turnIndex: ti,
		ms: atomMs(a),
		defaultOpen: false
	};
}

export function rawItem(ctx: ItemContext, a: Atom, ti: number, title: string, value: unknown, suffix = ''): Item {
	return {
		type: 'raw',
		turnIndex: ti,
		status: null,
		messageId: null,
		row: { ...base(ctx, 'r', a, ti, suffix), kind: 'raw', title, json: toJson(value) }
	};
}
