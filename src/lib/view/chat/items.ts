// Atoms → items: the normalizer that turns a session's Turn/Atom tree into a flat list of
// conversation items (Bridge's ConversationItem idea), each already carrying the standalone row
// it would draw as. Tool calls are paired with their results by id here; tool-name knowledge is
// delegated to tools.ts. Grouping (grouping.ts) reads only item.type, item.turnIndex and status.
// The items of one atom are made in item-atoms.ts and item-calls.ts; item-base.ts has the shapes.

import type { Session, Turn } from '../../model/types';
import { isRecord, str } from './content';
import { assistantItems, systemItems, userItems } from './item-atoms';
import { atomMs, blocksOf, rawItem, type Item, type ItemContext } from './item-base';
import type { PairedResult } from './tools';

export { atomMs, authorView, type Item, type ItemContext, type ItemType } from './item-base';

/** Every tool_result in the session by tool_use_id (first wins), with the line it came from. */
export function pairResults(session: Session): Map<string, PairedResult> {
	const out = new Map<string, PairedResult>();
	for (const turn of session.turns) {
		for (const a of turn.atoms) {
			if (a.type !== 'user') continue;
			for (const b of blocksOf(a)) {
				if (!isRecord(b) || b.type !== 'tool_result') continue;
				const id = str(b.tool_use_id);
				if (id === null || out.has(id)) continue;
				out.set(id, { block: b, uuid: a.uuid, ms: atomMs(a), toolUseResult: a.toolUseResult });
			}
		}
	}
	return out;
}

function callIds(session: Session): Set<string> {
	const ids = new Set<string>();
	for (const turn of session.turns)
		for (const a of turn.atoms)
			if (a.type === 'assistant')
				for (const b of blocksOf(a)) if (isRecord(b) && b.type === 'tool_use' && typeof b.id === 'string') ids.add(b.id);
	return ids;
}

/** The turn is over: it ended, a later turn exists, or the whole session is known to be over. */
export function turnIsOver(session: Session, ti: number, sessionOver: boolean): boolean {
	return sessionOver || session.turns[ti]?.ended === true || ti < session.turns.length - 1;
}

/** Items of one turn (in atom order), with prose split over lines of one message merged. */
export function turnItems(
	session: Session,
	ti: number,
	ctx: ItemContext,
	known: Set<string>,
	results: Map<string, PairedResult>
): Item[] {
	const turn: Turn = session.turns[ti];
	const over = turnIsOver(session, ti, ctx.sessionOver);
	const out: Item[] = [];
	for (const a of turn.atoms) {
		let items: Item[];
		if (a.type === 'idle') continue;
		else if (a.type === 'user') items = userItems(ctx, a, ti, known);
		else if (a.type === 'assistant') items = assistantItems(ctx, a, ti, results, over);
		else if (a.type === 'system') items = systemItems(ctx, a, ti);
		else items = [rawItem(ctx, a, ti, `Unrecognized atom: ${String(a.type)}`, a)];
		for (const it of items) {
			const prev = out[out.length - 1];
			if (
				it.type === 'prose' &&
				prev?.type === 'prose' &&
				it.messageId !== null &&
				prev.messageId === it.messageId &&
				prev.row.kind === 'assistant' &&
				it.row.kind === 'assistant'
			) {
				prev.row.text += `\n\n${it.row.text}`;
				for (const u of it.row.atomUuids) if (!prev.row.atomUuids.includes(u)) prev.row.atomUuids.push(u);
				continue;
			}
			out.push(it);
		}
	}
	return out;
}

/** One turn's call ids and its results (the first per call id), kept per Turn object: a live
 *  build returns unchanged turns as the same objects, so a tail rebuild reads them once. */
interface TurnIds {
	calls: Set<string>;
	results: Map<string, PairedResult>;
}
const turnIdsCache = new WeakMap<Turn, TurnIds>();
function turnIds(turn: Turn): TurnIds {
	let ids = turnIdsCache.get(turn);
	if (!ids) {
		ids = { calls: callIds({ turns: [turn] } as Session), results: pairResults({ turns: [turn] } as Session) };
		turnIdsCache.set(turn, ids);
	}
	return ids;
}

/** The ids the tail (turns from `fromTurn` on) asks about, answered over the whole session:
 *  the first result of each tail call, and which tail results have a call. The same answers as
 *  pairResults / callIds for those ids, without walking every atom of the session each time. */
function tailIds(session: Session, fromTurn: number): { known: Set<string>; results: Map<string, PairedResult> } {
	const askCalls = new Set<string>();
	const askResults = new Set<string>();
	for (let ti = fromTurn; ti < session.turns.length; ti++) {
		const ids = turnIds(session.turns[ti]);
		for (const id of ids.calls) askCalls.add(id);
		for (const id of ids.results.keys()) askResults.add(id);
	}
	const results = new Map<string, PairedResult>();
	const known = new Set<string>();
	for (const turn of session.turns) {
		if (askCalls.size === results.size && askResults.size === known.size) break;
		const ids = turnIds(turn);
		for (const id of askCalls) {
			const r = results.has(id) ? undefined : ids.results.get(id);
			if (r) results.set(id, r);
		}
		for (const id of askResults) if (ids.calls.has(id)) known.add(id);
	}
	return { known, results };
}

/** Items of a whole session, turn by turn (from `fromTurn` on: the tail a live append changed). */
export function buildItems(session: Session, ctx: ItemContext, fromTurn = 0): Item[] {
	const { results, known } = fromTurn > 0 ? tailIds(session, fromTurn) : { results: pairResults(session), known: callIds(session) };
	const out: Item[] = [];
	for (let ti = Math.max(0, fromTurn); ti < session.turns.length; ti++) out.push(...turnItems(session, ti, ctx, known, results));
	return out;
}

/** Tool calls made anywhere in a session (a subagent's step count). */
export function countToolCalls(session: Session): number {
	let n = 0;
	for (const turn of session.turns)
		for (const a of turn.atoms)
			if (a.type === 'assistant') for (const b of blocksOf(a)) if (isRecord(b) && b.type === 'tool_use') n++;
	return n;
}
