import { describe, expect, it } from 'vitest';
import { allowedOrigins, classifyAddress, pathStyleBucket, rootName } from './address.ts';
import { safeRelPath, safeSegment, versionNumber } from './names.ts';

describe('classifyAddress', () => {
	it('tells one file from a folder, a manifest, a bucket and a GitHub folder', () => {
		expect(classifyAddress('https://gist.githubusercontent.com/u/1/raw/s.jsonl')).toEqual({ kind: 'file', url: 'https://gist.githubusercontent.com/u/1/raw/s.jsonl' });
		expect(classifyAddress('http://127.0.0.1:9/team/projects')).toEqual({ kind: 'folder', url: 'http://127.0.0.1:9/team/projects/' });
		expect(classifyAddress('http://h/x/loupe.json')).toEqual({ kind: 'manifest', url: 'http://h/x/loupe.json' });
		expect(classifyAddress('https://team-logs.s3.eu-west-1.amazonaws.com/alice/projects/')).toEqual({ kind: 's3', endpoint: 'https://team-logs.s3.eu-west-1.amazonaws.com/', bucket: 'team-logs', prefix: 'alice/projects/' });
		expect(classifyAddress('https://s3.us-east-2.amazonaws.com/team-logs/alice')).toEqual({ kind: 's3', endpoint: 'https://s3.us-east-2.amazonaws.com/team-logs/', bucket: 'team-logs', prefix: 'alice/' });
		expect(classifyAddress('https://team.s3.amazonaws.com/')).toMatchObject({ kind: 's3', bucket: 'team', prefix: '' });
		expect(classifyAddress('https://github.com/o/r/tree/main/.claude/projects')).toEqual({ kind: 'github', owner: 'o', repo: 'r', ref: 'main', path: '.claude/projects' });
		expect(classifyAddress('https://github.com/o/r')).toEqual({ kind: 'github', owner: 'o', repo: 'r', ref: 'HEAD', path: '' });
	});

	it('refuses what it cannot open, in one sentence', () => {
		expect(classifyAddress('file:///etc/')).toMatchObject({ kind: 'invalid' });
		expect(classifyAddress('https://u:p@h/x/')).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/credentials/) });
		expect(classifyAddress('https://github.com/o/r/blob/main/x.jsonl')).toMatchObject({ kind: 'invalid' });
		expect(classifyAddress('not a url')).toMatchObject({ kind: 'invalid' });
	});

	it('reads a folder as a path-style bucket', () => {
		expect(pathStyleBucket('http://127.0.0.1:4/logs/team/projects/')).toEqual({ kind: 's3', endpoint: 'http://127.0.0.1:4/logs/', bucket: 'logs', prefix: 'team/projects/' });
		expect(pathStyleBucket('http://127.0.0.1:4/logs/')).toMatchObject({ prefix: '' });
		expect(pathStyleBucket('http://127.0.0.1:4/')).toBeNull();
	});

	it('allows the address’s own origin, and GitHub’s API and raw hosts for a GitHub folder', () => {
		expect(allowedOrigins(classifyAddress('http://127.0.0.1:9/p/'))).toEqual(['http://127.0.0.1:9']);
		expect(allowedOrigins(classifyAddress('https://github.com/o/r/tree/main/p'))).toEqual(['https://api.github.com', 'https://raw.githubusercontent.com']);
		expect(allowedOrigins(classifyAddress('https://github.com/o/r/tree/main/p'), { api: 'http://127.0.0.1:5', raw: 'http://127.0.0.1:5' })).toEqual(['http://127.0.0.1:5', 'http://127.0.0.1:5']);
	});

	it('names the tree as a dropped folder is named', () => {
		expect(rootName(classifyAddress('http://h/a/projects/'))).toBe('projects');
		expect(rootName(classifyAddress('http://h/'))).toBe('h');
		expect(rootName(classifyAddress('http://h/x/loupe.json'))).toBe('x');
		expect(rootName(classifyAddress('https://github.com/o/r/tree/main/.claude/projects'))).toBe('projects');
		expect(rootName(classifyAddress('https://github.com/o/r'))).toBe('r');
	});
});

describe('names', () => {
	it('safeSegment decodes a name, refusing dot-dot, separators (encoded too) and control characters', () => {
		expect(safeSegment('a%20b.jsonl')).toBe('a b.jsonl');
		for (const bad of ['..', '.', '%2e%2e', 'a%2Fb', 'a%5cb', 'a%00', '%E0%A4%A', '']) expect(safeSegment(bad)).toBeNull();
	});

	it('safeRelPath keeps plain relative paths only', () => {
		expect(safeRelPath('a/b c.jsonl', false)).toBe('a/b c.jsonl');
		for (const bad of ['../a', 'a/../../b', '/abs', 'a//b', 'a\\b', 'a/%2e%2e/b']) expect(safeRelPath(bad, false)).toBeNull();
	});

	it('versionNumber: dates as their time, tags as a stable 48-bit number that changes with the tag', () => {
		expect(versionNumber('Mon, 07 Dec 2026 10:00:00 GMT')).toBe(Date.UTC(2026, 11, 7, 10));
		expect(versionNumber('"abc"')).toBe(versionNumber('"abc"'));
		expect(versionNumber('"abc"')).not.toBe(versionNumber('"abd"'));
		expect(Number.isSafeInteger(versionNumber('5f2c7d9b0e'))).toBe(true);
		expect(versionNumber(null)).toBe(0);
	});
});
