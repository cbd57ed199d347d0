import { describe, expect, it } from 'vitest';
import { SessionTextCache } from './cache.ts';
import type { SearchField } from './fields.ts';

const field = (text: string): SearchField => ({ text, kind: 'prompt', author: 'you', tool: null, atomUuid: 'u', row: 0, turnIndex: 0, ms: null, opens: [], subagent: [], rewound: false });

describe('SessionTextCache', () => {
	it('keeps the most recent sessions within the character budget', () => {
		const c = new SessionTextCache(10);
		c.set('a', [field('aaaa')]);
		c.set('b', [field('bbbb')]);
		expect(c.chars).toBe(8);
		c.set('c', [field('cccc')]);
		expect(c.get('a')).toBeUndefined();
		expect(c.get('b')?.chars).toBe(4);
		expect(c.chars).toBe(8);
		// One session over budget alone is still kept (it is the one being searched).
		c.set('big', [field('x'.repeat(50))]);
		expect(c.get('big')?.chars).toBe(50);
		expect(c.chars).toBe(50);
		// Setting a key again replaces it, never counts it twice.
		c.set('big', [field('yy')]);
		expect(c.chars).toBe(2);
	});

	it('tells which sessions it dropped for the budget (a search pool routes by what is kept)', () => {
		const dropped: string[] = [];
		const c = new SessionTextCache(10, (k) => dropped.push(k));
		c.set('a', [field('aaaa')]);
		c.set('b', [field('bbbb')]);
		c.set('a', [field('aaaa')]);
		expect(dropped).toEqual([]);
		c.set('c', [field('cccccc')]);
		expect(dropped).toEqual(['b']);
		expect(c.get('b')).toBeUndefined();
	});
});
