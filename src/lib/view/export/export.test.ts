// The exports of a session full of planted fake secrets: none survives in Markdown, HTML, Strap
// JSON when redaction is on (the `#z=` link: src/lib/worker/export.test.ts) (and all are there when it is off, so the check can
// fail); unticking one finding keeps exactly that string; the Strap export validates against
// the project's schema and keeps the seed's shape (results on calls, subagents as agent.fork with
// hidden messages); the HTML export is one self-contained file with its own CSP and no script.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSessions } from '../../ingest/load-files.ts';
import type { LoadedSession } from '../../ingest/types.ts';
import { describeRedaction, makeRedactor, scanFiles } from '../redact/index.ts';
import { validateSchema } from './json-schema.ts';
import { exportSession, type ExportFormat, type ExportSource, type StrapCall, type StrapEvent, type StrapState } from './index.ts';
import schema from './strap.schema.json';

const DIR = resolve(__dirname, '../../../../fixtures/redaction');
const SID = '0badc0de-5ec2-4e75-9a11-000000000001';
const SECRETS = JSON.parse(readFileSync(join(DIR, 'secrets.json'), 'utf8')) as Record<string, string>;
const PATHS = [`planted/${SID}.jsonl`, `planted/${SID}/subagents/agent-a5ec2e7.jsonl`];
const inputs = () => PATHS.map((p) => ({ path: p, blob: new Blob([readFileSync(join(DIR, p))]) }));
const FORMATS: ExportFormat[] = ['markdown', 'html', 'strap'];

