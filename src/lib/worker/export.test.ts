// Exports and links through the engine (what the worker answers): a session that arrived in a
// `#z=` link and is shared again carries none of its planted fake secrets, still opens as the
// same session, and would carry them only with redaction off.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare } from '../view/links/share.ts';
import { DEFAULT_REDACT } from '../view/redact/index.ts';
import { Engine } from './engine.ts';

const DIR = resolve(__dirname, '../../../fixtures/redaction');
const SID = '0badc0de-5ec2-4e75-9a11-000000000001';
const SECRETS = JSON.parse(readFileSync(join(DIR, 'secrets.json'), 'utf8')) as Record<string, string>;
const PATHS = [`planted/${SID}.jsonl`, `planted/${SID}/subagents/agent-a5ec2e7.jsonl`];
const inputs = () => PATHS.map((p) => ({ path: p, blob: new Blob([readFileSync(join(DIR, p))]) }));

function needles(): [string, string][] {
	return Object.keys(SECRETS).flatMap((k): [string, string][] => {
		const v = SECRETS[k];
		if (k === 'private-key') return v.split('\n').slice(1, 3).map((l): [string, string] => [k, l]);
		if (k === 'home-path') return [[k, 'alicefake']];
		if (k === 'email') return [];
		return [[k, v.replace(/^https:\/\//, '').slice(0, 40)]];
	});
}

describe('engine: links and exports', () => {
	it('a #z= link made from the redacted files carries no planted secret', async () => {
		// The session itself arrived through a link: encode the raw files, open them, share again.
		const rawFiles = await Promise.all(inputs().map(async (f) => ({ name: f.path, text: await f.blob.text() })));
		const incoming = await encodeShare(rawFiles);
		expect(incoming.ok).toBe(true);
		const opened = await decodeShare(incoming.ok ? incoming.payload : '');
		expect(opened.ok).toBe(true);
		if (!opened.ok) return;
		const engine = new Engine();
		const out = await engine.load(1, { files: opened.files.map((f) => ({ path: f.name, blob: new Blob([f.text]) })) });
		expect(out.ok).toBe(true);
		if (!out.ok) return;
		const files = await engine.shareFiles(out.sessions[0].key, DEFAULT_REDACT);
		const link = await encodeShare(files ?? []);
		const back = await decodeShare(link.ok ? link.payload : '');
		expect(back.ok).toBe(true);
		const text = back.ok ? back.files.map((f) => f.text).join('\n') : '';
		expect(needles().filter(([, n]) => text.includes(n)).map(([k]) => k)).toEqual([]);
		// The redacted link still opens as the same session shape.
		const again = await new Engine().load(2, { files: (back.ok ? back.files : []).map((f) => ({ path: f.name, blob: new Blob([f.text]) })) });
		expect(again.ok && again.sessions[0].turns).toBe(out.sessions[0].turns);
		// Unredacted, the link would carry them.
		const rawShare = (await engine.shareFiles(out.sessions[0].key, null))!.map((f) => f.text).join('\n');
		expect(rawShare).toContain(SECRETS['github-pat']);
	});

	it('exportText and exportBlob hold the same text; findings come from the input files', async () => {
		const engine = new Engine();
		const out = await engine.load(1, { files: inputs() });
		if (!out.ok) throw new Error(out.message);
		const key = out.sessions[0].key;
		const text = await engine.exportText(key, 'markdown', {});
		const blob = await engine.exportBlob(key, 'markdown', {});
		expect(await blob!.blob.text()).toBe(text!.text);
		expect(blob!.bytes).toBe(blob!.blob.size);
		const findings = await engine.scanSecrets(key, {});
		expect(findings!.map((f) => f.kind)).toContain('private-key');
		expect(await engine.exportText('no-such-session', 'markdown', {})).toBeNull();
	});
});
