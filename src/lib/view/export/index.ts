// Public surface of the exports: Markdown, one-file HTML and Strap state JSON of a session, each
// a pure function of the (already redacted) chat rows or session, with progress and a list of
// what it leaves out.
export { toMarkdown, MARKDOWN_LEAVES_OUT } from './markdown.ts';
export { toHtml, exportCsp, HTML_LEAVES_OUT } from './html.ts';
export { toStrap, type StrapState, type StrapEvent, type StrapCall, type StrapChild } from './strap.ts';
export type { ExportMeta, ExportProgress, OnExportProgress } from './common.ts';

export type ExportFormat = 'markdown' | 'html' | 'strap';
export const EXPORT_FORMATS: ExportFormat[] = ['markdown', 'html', 'strap'];

/** File name and MIME type of a download. */
export function exportFile(format: ExportFormat, title: string): { name: string; mime: string } {
	const stem = title.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
	if (format === 'markdown') return { name: `${stem}.md`, mime: 'text/markdown;charset=utf-8' };
	if (format === 'html') return { name: `${stem}.html`, mime: 'text/html;charset=utf-8' };
	return { name: `${stem}.strap.json`, mime: 'application/json' };
}
export { exportSession, redactSource, rowsOf, type ExportSource, type ExportResult, type ExportChild } from './session.ts';
