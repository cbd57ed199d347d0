// One-file HTML export: a single self-contained page that shows the session with Loupe's rows
// (prompt bubbles, prose, thinking and tool work in <details> that expand and collapse), light /
// dark / system themes and a print stylesheet — with no script at all. Safety is layered like
// the app's: Markdown goes through the app's own Markdown stage (view/chat/markdown: raw HTML in
// the source is escaped, unsafe link schemes dropped, images only from data: URLs), every other
// string is escaped, and the file carries its own Content-Security-Policy (no script, no
// network: `default-src 'none'`, the stylesheet allowed by its hash, images only from data:).
// The app's second pass, DOMPurify (components/markdown/sanitize.ts), needs a DOM and the export
// is made in the worker, so it does not run here: the CSP without any script source takes its place.
import type { ChatRow, GroupEntry, ImageRef, ToolCallView } from '../chat/types.ts';
import { BRANCH_NOTE, diffText, isoTime, progressTicker, shorten, type ExportMeta, type OnExportProgress } from './common.ts';
import { HTML_STYLE } from './html-style.ts';

const OUT_LINES = 400;
const OUT_CHARS = 20_000;
const IMAGE_MAX_BYTES = 1_500_000;

export const HTML_LEAVES_OUT = [
	`tool outputs beyond ${OUT_LINES} lines or ${OUT_CHARS.toLocaleString('en')} characters (each cut is marked)`,
	`images larger than ${(IMAGE_MAX_BYTES / 1e6).toFixed(1)} MB`,
	'token usage and timing details'
];

