// The Markdown stage is safe on its own (DOMPurify is a second layer in the browser): every
// string in the hostile fixtures, rendered, carries no script, no event handler, no dangerous URL.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasHighlightableCode, highlighterReady, loadHighlighter, safeHref, SAFE_URI_RE } from './markdown';
import { markdownToHtml } from './markdown-html';

const DIR = resolve(__dirname, '../../../../fixtures/hostile');

function stringsOf(v: unknown, out: string[] = []): string[] {
	if (typeof v === 'string') out.push(v);
	else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
	else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) stringsOf(k, out), stringsOf(x, out);
	return out;
}

const hostile = readdirSync(DIR)
	.filter((f) => f.endsWith('.jsonl'))
	.flatMap((f) => readFileSync(join(DIR, f), 'utf8').split('\n').filter(Boolean).flatMap((l) => stringsOf(JSON.parse(l))));

/** Problems an HTML string would have if it reached the DOM. */
function dangers(html: string): string[] {
	const found: string[] = [];
	if (/<script/i.test(html)) found.push('script tag');
	if (/<[a-z][^>]*\son[a-z]+\s*=/i.test(html)) found.push('event handler attribute');
	if (/\b(?:href|src|action|formaction|data)\s*=\s*["']?\s*(?:javascript|vbscript|data:text)/i.test(html)) found.push('dangerous URL');
	if (/<(?:iframe|object|embed|style|meta|base|form|input|button(?![^>]*data-copy)|svg|math|details|link)\b/i.test(html)) found.push('dangerous tag');
	for (const m of html.matchAll(/<img\b[^>]*>/gi)) if (!/^<img src="data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+" alt="[^"<>]*">$/.test(m[0])) found.push(`img: ${m[0]}`);
	return found;
}

describe('markdown stage against the hostile fixtures', () => {
	it('the fixtures are there and carry payloads', () => {
		expect(hostile.length).toBeGreaterThan(200);
		expect(hostile.some((s) => s.includes('<script>window.__pwned=1</script>'))).toBe(true);
	});
	it('no hostile string renders to script, handlers, dangerous URLs or tags', () => {
		const bad = hostile.map((s) => ({ s: s.slice(0, 80), d: dangers(markdownToHtml(s)) })).filter((x) => x.d.length);
		expect(bad).toEqual([]);
	});
	it('the checker itself catches what it must (so the test above can fail)', () => {
		expect(dangers('<img src=x onerror=alert(1)>')).not.toEqual([]);
		expect(dangers('<a href="javascript:alert(1)">x</a>')).not.toEqual([]);
		expect(dangers('<script>x</script>')).not.toEqual([]);
	});
	it('raw HTML in Markdown is shown as text', () => {
		expect(markdownToHtml('<script>window.__pwned=1</script>')).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
	});
	it('entity-encoded, tab-split and data: links become plain text', () => {
		for (const src of ['[a](jav&#x61;script:alert(1))', '[a](java\tscript:alert(1))', '[a](javascript&colon;alert(1))', '[a](data:text/html;base64,PHNjcmlwdD4=)', '[a](vbscript:msgbox)']) {
			expect(markdownToHtml(src)).not.toMatch(/<a /);
		}
	});
	it('safe links open in a new tab without opener or referrer', () => {
		expect(markdownToHtml('[docs](https://example.com/a?b=1&c=2)')).toContain('<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">docs</a>');
		expect(safeHref('#section')).toBe('#section');
		expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
		expect(safeHref('JavaScript:alert(1)')).toBeNull();
	});
	it('code is plain escaped text until highlight.js has loaded, then highlighted', async () => {
		const src = '```ts\nconst a: number = 1 < 2;\n```';
		expect(hasHighlightableCode(src)).toBe(true);
		expect(hasHighlightableCode('```\nplain\n```\n    indented')).toBe(false);
		if (!highlighterReady()) {
			const plain = markdownToHtml(src);
			expect(plain).toContain('const a: number = 1 &lt; 2;');
			expect(plain).not.toContain('hljs-keyword');
		}
		await loadHighlighter();
		expect(highlighterReady()).toBe(true);
		expect(markdownToHtml(src)).toContain('<span class="hljs-keyword">const</span>');
	});
	it('GFM tables, lists and highlighted code with a copy button', async () => {
		await loadHighlighter();
		const html = markdownToHtml('| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y\n\n```ts\nconst a: number = 1;\n```');
		expect(html).toContain('<table>');
		expect(html).toContain('<li>x</li>');
		expect(html).toContain('class="hljs language-typescript"');
		expect(html).toContain('<span class="hljs-keyword">const</span>');
		expect(html).toContain('data-copy="code"');
	});
	it('remote images are never loaded; raster data: images are', () => {
		expect(markdownToHtml('![x](https://tracker.example/p.png)')).not.toContain('<img');
		expect(markdownToHtml('![x](data:image/png;base64,AAAA)')).toContain('<img src="data:image/png;base64,AAAA" alt="x">');
		expect(markdownToHtml('![x](data:image/svg+xml;base64,AAAA)')).not.toContain('<img');
	});
	it('SAFE_URI_RE (DOMPurify) rejects script schemes and accepts web links', () => {
		for (const u of ['javascript:alert(1)', 'vbscript:x', 'data:text/html,<script>', 'data:image/svg+xml;base64,AA']) expect(SAFE_URI_RE.test(u)).toBe(false);
		for (const u of ['https://a.b', 'http://a', 'mailto:x@y', '#frag', '/path', 'data:image/png;base64,AA']) expect(SAFE_URI_RE.test(u)).toBe(true);
	});
});
