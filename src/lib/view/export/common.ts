// What every export shares: the facts about the export (title, times, redaction), how long
// text is shortened (exports carry no export time, so the same session and choices give the
// same bytes) (and saying so), fences that survive backticks in the content, a diff as
// unified text, the progress callback, and the list of what an export leaves out.
import type { FileDiff } from '../chat/types.ts';

/** What a rewound branch's section says about itself (Markdown and HTML). */
export const BRANCH_NOTE = 'Rewound branch: tried here and abandoned; the conversation continued without it.';

export interface ExportMeta {
	title: string;
	sessionKey: string;
	startedAt: number | null;
	endedAt: number | null;
	/** One line about redaction ("Redacted: 12 findings (gitleaks rules …)" / "Not redacted"). */
	redaction: string;
}

export interface ExportProgress {
	/** What is being done: scanning for secrets, redacting, or writing one format. */
	task: 'scan' | 'redact' | 'markdown' | 'html' | 'strap';
	done: number;
	total: number;
}
export type OnExportProgress = (p: ExportProgress) => void;

/** Cuts long text to `maxLines` / `maxChars`, saying how much was cut. */
export function shorten(text: string, maxLines: number, maxChars: number): { text: string; cut: string | null } {
	let out = text;
	let cutLines = 0;
	// Walk newlines instead of splitting: outputs run to megabytes and only the head is kept.
	let at = -1;
	for (let n = 0; n < maxLines; n++) {
		at = text.indexOf('\n', at + 1);
		if (at < 0) break;
	}
	if (at >= 0 && at < text.length - 1) {
		for (let i = at; i >= 0; i = text.indexOf('\n', i + 1)) cutLines++;
		out = text.slice(0, at);
	}
	let cutChars = 0;
	if (out.length > maxChars) {
		cutChars = out.length - maxChars;
		out = out.slice(0, maxChars);
	}
	if (!cutLines && !cutChars) return { text, cut: null };
	const parts = [cutLines ? `${cutLines.toLocaleString('en')} more lines` : '', cutChars ? `${cutChars.toLocaleString('en')} more characters` : ''].filter(Boolean);
	return { text: out, cut: `… cut for the export: ${parts.join(', ')}` };
}

/** A Markdown code fence longer than any run of backticks inside `text`. */
export function fenced(text: string, lang = ''): string {
	let longest = 2;
	for (const m of text.matchAll(/`{3,}/g)) longest = Math.max(longest, m[0].length);
	const fence = '`'.repeat(longest + 1);
	return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`;
}

/** A file diff as unified diff text (`--- a/… +++ b/…`, hunks with @@ headers). */
export function diffText(d: FileDiff): string {
	const out = [`--- a/${d.path}`, `+++ b/${d.path}`];
	for (const h of d.hunks) {
		out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
		for (const l of h.lines) out.push(`${l.op}${l.text}`);
	}
	return out.join('\n');
}

/** UTF-8 size of a string without encoding it (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Bytes(s: string): number {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			n += 4;
			i++;
		} else n += 3;
	}
	return n;
}

export function isoTime(ms: number | null): string {
	return ms === null || !Number.isFinite(ms) ? '' : new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Calls `onProgress` about every `step` items and once at the end. */
export function progressTicker(task: ExportProgress['task'], total: number, onProgress?: OnExportProgress, step = 500) {
	let next = step;
	return (done: number): void => {
		if (!onProgress) return;
		if (done >= next || done === total) {
			next = done + step;
			onProgress({ task, done, total });
		}
	};
}
