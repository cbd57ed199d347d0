import { describe, expect, it } from 'vitest';
import { peopleOf, personOf } from './person.ts';

describe('personOf', () => {
	it('is the folder above projects/ or .claude/projects/', () => {
		expect(personOf('team/alice/projects/-home-alice-app')).toBe('alice');
		expect(personOf('team/bob/.claude/projects/-home-bob-api')).toBe('bob');
		expect(personOf('bob/.claude/projects/-home-bob-api')).toBe('bob');
		expect(personOf('carol/projects/-x/sub')).toBe('carol');
	});

	it('is null for a dropped projects or .claude folder, or a lone project', () => {
		expect(personOf('projects/-home-u-app')).toBeNull();
		expect(personOf('.claude/projects/-home-u-app')).toBeNull();
		expect(personOf('-home-u-app')).toBeNull();
		expect(personOf('team/alice/projects')).toBeNull();
		expect(personOf('')).toBeNull();
	});

	it('peopleOf is a dimension only with two people or more', () => {
		expect(peopleOf(['t/bob/projects/a', 't/alice/projects/b', 't/bob/projects/c'])).toEqual(['alice', 'bob']);
		expect(peopleOf(['t/bob/projects/a', 'projects/x'])).toEqual([]);
	});
});
