import { describe, expect, it } from 'vitest';
import { scopeOf, SEARCH_SCOPES } from './scopes.ts';

describe('search scopes', () => {
	it('offers three scopes named for what a person means', () => {
		expect(SEARCH_SCOPES.map((s) => s.label)).toEqual(['This session', 'This project', 'Everything']);
	});

	it('keeps the old names as aliases; anything else is the session', () => {
		expect(['history', 'loaded', 'cached', 'everything'].map(scopeOf)).toEqual(['everything', 'everything', 'everything', 'everything']);
		expect(scopeOf('project')).toBe('project');
		expect(scopeOf('session')).toBe('session');
		expect(scopeOf(undefined)).toBe('session');
		expect(scopeOf('toString')).toBe('session');
		expect(scopeOf('constructor')).toBe('session');
	});
});
