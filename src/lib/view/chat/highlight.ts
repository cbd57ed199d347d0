// highlight.js with the handful of languages the chat highlights, apart from markdown.ts so
// it loads on first use (markdown.ts loadHighlighter) instead of at boot.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGS = { bash, css, diff, go, javascript, json, python, rust, sql, typescript, xml, yaml };
for (const [name, fn] of Object.entries(LANGS)) hljs.registerLanguage(name, fn);

export type Highlight = (code: string, language: string) => string | null;

/** The highlighted HTML of `code`, or null for a language not registered here (or a failure). */
export const highlight: Highlight = (code, language) => {
	if (!hljs.getLanguage(language)) return null;
	try {
		return hljs.highlight(code, { language, ignoreIllegals: true }).value;
	} catch {
		return null;
	}
};
