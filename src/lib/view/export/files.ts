// The export formats and what a download of each is called (small on purpose: the page imports
// it without pulling in the exporters, which run in the worker).
export type ExportFormat = 'markdown' | 'html' | 'strap';
export const EXPORT_FORMATS: ExportFormat[] = ['markdown', 'html', 'strap'];
/** How the dialog names each format (the components render these, never a format's name). */
export const EXPORT_FORMAT_LABELS: { value: ExportFormat; label: string }[] = [
	{ value: 'markdown', label: 'Markdown' },
	{ value: 'html', label: 'One-file HTML' },
	{ value: 'strap', label: 'Strap JSON' }
];

/** File name and MIME type of a download. */
export function exportFile(format: ExportFormat, title: string): { name: string; mime: string } {
	const stem = title.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
	if (format === 'markdown') return { name: `${stem}.md`, mime: 'text/markdown;charset=utf-8' };
	if (format === 'html') return { name: `${stem}.html`, mime: 'text/html;charset=utf-8' };
	return { name: `${stem}.strap.json`, mime: 'application/json' };
}
