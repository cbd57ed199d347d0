// Marks a search match inside the chat after a landing: finds the landed atom's element (or the
// highlighted row), the first text node holding the match, and paints it with the CSS Custom
// Highlight API (no change to the DOM Svelte owns, so nothing from the transcript is ever
// re-parsed as HTML). The element holding the match gets `data-search-landed` and is scrolled
// into view. Rows arrive from the worker and open after the landing, and Markdown blocks get their
// HTML after that, so this retries for a while.

const HIGHLIGHT = 'loupe-search';
/** One try a frame: about 2 s for the landed rows to arrive, open and get their HTML. */
const TRIES = 120;
/** A mark was painted since the last clear. The page clears on mount, when nothing is marked yet:
 *  that clear's first touch of `CSS.highlights` and its selector query took 7–17 ms of the boot's
 *  mount task at 4× CPU, for nothing to clear. */
let marked = false;

export function markMatch(atomUuid: string, match: string, isStale: () => boolean): void {
	let tries = 0;
	const attempt = () => {
		if (isStale()) return;
		if (tryMark(atomUuid, match) || ++tries >= TRIES) return;
		requestAnimationFrame(attempt);
	};
	requestAnimationFrame(attempt);
}

export function clearMark(): void {
	if (!marked) return;
	marked = false;
	(globalThis.CSS as unknown as { highlights?: Map<string, unknown> })?.highlights?.delete(HIGHLIGHT);
	for (const el of document.querySelectorAll('[data-search-landed]')) el.removeAttribute('data-search-landed');
}

function tryMark(atomUuid: string, match: string): boolean {
	const candidates = [
		...document.querySelectorAll(`main [data-atom-uuid="${CSS.escape(atomUuid)}"]`),
		...document.querySelectorAll('main .row.highlight')
	];
	if (!candidates.length) return false;
	const needle = match.toLowerCase();
	for (const root of candidates) {
		// A Markdown block still showing its source is replaced when its HTML comes: wait for it.
		if (root.querySelector('[data-md=plain]')) return false;
		const found = findText(root, needle);
		if (!found) continue;
		clearMark();
		const range = document.createRange();
		range.setStart(found.node, found.at);
		range.setEnd(found.node, found.at + needle.length);
		const Highlight = (globalThis as unknown as { Highlight?: new (r: Range) => unknown }).Highlight;
		const registry = (globalThis.CSS as unknown as { highlights?: Map<string, unknown> }).highlights;
		if (Highlight && registry) registry.set(HIGHLIGHT, new Highlight(range));
		marked = true;
		const el = found.node.parentElement;
		el?.setAttribute('data-search-landed', '');
		el?.scrollIntoView({ block: 'center' });
		return true;
	}
	return false;
}

function findText(root: Element, needle: string): { node: Text; at: number } | null {
	if (!needle) return null;
	const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const text = n.nodeValue ?? '';
		// toLowerCase keeps length for almost all text; a length change means no safe offset.
		const lower = text.toLowerCase();
		const at = lower.length === text.length ? lower.indexOf(needle) : -1;
		if (at >= 0) return { node: n as Text, at };
	}
	return null;
}
