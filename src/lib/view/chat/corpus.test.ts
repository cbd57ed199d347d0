// The chat rows of every real corpus session and every hostile fixture, built from the real
// ingest + model pipeline: nothing an atom says disappears (each atom with a uuid lands in some
// row, subagent atoms in their delegation's child rows), keys are unique, kinds are the contract's,
// and the rows are structured-cloneable for the worker → main thread hop.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files';
import type { InputFile, LoadedSession } from '../../ingest/types';
import type { Atom, Session } from '../../model/types';
import { buildItems } from './items';
import { buildChatRows, rowIndexOf } from './rows';
import type { ChatRow, RowKind } from './types';

const ROOT = resolve(__dirname, '../../../../fixtures');
const KINDS: RowKind[] = ['user', 'assistant', 'thinking', 'tool-group', 'tool', 'delegation', 'question', 'approval', 'compaction', 'error', 'notice', 'raw'];

function drop(dir: string): InputFile[] {
	const out: InputFile[] = [];
	const walk = (d: string): void => {
		for (const name of readdirSync(d)) {
			const p = join(d, name);
			if (statSync(p).isDirectory()) walk(p);
			else if (/\.(jsonl|json)$/.test(name)) out.push({ path: relative(ROOT, p), blob: new Blob([readFileSync(p)]) });
		}
	};
	walk(dir);
	return out;
}

function allRows(rows: ChatRow[], out: ChatRow[] = []): ChatRow[] {
	for (const r of rows) {
		out.push(r);
		if (r.kind === 'delegation' && r.childRows) allRows(r.childRows, out);
	}
	return out;
}

/** Atoms that carry something to show (empty assistant lines and idle spans draw nothing). */
function visibleAtoms(s: Session): Atom[] {
	return s.turns.flatMap((t) => t.atoms).filter((a) => {
		if (!a.uuid || a.type === 'idle') return false;
		if (a.type === 'assistant' && !a.message?.content?.length && typeof a.skillMd !== 'string' && !a.isApiError) return false;
		return true;
	});
}

async function sessionsOf(dir: string): Promise<LoadedSession[]> {
	return (await loadSessions(drop(dir))).sessions;
}

function check(s: LoadedSession): ChatRow[] {
	const rows = buildChatRows(s.result.session, s.children, { metadata: s.result.metadata });
	const flat = allRows(rows);
	const keys = flat.map((r) => r.key);
	expect(new Set(keys).size, `duplicate keys in ${s.key}`).toBe(keys.length);
	for (const r of flat) expect(KINDS).toContain(r.kind);
	const covered = new Set(flat.flatMap((r) => r.atomUuids));
	const missing = visibleAtoms(s.result.session).filter((a) => !covered.has(a.uuid as string)).map((a) => `${a.type}:${a.uuid}`);
	expect(missing, `atoms without a row in ${s.key}`).toEqual([]);
	for (const c of Object.values(s.children)) {
		const lost = visibleAtoms(c.result.session).filter((a) => !covered.has(a.uuid as string)).map((a) => `${a.type}:${a.uuid}`);
		expect(lost, `child atoms without a row (${c.toolUseId})`).toEqual([]);
	}
	expect(structuredClone(rows)).toEqual(rows);
	expect(rows.map(rowIndexOf).every((e) => e.estHeight > 0)).toBe(true);
	return rows;
}

describe('chat rows over the real corpus', () => {
	it('every session builds, loses no atom, and has unique keys', async () => {
		const sessions = await sessionsOf(join(ROOT, 'corpus'));
		expect(sessions.length).toBeGreaterThan(5);
		let delegationsWithChildren = 0;
		let diffs = 0;
		let images = 0;
		for (const s of sessions) {
			const flat = allRows(check(s));
			delegationsWithChildren += flat.filter((r) => r.kind === 'delegation' && r.childRows !== null && r.childRows.length > 0).length;
			for (const r of flat) {
				const calls = r.kind === 'tool' ? [r.call] : r.kind === 'tool-group' ? r.entries.flatMap((e) => (e.kind === 'tool' ? [e.call] : [])) : [];
				diffs += calls.filter((c) => c.diffs?.length).length;
				images += calls.reduce((n, c) => n + c.images.filter((i) => i.dataUrl).length, 0);
				if (r.kind === 'user') images += r.images.filter((i) => i.dataUrl).length;
			}
		}
		// The corpus has subagents in all three layouts, Edit/MultiEdit/Write calls, and images.
		expect(delegationsWithChildren).toBeGreaterThanOrEqual(8);
		expect(diffs).toBeGreaterThan(5);
		expect(images).toBeGreaterThan(0);
	});
});

describe('a tail build (live: from the first changed turn on)', () => {
	it('gives, for every start turn, the items a whole build gives for those turns', async () => {
		const sessions = [...(await sessionsOf(join(ROOT, 'corpus'))), ...(await sessionsOf(join(ROOT, 'hostile')))];
		let tails = 0;
		for (const s of sessions) {
			const session = s.result.session;
			const ctx = { keyPrefix: '', sessionOver: false, childSteps: () => null, childRows: () => null };
			const whole = buildItems(session, ctx);
			// A few start turns per session (every turn of a long session would be slow for nothing).
			const n = session.turns.length;
			for (const from of new Set([1, 2, Math.floor(n / 2), n - 1].filter((k) => k > 0 && k < n))) {
				expect(buildItems(session, ctx, from), `${s.key} from turn ${from}`).toEqual(whole.filter((i) => i.turnIndex >= from));
				tails++;
			}
		}
		expect(tails).toBeGreaterThan(20);
	});
});

describe('chat rows over the hostile fixtures', () => {
	it('every hostile session builds and loses no atom', async () => {
		const sessions = await sessionsOf(join(ROOT, 'hostile'));
		expect(sessions.length).toBe(4);
		const kinds = new Set(sessions.flatMap((s) => allRows(check(s)).map((r) => r.kind)));
		for (const k of ['user', 'assistant', 'thinking', 'tool-group', 'delegation', 'question', 'approval', 'compaction', 'error', 'notice', 'raw'] as const) {
			expect(kinds.has(k), k).toBe(true);
		}
	});
	it('hostile images are refused unless they are base64 rasters of an allowed type', async () => {
		const sessions = await sessionsOf(join(ROOT, 'hostile'));
		const rows = sessions.flatMap((s) => allRows(buildChatRows(s.result.session, s.children, { metadata: s.result.metadata })));
		const urls = rows.flatMap((r) => (r.kind === 'user' ? r.images : r.kind === 'tool' ? r.call.images : r.kind === 'tool-group' ? r.entries.flatMap((e) => (e.kind === 'tool' ? e.call.images : [])) : []));
		expect(urls.length).toBeGreaterThan(5);
		for (const i of urls) {
			if (i.dataUrl) expect(i.dataUrl).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/);
		}
		expect(urls.filter((i) => i.dataUrl).length).toBe(2);
	});
});
