import { describe, expect, it } from 'vitest';
import type { Atom } from '../../model/types.ts';
import { collectCalls, tokensOf } from './messages.ts';

const line = (uuid: string, id: string | undefined, output: number, extra: Record<string, unknown> = {}): Atom => ({
	type: 'assistant',
	uuid,
	session_id: 'S',
	t: 100,
	ms: 100_000,
	messageId: id,
	message: { role: 'assistant', model: 'claude-x', content: [{ type: 'text', text: uuid }], usage: { input_tokens: 10, output_tokens: output, ...extra } }
});

describe('collectCalls', () => {
	it('one message split over lines is one call with the last line’s usage', () => {
		const calls = collectCalls([line('a', 'm1', 1), line('b', 'm1', 40)]);
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ key: 'm1', output: 40, input: 10, atomUuid: 'a', firstIndex: 0 });
	});
	it('a message already counted elsewhere (a replay) is not counted again', () => {
		const seen = new Set<string>();
		expect(collectCalls([line('a', 'm1', 5)], seen)).toHaveLength(1);
		expect(collectCalls([line('c', 'm1', 5), line('d', 'm2', 5)], seen).map((c) => c.key)).toEqual(['m2']);
	});
	it('a line without message.id is its own call; user lines and usage-less lines are none', () => {
		const noUsage: Atom = { ...line('e', 'm3', 0), message: { role: 'assistant', content: [] } };
		const user: Atom = { type: 'user', uuid: 'u', session_id: 'S', t: 1, message: { role: 'user', content: [] } };
		expect(collectCalls([line('x', undefined, 1), line('y', undefined, 1), noUsage, user]).map((c) => c.key)).toEqual(['x', 'y']);
	});
});

describe('tokensOf', () => {
	it('splits 5-minute and 1-hour cache writes where the record says so', () => {
		expect(tokensOf({ cache_creation_input_tokens: 300, cache_creation: { ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 200 } })).toMatchObject({ cacheWrite: 300, cacheWrite5m: 100, cacheWrite1h: 200 });
		expect(tokensOf({ cache_creation_input_tokens: 300 })).toMatchObject({ cacheWrite5m: 300, cacheWrite1h: 0 });
	});
	it('ignores values that are not counts', () => {
		expect(tokensOf({ input_tokens: -4, output_tokens: Number.NaN, cache_read_input_tokens: '7' as unknown as number })).toMatchObject({ input: 0, output: 0, cacheRead: 0 });
	});
});
