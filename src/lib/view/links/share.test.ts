import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeShare, encodeShare, fromBase64Url, SHARE_VERSION, toBase64Url, type ShareFile } from './share.ts';

async function payloadOf(files: ShareFile[]): Promise<string> {
	const r = await encodeShare(files);
	if (!r.ok) throw new Error(r.message);
	return r.payload;
}

/** Builds a payload by hand: version byte + deflate-raw(bytes). */
async function rawPayload(version: number, body: Uint8Array): Promise<string> {
	const def = new Uint8Array(await new Response(new Blob([body as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
	return toBase64Url(Uint8Array.of(version, ...def));
}

describe('base64url', () => {
	it('matches Node\'s base64url for every length remainder', () => {
		fc.assert(
			fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
				const ours = toBase64Url(bytes);
				expect(ours).toBe(Buffer.from(bytes).toString('base64url'));
				expect(Array.from(fromBase64Url(ours) ?? [])).toEqual(Array.from(bytes));
			})
		);
	});

	it('rejects characters outside the alphabet and impossible lengths', () => {
		expect(fromBase64Url('ab+c')).toBeNull();
		expect(fromBase64Url('abcde')).toBeNull();
		expect(fromBase64Url('é')).toBeNull();
	});
});

describe('share payload', () => {
	it('starts with the version byte and uses only base64url characters', async () => {
		const p = await payloadOf([{ name: 's.jsonl', text: '{"type":"user"}\n' }]);
		expect(p).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(fromBase64Url(p)![0]).toBe(SHARE_VERSION);
	});

	it('round-trips any list of files exactly (unicode and lone surrogates included)', async () => {
		const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ unit: fc.nat({ max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 200 }));
		await fc.assert(
			fc.asyncProperty(fc.array(fc.record({ name: fc.string({ maxLength: 40 }), text }), { maxLength: 5 }), async (files) => {
				expect(await decodeShare(await payloadOf(files))).toEqual({ ok: true, files });
			}),
			{ numRuns: 150 }
		);
	});

	it('compresses a repetitive transcript well', async () => {
		const line = JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: 'hello' }] } });
		const p = await payloadOf([{ name: 'a.jsonl', text: `${line}\n`.repeat(2000) }]);
		expect(p.length).toBeLessThan(2000);
	});

	it('refuses to encode a session whose payload would exceed the limit', async () => {
		const r = await encodeShare([{ name: 'big.jsonl', text: 'x'.repeat(5000) }], 10);
		expect(r.ok).toBe(false);
		if (!r.ok) {
			expect(r.message).toMatch(/too large to travel inside a link/);
			expect(r.chars).toBeGreaterThan(10);
		}
	});

	it('refuses more files than a link may carry (decode would reject them)', async () => {
		const files = Array.from({ length: 1001 }, (_, i) => ({ name: `f${i}`, text: '' }));
		const r = await encodeShare(files);
		expect(r.ok).toBe(false);
		const ok = await encodeShare(files.slice(0, 1000));
		expect(ok.ok && (await decodeShare(ok.payload)).ok).toBe(true);
	});

	it('answers damaged links with one sentence per failure', async () => {
		const good = await payloadOf([{ name: 'a', text: 'b' }]);
		const cases: [unknown, RegExp][] = [
			['', /no session/],
			[undefined, /no session/],
			['abc$', /damaged/],
			['A'.repeat(1_500_001), /too long/],
			[`C${good.slice(1)}`, /version/],
			[good.slice(0, good.length - 3), /damaged or cut short/],
			[await rawPayload(1, new TextEncoder().encode('{"not":"a list"}')), /not to a list/],
			[await rawPayload(1, new TextEncoder().encode('[["a", 3]]')), /not to a list/],
			[await rawPayload(1, new TextEncoder().encode('[["a"')), /cut short/],
			[await rawPayload(1, Uint8Array.of(0xff, 0xfe)), /cut short/]
		];
		for (const [payload, message] of cases) {
			const r = await decodeShare(payload);
			expect(r.ok, String(payload).slice(0, 20)).toBe(false);
			if (!r.ok) {
				expect(r.message).toMatch(message);
				expect(r.message.split(/[.;]\s/).length).toBeLessThanOrEqual(2);
			}
		}
	});

	it('stops a decompression bomb instead of expanding it', async () => {
		const bomb = await rawPayload(1, new Uint8Array(70 * 1024 * 1024));
		expect(bomb.length).toBeLessThan(200_000);
		expect(await decodeShare(bomb)).toEqual({ ok: false, message: expect.stringMatching(/more data/) });
	});

	it('tolerates whitespace a mail client wrapped into the link', async () => {
		const files = [{ name: 'x.jsonl', text: 'hi' }];
		const p = await payloadOf(files);
		const wrapped = `${p.slice(0, 5)}\n ${p.slice(5)}`;
		expect(await decodeShare(wrapped)).toEqual({ ok: true, files });
	});

	it('never throws on random corruption or truncation of a valid payload', async () => {
		const p = await payloadOf([
			{ name: 'session.jsonl', text: '{"type":"user","uuid":"u1","message":{"content":"héllo 🌍"}}\n'.repeat(20) },
			{ name: 'states/s.jsonl', text: '{"t":1,"state":"idle"}\n' }
		]);
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
		await fc.assert(
			fc.asyncProperty(
				fc.nat({ max: p.length }),
				fc.array(fc.tuple(fc.nat({ max: p.length - 1 }), fc.constantFrom(...alphabet, '%', '#', ' ')), { maxLength: 6 }),
				async (cut, edits) => {
					const chars = p.slice(0, cut).split('');
					for (const [at, c] of edits) if (at < chars.length) chars[at] = c;
					const r = await decodeShare(chars.join(''));
					if (r.ok) {
						for (const f of r.files) expect(typeof f.text).toBe('string');
					} else {
						expect(r.message.length).toBeGreaterThan(10);
					}
				}
			),
			{ numRuns: 300 }
		);
	});
});
