// Markdown → HTML for assistant prose, plans, skills and thoughts: GFM via marked, code blocks
// highlighted by highlight.js once it is loaded (markdown.ts). This stage is already defensive —
// raw HTML in the source is escaped as text, links with a scheme other than http(s)/mailto become
// plain text, images only from data: URLs of raster types — and the components run its output
// through DOMPurify (SAFE_URI_RE) before it reaches the DOM. Not on the boot path: the page's
// blocks are rendered in the Markdown worker (worker/markdown.worker.ts), an HTML export's in the
// engine worker when it is made. Pure: no DOM, so it runs (and is tested) in Node.

import { Marked, type Tokens } from 'marked';
import { DATA_IMAGE_RE, escapeHtml, hasHighlightableCode, highlightCode as highlight, highlighterReady, loadHighlighter, safeHref } from './markdown.ts';

const md = new Marked({ gfm: true, breaks: false });
md.use({
	renderer: {
		html(token: Tokens.HTML | Tokens.Tag): string {
			return escapeHtml(token.text);
		},
		code(token: Tokens.Code): string {
			const { html, lang } = highlight(token.text, token.lang);
			const cls = lang ? `hljs language-${lang}` : 'hljs';
			return `<div class="code-block"><button type="button" class="copy" data-copy="code" aria-label="Copy code">Copy</button><pre><code class="${cls}">${html}</code></pre></div>\n`;
		},
		link(token: Tokens.Link): string {
			const inner = this.parser.parseInline(token.tokens);
			const href = safeHref(token.href);
			if (href === null) return inner;
			const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
			return `<a href="${escapeHtml(href)}"${title} rel="noopener noreferrer" target="_blank">${inner}</a>`;
		},
		image(token: Tokens.Image): string {
			const alt = escapeHtml(token.text || 'image');
			if (DATA_IMAGE_RE.test(token.href)) return `<img src="${escapeHtml(token.href)}" alt="${alt}">`;
			// Remote images are never fetched (privacy, CSP): show where the image was.
			const href = safeHref(token.href);
			return href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer" target="_blank">[image: ${alt}]</a>` : `[image: ${alt}]`;
		}
	}
});

/** Markdown source → HTML (still to be sanitized by DOMPurify before insertion). */
export function markdownToHtml(src: string): string {
	const out = md.parse(src, { async: false });
	return typeof out === 'string' ? out : '';
}

/** The same, with highlight.js loaded first when the source has code to highlight (what the
 *  Markdown worker runs for the page). */
export async function markdownToHtmlWithCode(src: string): Promise<string> {
	if (!highlighterReady() && hasHighlightableCode(src)) await loadHighlighter();
	return markdownToHtml(src);
}
