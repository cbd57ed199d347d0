// A screenshot pasted while Claude works is a queued prompt whose block list holds an image
// (alone, or with text). Built through the real ingest + model pipeline from
// fixtures/model/queued-prompt-shapes: the chat shows each as a user bubble with its thumbnail,
// inside the turn it was typed in, and the whitespace-only prompt draws nothing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files';
import { buildChatRows } from './rows';
import type { ChatRow } from './types';

const FILE = resolve(__dirname, '../../../../fixtures/model/queued-prompt-shapes/dddd4444-0000-4000-8000-000000000004.jsonl');

async function rows(): Promise<ChatRow[]> {
	const out = await loadSessions([{ path: 'proj/dddd4444-0000-4000-8000-000000000004.jsonl', blob: new Blob([readFileSync(FILE)]) }]);
	expect(out.sessions).toHaveLength(1);
	return buildChatRows(out.sessions[0].result.session);
}
const userRow = (all: ChatRow[], uuid: string) => all.find((r): r is Extract<ChatRow, { kind: 'user' }> => r.kind === 'user' && r.atomUuid === uuid);

describe('queued prompts with images in the chat', () => {
	it('an image-only queued prompt is a user bubble with the image thumbnail', async () => {
		const row = userRow(await rows(), 'q-image');
		expect(row).toBeDefined();
		expect(row!.absorbed).toBe(true);
		expect(row!.text).toBe('');
		expect(row!.images).toHaveLength(1);
		expect(row!.images[0].mediaType).toBe('image/png');
		expect(row!.images[0].dataUrl.startsWith('data:image/png;base64,')).toBe(true);
		expect(row!.turnIndex).toBe(0);
	});
	it('a text + image queued prompt shows both', async () => {
		const row = userRow(await rows(), 'q-mixed');
		expect(row!.text).toBe('this is the error I see');
		expect(row!.images).toHaveLength(1);
		expect(row!.author.kind).toBe('human');
	});
	it('a whitespace-only queued prompt draws no bubble', async () => {
		const all = await rows();
		expect(all.some((r) => r.atomUuids.includes('q-blank') && r.kind === 'user')).toBe(false);
		expect(all.filter((r) => r.kind === 'user').map((r) => r.atomUuid)).toEqual(['u1', 'q-image', 'q-mixed', 'u2']);
	});
});
