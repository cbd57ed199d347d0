// Public surface of the exports: Markdown, one-file HTML and Strap state JSON of a session, each
// a pure function of the (already redacted) chat rows or session, with progress and a list of
// what it leaves out.
export { toMarkdown, MARKDOWN_LEAVES_OUT } from './markdown.ts';
export { toHtml, exportCsp, HTML_LEAVES_OUT } from './html.ts';
export { toStrap, type StrapState, type StrapEvent, type StrapCall, type StrapChild } from './strap.ts';
export { utf8Bytes, type ExportMeta, type ExportProgress, type OnExportProgress } from './common.ts';
export { EXPORT_FORMATS, exportFile, type ExportFormat } from './files.ts';
export { exportSession, exportSessionText, redactSource, rowsOf, type ExportSource, type ExportResult, type ExportChild } from './session.ts';
