// The early load of a linked session (early-load.ts): the Viewer's first load of the same source
// takes it over (its files and the worker's outcome, under the first generation); a first load of
// anything else is told the early one runs, so it takes the next generation; it is taken once.
// Runs the engine on this thread (no Worker in Node), as engine-client.ts does where none starts.
import { describe, expect, it } from 'vitest';
import { encodeShare } from '../view/links/share.ts';
import { EARLY_GENERATION, startEarlyLoad, takeEarlyLoad } from './early-load.ts';
import { engineClient } from './engine-client.ts';
import { FIRST_ROWS } from '../worker/links.ts';

const line = (uuid: string, parent: string | null, type: 'user' | 'assistant', content: string) =>
	JSON.stringify({ type, uuid, parentUuid: parent, sessionId: 's-early', timestamp: '2026-01-01T00:00:00Z', message: { role: type, content } });

async function sharePayload(turns = 1): Promise<string> {
	const lines: string[] = [];
	let parent: string | null = null;
	for (let t = 1; t <= turns; t++) {
		lines.push(line(`u${t}`, parent, 'user', t === 1 ? 'open the parser' : `question ${t}`), line(`a${t}`, `u${t}`, 'assistant', t === 1 ? 'done' : `answer ${t}`));
		parent = `a${t}`;
	}
	const text = lines.join('\n') + '\n';
	const enc = await encodeShare([{ name: 's-early.jsonl', text }]);
	if (!enc.ok) throw new Error(enc.message);
	return enc.payload;
}

describe('early load', () => {
	it('hands a share link’s load to the Viewer’s first load of the same link, once', async () => {
		const payload = await sharePayload();
		startEarlyLoad({ kind: 'share', payload }, '');
		const taken = takeEarlyLoad({ kind: 'share', payload }, EARLY_GENERATION);
		if (!taken || taken === 'replaced') throw new Error('the early load was not handed over');
		expect((await taken.files).map((f) => f.path)).toEqual(['s-early.jsonl']);
		const outcome = await taken.outcome;
		expect(outcome.ok && outcome.sessions.length).toBe(1);
		// Once only: a second first-generation load of the same link loads on its own.
		expect(takeEarlyLoad({ kind: 'share', payload }, EARLY_GENERATION)).toBeNull();
	});

	it('brings the opened session’s first screen: its chat index and first rows, as the engine gives them when asked', async () => {
		const payload = await sharePayload(40);
		startEarlyLoad({ kind: 'share', payload }, '');
		const taken = takeEarlyLoad({ kind: 'share', payload }, EARLY_GENERATION);
		if (!taken || taken === 'replaced') throw new Error('the early load was not handed over');
		const outcome = await taken.outcome;
		const first = await taken.first;
		if (!outcome.ok || !first) throw new Error('no first screen');
		expect(first.key).toBe(outcome.sessions[0].key);
		const { api } = await engineClient();
		const index = await api.chatIndex(first.key);
		expect(first.index).toEqual(index);
		// 80 rows in the chat, the first batch of them sent.
		expect(index!.rows.length).toBeGreaterThan(FIRST_ROWS);
		expect(first.rows).toEqual(await api.chatRows(first.key, 0, FIRST_ROWS));
		expect(first.rows).toHaveLength(FIRST_ROWS);
	});

	it('says `replaced` to a first load of another source, and nothing to a later generation', async () => {
		const payload = await sharePayload();
		startEarlyLoad({ kind: 'share', payload }, '');
		expect(takeEarlyLoad({ kind: 'sample' }, EARLY_GENERATION)).toBe('replaced');
		startEarlyLoad({ kind: 'share', payload }, '');
		expect(takeEarlyLoad({ kind: 'share', payload }, EARLY_GENERATION + 1)).toBeNull();
		// Sources that need the page (a URL, a cached session, files) never start early.
		startEarlyLoad({ kind: 'url', url: 'https://example.invalid/x.jsonl' }, '');
		expect(takeEarlyLoad({ kind: 'url', url: 'https://example.invalid/x.jsonl' }, EARLY_GENERATION)).toBeNull();
	});
});