/** A distinctive piece of each planted value, as it would appear in any export (JSON / HTML escaping aside). */
function needles(kinds = Object.keys(SECRETS)): [string, string][] {
	return kinds.flatMap((k): [string, string][] => {
		const v = SECRETS[k];
		if (k === 'private-key') return v.split('\n').slice(1, 3).map((l): [string, string] => [k, l]);
		if (k === 'home-path') return [[k, 'alicefake']];
		if (k === 'email') return [];
		return [[k, v.replace(/^https:\/\//, '').slice(0, 40)]];
	});
}

export function sourceOf(l: LoadedSession): ExportSource {
	return { key: l.key, title: l.title, startedAt: l.startedAt, endedAt: l.endedAt, session: l.result.session, children: l.children, metadata: l.result.metadata };
}

async function planted(): Promise<LoadedSession> {
	const out = await loadSessions(inputs());
	expect(out.sessions).toHaveLength(1);
	return out.sessions[0];
}

const opts = (redact: boolean, keep: string[] = []) => {
	const redactor = redact ? makeRedactor({ keep }) : null;
	return { redactor, redaction: describeRedaction(redactor?.options ?? null) };
};

describe('exports of planted secrets', () => {
	it('the fixture loads with its subagent attached', async () => {
		const l = await planted();
		expect(Object.keys(l.children)).toEqual(['toolu_task']);
	});

	for (const format of FORMATS) {
		it(`${format}: no planted secret survives redaction (and all are there without it)`, async () => {
			const src = sourceOf(await planted());
			const red = (await exportSession(src, format, opts(true))).text;
			const leaks = needles().filter(([, n]) => red.includes(n)).map(([k]) => k);
			expect(leaks).toEqual([]);
			expect(red).toContain('[REDACTED:');
			const raw = (await exportSession(src, format, opts(false))).text;
			// Without redaction the secrets are there: the check above is able to fail.
			const present = needles().filter(([, n]) => raw.includes(n)).map(([k]) => k);
			expect(present.length).toBeGreaterThan(needles().length * 0.8);
		});
	}

	it('unticking one finding keeps exactly that string in every format', async () => {
		const l = await planted();
		const files = await Promise.all(inputs().map(async (f) => ({ path: f.path, text: await f.blob.text() })));
		const stripe = scanFiles(files, makeRedactor()).find((f) => f.kind === 'stripe-access-token')!;
		for (const format of FORMATS) {
			const text = (await exportSession(sourceOf(l), format, opts(true, [stripe.id]))).text;
			expect(text, format).toContain(SECRETS['stripe-access-token']);
			const others = needles(Object.keys(SECRETS).filter((k) => k !== 'stripe-access-token')).filter(([, n]) => text.includes(n));
			expect(others.map(([k]) => k), format).toEqual([]);
		}
	});
});

describe('Strap export', () => {
	const strapOf = async (): Promise<StrapState> => JSON.parse((await exportSession(sourceOf(await planted()), 'strap', opts(true))).text);

	it('validates against strap.schema.json', async () => {
		expect(validateSchema(schema, await strapOf())).toEqual([]);
	});

	it('the validator rejects what the shape forbids', () => {
		const bad = { version: 'strap.state.v0.3', actors: { humans: {}, agents: {}, runtimes: {} }, loupe: { title: '', sessionKey: '', redaction: '', leftOut: [] }, root: { type: 'scope', label: 'root', status: 'open', participants: [], children: [{ type: 'event', from: 'assistant', kind: 'message', text: 'x' }, { type: 'tool_result', from: 'harness', kind: 'message', text: '' }] } };
		const errors = validateSchema(schema, bad);
		expect(errors.some((e) => e.includes('children[0].from'))).toBe(true);
		expect(errors.some((e) => e.includes('children[1].type'))).toBe(true);
	});

	it('keeps the seed shape: results on calls, the subagent as agent.fork with hidden messages', async () => {
		const state = await strapOf();
		const events = state.root.children;
		expect(events[0]).toMatchObject({ type: 'event', from: 'user', kind: 'message' });
		const calls = events.flatMap((e: StrapEvent) => e.calls ?? []);
		const read = calls.find((c: StrapCall) => c.id === 'toolu_read')!;
		expect(read).toMatchObject({ tool: 'Read', ok: true });
		expect(read.output?.content?.[0].text).toContain('[REDACTED:stripe-access-token]');
		const fork = calls.find((c: StrapCall) => c.id === 'toolu_task')!;
		expect(fork.tool).toBe('agent.fork');
		expect(fork.input).toMatchObject({ task: 'Find where the API secret is configured.', agent: 'general-purpose' });
		expect(fork.output?.summary).toContain('[REDACTED:generic-api-key]');
		const hidden = fork.hidden?.messages ?? [];
		expect(hidden.length).toBeGreaterThan(2);
		expect(hidden.filter((e) => e.from === 'model').every((e) => e.agent === 'general-purpose')).toBe(true);
		// No result ever stands as an event of its own.
		expect(events.every((e) => e.kind === 'message' || e.kind === 'tool_request')).toBe(true);
		expect(state.loupe.leftOut.some((s) => s.includes('thinking'))).toBe(true);
	});
});

describe('HTML export', () => {
	it('is one self-contained file: its own CSP, no script, no external reference', async () => {
		const { text, bytes } = await exportSession(sourceOf(await planted()), 'html', opts(true));
		expect(bytes).toBe(new TextEncoder().encode(text).byteLength);
		const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(text)?.[1] ?? '';
		expect(csp).toContain("default-src 'none'");
		expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
		expect(text).not.toMatch(/<script|<link|<iframe|\son\w+=|javascript:/i);
		expect(text).not.toMatch(/\b(?:src|href)="(?!data:|#)[a-z]+:/i);
		expect(text).toContain('data-row-kind="delegation"');
	});
});

describe('Markdown export', () => {
	it('reads like the chat: prompts quoted, thinking and tool runs in <details>, diffs fenced, the subagent nested', async () => {
		const md = (await exportSession(sourceOf(await planted()), 'markdown', opts(true))).text;
		expect(md).toMatch(/^# /);
		expect(md).toContain('> Left out:');
		expect(md).toMatch(/\*\*User\*\* · 2026-11-01T09:00:01Z\n\n> Deploy is failing\./);
		expect(md).toContain('<details>\n<summary>Thought</summary>');
		expect(md).toMatch(/```diff\n--- a\/~\/projects\/shop\/deploy\/id_rsa\n\+\+\+ b\/~\/projects\/shop\/deploy\/id_rsa\n@@ -\d+,0 \+1,1 @@\n\+\[REDACTED:private-key\]/);
		expect(md).toMatch(/```sh\ncurl -H "Authorization: Bearer \[REDACTED:authorization-header\]"/);
		// The subagent's own work sits inside its delegation's <details>, before the result.
		const sub = md.indexOf('<summary>Subagent: Check the config (general-purpose)</summary>');
		const grep = md.indexOf('api_secret', sub);
		const end = md.indexOf('</details>\n\n', md.indexOf('**Result**', sub));
		expect(sub).toBeGreaterThan(0);
		expect(grep).toBeGreaterThan(sub);
		expect(grep).toBeLessThan(end);
	});
});
