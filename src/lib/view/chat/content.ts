// Small readers over untrusted content blocks and tool results: text joining, image
// validation (data: URLs of allow-listed raster types only), safe JSON pretty-printing and
// string capping. Everything tolerates any shape, because transcripts are untrusted.

import type { ImageRef } from './types';

/** Raster types an <img> may show. SVG is excluded on purpose: it can carry script. */
export const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;
/** Largest output kept per tool result; the rest is summarised, so one huge log cannot bloat a row. */
export const OUTPUT_CAP = 200_000;

export function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | null {
	return typeof v === 'string' ? v : null;
}

export function num(v: unknown): number | null {
	return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function cap(s: string, max = OUTPUT_CAP): string {
	return s.length > max ? `${s.slice(0, max)}\n…(${s.length - max} more characters not shown)` : s;
}

const LONG_BASE64_RE = /^[A-Za-z0-9+/\s]{1000,}={0,2}$/;

/** Long base64 payloads (images, PDFs) are summarised in JSON views instead of dumped. */
function elideBlobs(_key: string, value: unknown): unknown {
	return typeof value === 'string' && value.length >= 1000 && LONG_BASE64_RE.test(value.slice(0, 4000))
		? `…(${value.length.toLocaleString('en')} base64 characters)`
		: value;
}

/** Pretty JSON that never throws, with long base64 payloads elided. */
export function toJson(v: unknown, max = OUTPUT_CAP): string {
	try {
		const s = JSON.stringify(v, elideBlobs, 2);
		return cap(s ?? String(v), max);
	} catch {
		return String(v);
	}
}

/**
 * Base64 check. Multi-megabyte images are checked at both ends only (a full scan costs ~7 ms/MB
 * on every build); the middle cannot do harm either way, because the data URL only ever reaches
 * the DOM as an attribute value set by the framework, never as HTML.
 */
function looksBase64(data: string): boolean {
	if (data.length <= 65_536) return BASE64_RE.test(data);
	return /^[A-Za-z0-9+/]+$/.test(data.slice(0, 8192)) && BASE64_RE.test(data.slice(-8192));
}

/**
 * An image block (`{type:'image', source:{type:'base64', media_type, data}}`) as an ImageRef.
 * Anything not provably a base64 raster of an allowed type yields an ImageRef with an empty
 * dataUrl, so the UI can say "image not shown" instead of silently dropping it.
 */
export function imageOf(block: unknown): ImageRef | null {
	if (!isRecord(block) || block.type !== 'image') return null;
	const src = isRecord(block.source) ? block.source : null;
	const mediaType = src ? (str(src.media_type) ?? '') : '';
	const data = src ? str(src.data) : null;
	const ok =
		src !== null &&
		src.type === 'base64' &&
		IMAGE_TYPES.includes(mediaType) &&
		data !== null &&
		data.length > 0 &&
		looksBase64(data);
	if (!ok) return { mediaType: mediaType.slice(0, 80), dataUrl: '', bytes: 0 };
	return { mediaType, dataUrl: `data:${mediaType};base64,${data}`, bytes: Math.floor((data.length * 3) / 4) };
}

/** Text of a tool_result's `content`: a string, or its text parts joined by newlines. */
export function resultText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return content == null ? '' : toJson(content);
	const parts: string[] = [];
	for (const b of content) {
		if (typeof b === 'string') parts.push(b);
		else if (isRecord(b)) {
			if (b.type === 'text' && typeof b.text === 'string') parts.push(b.text);
			else if (b.type === 'tool_reference') parts.push(`tool_reference: ${str(b.tool_name) ?? ''}`);
			else if (b.type !== 'image') parts.push(toJson(b));
		}
	}
	return parts.join('\n');
}

/** Images inside a tool_result's content array. */
export function resultImages(content: unknown): ImageRef[] {
	if (!Array.isArray(content)) return [];
	const out: ImageRef[] = [];
	for (const b of content) {
		const img = imageOf(b);
		if (img) out.push(img);
	}
	return out;
}

/** First non-empty line, trimmed and cut to `max` characters. */
export function firstLine(s: string, max = 120): string {
	const line = s.split('\n').find((l) => l.trim() !== '') ?? '';
	const t = line.trim();
	return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Last non-empty line, trimmed and cut to `max` characters. */
export function lastLine(s: string, max = 160): string {
	const lines = s.split('\n');
	for (let i = lines.length - 1; i >= 0; i--) {
		const t = lines[i].trim();
		if (t) return t.length > max ? `${t.slice(0, max - 1)}…` : t;
	}
	return '';
}

export function basename(p: string): string {
	const parts = p.split(/[\\/]/);
	return parts[parts.length - 1] || p;
}