export function escapeText(s: string): string {
	return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
const esc = escapeText;

type Md = (src: string) => string;

function pre(text: string | null | undefined, cls = ''): string {
	if (!text) return '';
	const s = shorten(text, OUT_LINES, OUT_CHARS);
	return `<pre${cls ? ` class="${cls}"` : ''}>${esc(s.text)}</pre>${s.cut ? `<p class="cut">${esc(s.cut)}</p>` : ''}`;
}

function images(list: ImageRef[]): string {
	if (!list.length) return '';
	// view/chat built each dataUrl only from validated base64 of an allowed raster type.
	const shown = list.filter((i) => i.bytes <= IMAGE_MAX_BYTES && /^data:image\/(?:png|jpeg|gif|webp);base64,/.test(i.dataUrl));
	const left = list.length - shown.length;
	return `<div class="imgs">${shown.map((i) => `<img src="${esc(i.dataUrl)}" alt="image (${esc(i.mediaType)})">`).join('')}${left ? `<p class="note">${left} image${left > 1 ? 's' : ''} left out (too large)</p>` : ''}</div>`;
}

function diffHtml(text: string): string {
	const s = shorten(text, OUT_LINES, OUT_CHARS);
	const lines = s.text.split('\n').map((l) => {
		const cls = l.startsWith('@@') ? 'hunk' : l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '';
		return cls ? `<span class="${cls}">${esc(l)}</span>` : `${esc(l)}\n`;
	});
	return `<pre class="diff">${lines.join('')}</pre>${s.cut ? `<p class="cut">${esc(s.cut)}</p>` : ''}`;
}

function callHtml(c: ToolCallView): string {
	const parts: string[] = [];
	const failed = c.status === 'error' ? ' <span class="failed">failed</span>' : c.status === 'no-result' ? ' <span class="note">no result recorded</span>' : '';
	parts.push(`<div class="call-title">${esc(c.title)}${failed}</div>`);
	if (c.command) parts.push(pre(`$ ${c.command}`, 'term'));
	if (c.diffs?.length) for (const d of c.diffs) parts.push(diffHtml(diffText(d)));
	else if (c.todos?.length) parts.push(`<ul>${c.todos.map((t) => `<li>${t.status === 'completed' ? '☑' : '☐'} ${esc(t.content)}</li>`).join('')}</ul>`);
	else if (!c.command) parts.push(`<details><summary>Input</summary>${pre(c.inputJson)}</details>`);
	if (!c.diffs?.length && c.renderer !== 'todo') {
		if (c.stdout !== undefined || c.stderr !== undefined) parts.push(pre(c.stdout, 'term') + pre(c.stderr, 'term'));
		else parts.push(pre(c.output));
	}
	parts.push(images(c.images));
	return `<div class="call" data-tool-id="${esc(c.id)}">${parts.join('')}</div>`;
}

function entryHtml(e: GroupEntry): string {
	if (e.kind === 'tool') return callHtml(e.call);
	return e.state === 'text' ? `<details><summary>Thought</summary><div class="thought">${esc(e.text)}</div></details>` : '<p class="note">Thought (not recorded)</p>';
}

function rowHtml(row: ChatRow, md: Md): string {
	const attrs = `class="row row-${row.kind}" data-row-kind="${row.kind}" data-atom-uuid="${esc(row.atomUuid)}"`;
	const time = row.ms !== null ? ` · <time datetime="${isoTime(row.ms)}">${isoTime(row.ms)}</time>` : '';
	switch (row.kind) {
		case 'user': {
			const who = row.command ? `${row.author.label} ran ${row.command}` : row.author.label;
			return `<div ${attrs}><div class="who">${esc(who)}${time}</div><div class="bubble">${esc(row.text)}</div>${images(row.images)}</div>`;
		}
		case 'assistant':
			return `<div ${attrs}><div class="md">${md(row.text)}</div></div>`;
		case 'thinking':
			return `<div ${attrs}>${row.state === 'text' ? `<details><summary>Thought</summary><div class="thought">${esc(row.text)}</div></details>` : '<p class="note">Thought (not recorded)</p>'}</div>`;
		case 'tool':
			return `<div ${attrs}><details><summary>${esc(row.call.title)}</summary>${callHtml(row.call)}</details></div>`;
		case 'tool-group':
			return `<div ${attrs}><details><summary>${esc(row.summary)}${row.trailer ? ` · ${esc(row.trailer)}` : ''}</summary>${row.entries.map(entryHtml).join('')}</details></div>`;
		case 'delegation': {
			const kids = row.childRows ? row.childRows.map((r) => rowHtml(r, md)).join('') : '<p class="note">The subagent transcript was not loaded.</p>';
			return `<div ${attrs}><details><summary>Subagent: ${esc(row.description)}${row.agentType ? ` (${esc(row.agentType)})` : ''}</summary><div class="who">Task</div><div class="bubble">${esc(row.prompt)}</div>${kids}<div class="who">Result</div>${row.result ? `<div class="md">${md(row.result)}</div>` : '<p class="note">No result recorded.</p>'}</details></div>`;
		}
		case 'question': {
			const qs = row.questions
				.map((q) => `<p><strong>${esc(q.question)}</strong></p><ul>${q.options.map((o) => `<li>${o.chosen ? '<strong>✔ ' + esc(o.label) + '</strong>' : esc(o.label)}${o.description ? ` — ${esc(o.description)}` : ''}</li>`).join('')}</ul>${q.answer ? `<p>Answer: ${esc(q.answer)}</p>` : ''}`)
				.join('');
			return `<div ${attrs}>${qs}${row.resultText ? `<p>Answer: ${esc(row.resultText)}</p>` : ''}</div>`;
		}
		case 'approval':
			return `<div ${attrs}><details><summary>Plan — ${esc(row.decision)}</summary><div class="md">${md(row.plan)}</div>${row.feedback ? `<p>Feedback: ${esc(row.feedback)}</p>` : ''}</details></div>`;
		case 'compaction': {
			const head = `Context compacted${row.trigger ? ` · ${row.trigger}` : ''}${row.preTokens !== null ? ` (${row.preTokens.toLocaleString('en')} tokens before)` : ''}`;
			return `<div ${attrs}>${row.summary ? `<details><summary>${esc(head)}</summary><div class="thought">${esc(row.summary)}</div></details>` : `<p class="note">${esc(head)}</p>`}</div>`;
		}
		case 'error':
			return `<div ${attrs}><strong>${row.errorKind === 'refusal' ? 'Refusal' : 'API error'}${row.status !== null ? ` ${row.status}` : ''}:</strong> ${esc(row.text)}</div>`;
		case 'notice':
			return `<div ${attrs}>${row.text ? `<details><summary>${esc(row.title)}</summary>${row.markdown ? `<div class="md">${md(row.text)}</div>` : pre(row.text)}</details>` : `<p class="note">${esc(row.title)}</p>`}</div>`;
		case 'raw':
			return `<div ${attrs}><details><summary>Record: ${esc(row.title)}</summary>${pre(row.json)}</details></div>`;
		case 'branch':
			return `<div ${attrs}><details class="rewound"><summary>↶ ${esc(row.label)}</summary><p class="note">${esc(BRANCH_NOTE)}</p>${row.branchRows.map((r) => rowHtml(r, md)).join('')}</details></div>`;
	}
}

async function sha256Base64(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
	let bin = '';
	for (const b of new Uint8Array(digest)) bin += String.fromCharCode(b);
	return btoa(bin);
}

/** The CSP the export carries: nothing may load or run; only its own stylesheet and data: images. */
export async function exportCsp(style: string): Promise<string> {
	return `default-src 'none'; style-src 'sha256-${await sha256Base64(style)}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

export async function toHtml(rows: ChatRow[], meta: ExportMeta, onProgress?: OnExportProgress): Promise<string> {
	// The Markdown stage pulls in highlight.js: loaded only when an HTML export is made.
	const [{ markdownToHtml }, { loadHighlighter }] = await Promise.all([import('../chat/markdown-html.ts'), import('../chat/markdown.ts')]);
	await loadHighlighter();
	// The copy buttons need a script this file does not have.
	const md: Md = (src) => markdownToHtml(src).replace(/<button type="button" class="copy" data-copy="code" aria-label="Copy code">Copy<\/button>/g, '');
	const tick = progressTicker('html', rows.length, onProgress);
	const body: string[] = [];
	let turn = -1;
	rows.forEach((row, i) => {
		if (row.kind === 'user' && row.turnIndex !== turn) {
			if (turn !== -1) body.push('<div class="turn" role="separator"></div>');
			turn = row.turnIndex;
		}
		body.push(rowHtml(row, md));
		tick(i + 1);
	});
	const csp = await exportCsp(HTML_STYLE);
	const span = meta.startedAt ? `Session ${isoTime(meta.startedAt)} – ${isoTime(meta.endedAt)} · ` : '';
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Loupe">
<title>${esc(meta.title)} · Loupe export</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<input class="theme-input" type="radio" name="theme" id="theme-auto" checked aria-label="System theme">
<input class="theme-input" type="radio" name="theme" id="theme-light" aria-label="Light theme">
<input class="theme-input" type="radio" name="theme" id="theme-dark" aria-label="Dark theme">
<header class="top">
<h1>${esc(meta.title)}</h1>
<p class="facts">${span}Exported from Loupe</p>
<p class="facts" data-redaction>${esc(meta.redaction)}</p>
<p class="facts">Left out: ${esc(HTML_LEAVES_OUT.join('; '))}.</p>
<div class="themes" aria-label="Theme"><label for="theme-auto">System</label><label for="theme-light">Light</label><label for="theme-dark">Dark</label></div>
</header>
<main data-session-key="${esc(meta.sessionKey)}">
${body.join('\n')}
</main>
</body>
</html>
`;
}
