// Redaction as data: every rule fires on its planted fake secret, allowlists and entropy keep
// look-alikes, the same string found in many places is one finding, unticking keeps exactly that
// string, and JSONL stays loadable after redaction (identifiers untouched).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REDACT, SECRET_RULES, entropy, makeRedactor, maskPreview, redactFileText, redactJsonl, scanFiles } from './index.ts';

const DIR = resolve(__dirname, '../../../../fixtures/redaction');
const SID = '0badc0de-5ec2-4e75-9a11-000000000001';
const SECRETS = JSON.parse(readFileSync(join(DIR, 'secrets.json'), 'utf8')) as Record<string, string>;
const FILES = [
	{ path: `${SID}.jsonl`, text: readFileSync(join(DIR, 'planted', `${SID}.jsonl`), 'utf8') },
	{ path: `${SID}/subagents/agent-a5ec2e7.jsonl`, text: readFileSync(join(DIR, 'planted', SID, 'subagents', 'agent-a5ec2e7.jsonl'), 'utf8') }
];

describe('rules', () => {
	it('the fixture plants a fake secret for every rule the rule set knows', () => {
		const ruleIds = SECRET_RULES.map((r) => r.id);
		expect(ruleIds.filter((id) => !(id in SECRETS))).toEqual([]);
	});

	it('each planted secret is found by its own rule, and each is listed once', () => {
		const findings = scanFiles(FILES, makeRedactor({ emails: true }));
		const kinds = findings.map((f) => f.kind);
		expect(new Set(kinds).size).toBe(kinds.length);
		expect([...kinds].sort()).toEqual(Object.keys(SECRETS).sort());
		// The GitHub token is in the prompt, the thinking and the reply: one finding, counted thrice.
		const gh = findings.find((f) => f.kind === 'github-pat');
		expect(gh?.count).toBe(3);
		expect(gh?.places.map((p) => p.field)).toContain('message.content');
		// The generic secret also sits in the subagent's transcript.
		expect(findings.find((f) => f.kind === 'generic-api-key')?.places.some((p) => p.file.includes('subagents'))).toBe(true);
		// A preview never shows the whole secret.
		for (const f of findings) expect(f.preview).not.toContain(SECRETS[f.kind]);
	});

	it('allowlists and entropy keep look-alikes that are not secrets', () => {
		const r = makeRedactor();
		expect(r.text('aws key AKIAIOSFODNN7EXAMPLE here')).toBe('aws key AKIAIOSFODNN7EXAMPLE here');
		expect(r.text('password = "correcthorsebattery"')).toBe('password = "correcthorsebattery"'); // no digit
		expect(r.text('token: aaaaaaaaaaaaaaa1')).toBe('token: aaaaaaaaaaaaaaa1'); // low entropy
		expect(r.text('api_key = $API_KEY')).toBe('api_key = $API_KEY');
		expect(r.text('NODE_ENV=production')).toBe('NODE_ENV=production');
		expect(r.text('postgres://user:${DB_PASSWORD}@db/x')).toBe('postgres://user:${DB_PASSWORD}@db/x');
		expect(entropy('aaaa')).toBe(0);
		expect(entropy('abcd')).toBe(2);
	});

	it('redacts to [REDACTED:kind], only the secret part of a match', () => {
		const r = makeRedactor();
		expect(r.text(`export GH=${SECRETS['github-pat']}`)).toBe('export GH=[REDACTED:github-pat]');
		expect(r.text(`DATABASE_URL=postgres://shop:${SECRETS['connection-string-password']}@db:5432/shop`)).toBe(
			'DATABASE_URL=postgres://shop:[REDACTED:connection-string-password]@db:5432/shop'
		);
		expect(r.text(`${SECRETS['private-key']}\nrest`)).toBe('[REDACTED:private-key]\nrest');
	});

	it('home directories become ~, e-mail addresses and typed strings only when asked', () => {
		const on = makeRedactor({ emails: true, literals: ['Project Falcon'] });
		expect(on.text('/Users/alice/src/app and /home/bob/x and C:\\Users\\carol\\y')).toBe('~/src/app and ~/x and ~\\y');
		expect(on.text('mail bob.smith@corp.example.org about Project Falcon')).toBe('mail [REDACTED:email] about [REDACTED:literal]');
		const off = makeRedactor({ home: false });
		expect(off.text('/Users/alice/src and bob@corp.example.org')).toBe('/Users/alice/src and bob@corp.example.org');
		expect(DEFAULT_REDACT).toMatchObject({ secrets: true, home: true });
	});

	it('unticking a finding keeps exactly that string and nothing else', () => {
		const findings = scanFiles(FILES, makeRedactor());
		const gh = findings.find((f) => f.kind === 'github-pat')!;
		const r = makeRedactor({ keep: [gh.id] });
		const out = FILES.map((f) => redactFileText(f.text, r)).join('\n');
		expect(out).toContain(SECRETS['github-pat']);
		for (const [kind, value] of Object.entries(SECRETS)) {
			if (kind === 'github-pat' || kind === 'email') continue;
			expect(out, kind).not.toContain(value.split('\n')[1] ?? value);
		}
	});

	it('redacted JSONL still parses, and identifiers are untouched', () => {
		const r = makeRedactor({ emails: true });
		const before = FILES[0].text.trim().split('\n').map((l) => JSON.parse(l));
		const after = redactJsonl(FILES[0].text, r).trim().split('\n').map((l) => JSON.parse(l));
		expect(after.map((x) => [x.uuid, x.parentUuid, x.sessionId])).toEqual(before.map((x) => [x.uuid, x.parentUuid, x.sessionId]));
		expect(JSON.stringify(after)).toContain('[REDACTED:anthropic-api-key]');
		expect(after[0].cwd).toBe('~/projects/shop');
	});

	it('masks previews', () => {
		expect(maskPreview('ghp_abcdefghijklmnopqrstuvwxyz0123456789')).toBe('ghp_…89 (40 chars)');
		expect(maskPreview('hunter2')).toBe('h… (7 chars)');
		expect(maskPreview('abc')).toBe('••• (3 chars)');
	});
});
