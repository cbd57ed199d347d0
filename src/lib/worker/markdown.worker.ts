// The Markdown worker: Markdown source → HTML (view/chat/markdown-html.ts: marked, and highlight.js
// for fenced code that names a language), off the page's thread. On the page, marked's module
// evaluation, its first lexes and highlight.js's grammar compiles were tasks of 62, 98 and 94 ms
// after the first chat rows at 4× CPU (a CPU profile of `?sample`). The HTML still goes
// through DOMPurify on the page before it is inserted (components/markdown). A thin comlink
// shell, started by state/markdown-client.ts.
import * as Comlink from 'comlink';
import { markdownToHtmlWithCode } from '../view/chat/markdown-html.ts';

const api = { render: markdownToHtmlWithCode };

export type MarkdownWorkerApi = typeof api;

Comlink.expose(api);
