// DOMPurify, configured once for transcript Markdown: only the tags marked + highlight.js emit,
// URIs restricted to SAFE_URI_RE (no javascript:, no data:text/html), every link opened in a new
// tab without opener or referrer, images only from data: raster URLs. Runs in the browser only.
import DOMPurify from 'dompurify';
import { SAFE_URI_RE } from '$lib/view/chat/markdown';

const ALLOWED_TAGS = [
	'a', 'b', 'blockquote', 'br', 'button', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
	'hr', 'i', 'img', 'input', 'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'sub', 'sup', 'table', 'tbody',
	'td', 'tfoot', 'th', 'thead', 'tr', 'ul'
];
const ALLOWED_ATTR = ['href', 'title', 'alt', 'src', 'class', 'type', 'checked', 'disabled', 'align', 'start', 'aria-label', 'data-copy', 'rel', 'target'];

let configured = false;
function configure(): void {
	if (configured) return;
	configured = true;
	DOMPurify.addHook('afterSanitizeAttributes', (node) => {
		if (node.tagName === 'A') {
			node.setAttribute('rel', 'noopener noreferrer');
			node.setAttribute('target', '_blank');
		}
		if (node.tagName === 'IMG' && !/^data:image\/(?:png|jpeg|gif|webp);base64,/i.test(node.getAttribute('src') ?? '')) {
			node.removeAttribute('src');
		}
		// GFM task-list checkboxes are display only.
		if (node.tagName === 'INPUT') {
			if (node.getAttribute('type') !== 'checkbox') node.remove();
			else node.setAttribute('disabled', '');
		}
		if (node.tagName === 'BUTTON' && node.getAttribute('data-copy') !== 'code') node.remove();
	});
}

/** Sanitize HTML produced by markdownToHtml before it is inserted with {@html}. */
export function sanitizeHtml(html: string): string {
	configure();
	return DOMPurify.sanitize(html, {
		ALLOWED_TAGS,
		ALLOWED_ATTR,
		ALLOWED_URI_REGEXP: SAFE_URI_RE,
		ALLOW_DATA_ATTR: false,
		FORBID_TAGS: ['style', 'script', 'iframe', 'object', 'embed', 'form', 'svg', 'math'],
		RETURN_TRUSTED_TYPE: false
	}) as string;
}
