// The parse CLI (scripts/parse.ts) end to end: on conformance cases in romp mode with
// --segments its output equals the pack's expected.json; --summary counts; bad usage exits 2.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs, readCase } from '../../scripts/lib/romp-case.ts';
import { UsageError, parseCliArgs } from '../../scripts/lib/parse-args.ts';

const REPO = resolve(__dirname, '../..');
const PACK = join(REPO, 'fixtures/conformance/romp');

function parseCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
	const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/parse.ts', ...args], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 });
	return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('parse CLI', () => {
	// Two candidates (leaf last) and a state log with a leaf override between them cover every flag.
	for (const name of ['resume-lineage-two-files', 'leaf-override-pending-rollback']) {
		it(`prints ${name} as the pack's expected.json (--compat romp --segments)`, () => {
			const c = readCase(join(PACK, name), name);
			const r = parseCli(cliArgs(c));
			expect(r.stderr).toBe('');
			expect(r.status).toBe(0);
			expect(JSON.parse(r.stdout)).toStrictEqual(c.expected);
		});
	}

	it('sorts keys recursively', () => {
		const c = readCase(join(PACK, 'idle-atom-from-state-log'), 'idle-atom-from-state-log');
		const r = parseCli(cliArgs(c));
		const keys: string[][] = [];
		JSON.parse(r.stdout, function (this: unknown, _k, v: unknown) {
			if (v && typeof v === 'object' && !Array.isArray(v)) keys.push(Object.keys(v));
			return v;
		});
		expect(keys.length).toBeGreaterThan(10);
		for (const k of keys) expect(k).toEqual([...k].sort());
	});

	it('--summary prints one line of counts', () => {
		const c = readCase(join(PACK, 'idle-atom-from-state-log'), 'idle-atom-from-state-log');
		const r = parseCli([...cliArgs(c), '--summary']);
		expect(r.status).toBe(0);
		expect(r.stdout.trim().split('\n')).toHaveLength(1);
		const s = JSON.parse(r.stdout) as Record<string, number>;
		expect(Object.keys(s)).toEqual(['turns', 'atoms', 'segments', 'issues', 'bytes', 'ms']);
		// expected.json: two turns, 3 + 2 atoms, one segment each.
		expect({ turns: s.turns, atoms: s.atoms, segments: s.segments, issues: s.issues }).toEqual({ turns: 2, atoms: 5, segments: 2, issues: 0 });
		expect(s.bytes).toBeGreaterThan(0);
	});

	it('exits 2 with a clear message for a missing file', () => {
		const r = parseCli(['no/such/file.jsonl']);
		expect(r.status).toBe(2);
		expect(r.stderr).toContain('leaf transcript not found: no/such/file.jsonl');
		expect(r.stdout).toBe('');
	});

	it('exits 2 for an unknown flag', () => {
		const r = parseCli([join(PACK, 'api-error-atom/4b012c0f-f47b-5969-b289-dfbda6e24979.jsonl'), '--bogus']);
		expect(r.status).toBe(2);
		expect(r.stderr).toContain('unknown option --bogus');
	});
});

describe('parseCliArgs', () => {
	it('reads every flag and drops the leaf from the candidates', () => {
		expect(
			parseCliArgs(['L.jsonl', '--candidates', 'A.jsonl,L.jsonl,B.jsonl', '--states', 'S', '--postal=M', '--now', '17', '--rompuuid', 'R',
				'--name', 'N', '--dir', '/D', '--sdk-human', '--leaf-override', 'u9', '--compat', 'romp', '--segments', '--summary'])
		).toEqual({ leaf: 'L.jsonl', candidates: ['A.jsonl', 'B.jsonl'], states: 'S', postal: 'M', now: 17, rompUuid: 'R', name: 'N', dir: '/D',
			sdkHuman: true, leafOverride: 'u9', compat: 'romp', segments: true, summary: true });
	});

	it('defaults to viewer mode with nothing else set', () => {
		expect(parseCliArgs(['L.jsonl'])).toMatchObject({ compat: 'viewer', candidates: [], now: null, rompUuid: null, dir: null, segments: false });
	});

	it.each([
		[[], 'no leaf transcript given'],
		[['a', 'b'], 'one leaf transcript expected'],
		[['L', '--now', 'soon'], '--now must be integer'],
		[['L', '--compat', 'python'], '--compat must be romp or viewer'],
		[['L', '--states'], '--states needs a value'],
		[['L', '-x'], 'unknown option -x']
	])('rejects %j', (argv, message) => {
		expect(() => parseCliArgs(argv)).toThrow(UsageError);
		expect(() => parseCliArgs(argv)).toThrow(message);
	});
});
