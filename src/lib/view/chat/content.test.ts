// Readers over untrusted content: images, tool-result text, JSON views.
import { describe, expect, it } from 'vitest';
import { imageOf, lastLine, resultText, toJson } from './content';

describe('content readers', () => {
	it('imageOf accepts only base64 rasters of allowed types', () => {
		const ok = imageOf({ type: 'image', source: { type: 'base64', media_type: 'image/webp', data: 'UklGRg==' } });
		expect(ok?.dataUrl).toBe('data:image/webp;base64,UklGRg==');
		expect(imageOf({ type: 'image', source: { type: 'url', url: 'https://x/y.png' } })?.dataUrl).toBe('');
		expect(imageOf({ type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: 'PHN2Zz4=' } })?.dataUrl).toBe('');
		expect(imageOf({ type: 'text', text: 'x' })).toBeNull();
	});
	it('resultText joins text parts and never throws on odd shapes', () => {
		expect(resultText([{ type: 'text', text: 'a' }, { type: 'image', source: {} }, { type: 'text', text: 'b' }])).toBe('a\nb');
		expect(resultText(null)).toBe('');
		expect(resultText({ weird: 1 })).toContain('"weird": 1');
	});
	it('toJson elides long base64 payloads', () => {
		const json = toJson({ data: 'A'.repeat(5000), keep: 'short' });
		expect(json).toContain('…(5,000 base64 characters)');
		expect(json).toContain('"keep": "short"');
	});
	it('lastLine is the preview of a thought', () => {
		expect(lastLine('first\nsecond\n\n')).toBe('second');
	});
});
