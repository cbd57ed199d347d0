// The parts of the Markdown stage apart from marked (`markdown-html.ts` is the renderer itself):
// the highlighter's lazy loading, the URI rules both the renderer and DOMPurify use (the page's
// sanitizer imports SAFE_URI_RE from here, and nothing else), HTML escaping. Pure: no DOM.

import type { Highlight } from './highlight.ts';

// highlight.js and its languages load on first use, where the renderer runs: in the Markdown
// worker for a block with code (markdownToHtmlWithCode), in the engine worker for an HTML export.
// Until they are there a code block is plain escaped text.
let highlighter: Highlight | null = null;
let loading: Promise<void> | null = null;

/** Loads highlight.js and its languages once; code blocks are highlighted from then on. */
export function loadHighlighter(): Promise<void> {
	return (loading ??= import('./highlight.ts').then((m) => {
		highlighter = m.highlight;
	}));
}

export const highlighterReady = (): boolean => highlighter !== null;

/** Whether `src` has a fenced code block naming a language (the only blocks highlighted). */
export const hasHighlightableCode = (src: string): boolean => /^ {0,3}(?:`{3,}|~{3,})[ \t]*[A-Za-z]/m.test(src);

const ALIASES: Record<string, string> = {
	sh: 'bash', shell: 'bash', zsh: 'bash', console: 'bash', js: 'javascript', jsx: 'javascript', mjs: 'javascript',
	ts: 'typescript', tsx: 'typescript', py: 'python', rs: 'rust', html: 'xml', svg: 'xml', svelte: 'xml', yml: 'yaml',
	patch: 'diff', jsonl: 'json'
};

/**
 * URIs allowed in sanitized HTML (DOMPurify's ALLOWED_URI_REGEXP): http(s), mailto, raster data:
 * images, and scheme-less (relative / fragment) references. javascript:, vbscript:, data:text/html
 * and every other scheme fail.
 */
export const SAFE_URI_RE = /^(?:(?:https?|mailto):|data:image\/(?:png|jpeg|gif|webp);base64,|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;
export const DATA_IMAGE_RE = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export function escapeHtml(s: string): string {
	return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Decode the character references marked may leave in an href, so `jav&#x61;script:` is seen for what it is. */
function decodeRefs(s: string): string {
	return s
		.replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
		.replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Math.min(parseInt(d, 10), 0x10ffff)))
		.replace(/&colon;/gi, ':')
		.replace(/&(?:tab|newline);/gi, '')
		.replace(/&amp;/gi, '&');
}

/** The href to emit, or null when the link must render as text. */
export function safeHref(href: string): string | null {
	let decoded: string;
	try {
		decoded = decodeRefs(decodeURI(href));
	} catch {
		decoded = decodeRefs(href);
	}
	// Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
	const squashed = decoded.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
	const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squashed);
	if (scheme && !/^(https?|mailto)$/i.test(scheme[1])) return null;
	if (!SAFE_URI_RE.test(squashed)) return null;
	return href;
}

/** A fenced block's code as HTML: highlighted once highlight.js is here, else escaped text. */
export function highlightCode(code: string, lang: string | undefined): { html: string; lang: string } {
	const name = (lang ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
	const resolved = ALIASES[name] ?? name;
	const html = resolved && highlighter && code.length < 100_000 ? highlighter(code, resolved) : null;
	if (html !== null) return { html, lang: resolved };
	return { html: escapeHtml(code), lang: '' };
}
