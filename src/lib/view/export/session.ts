// One session → export text: applies the redactor to everything an export is built from (the
// main transcript, each subagent transcript, unnamed records), rebuilds the chat rows from the
// redacted session (so derived text — diffs, titles, previews — never carries a secret), and runs
// the chosen format. When redaction changed nothing, the rows the viewer already built are reused.
// Rewound branches go in by default and are left out on request (the rows are then rebuilt).
import type { MetadataLine, Session } from '../../model/types.ts';
import { buildChatRows, type ChatRow, type ChildLike } from '../chat/index.ts';
import type { Redactor } from '../redact/index.ts';
import { utf8Bytes, type ExportMeta, type OnExportProgress } from './common.ts';
import type { ExportFormat } from './files.ts';
import { toHtml } from './html.ts';
import { toMarkdown } from './markdown.ts';
import { toStrap, type StrapChild } from './strap.ts';

export type ExportChild = ChildLike & StrapChild & { result: { session: Session; metadata?: MetadataLine[] } };

export interface ExportSource {
	key: string;
	title: string;
	startedAt: number | null;
	endedAt: number | null;
	session: Session;
	children: Record<string, ExportChild>;
	metadata?: MetadataLine[];
	/** Rows already built for the viewer from this same (unredacted) source, if any. */
	rows?: ChatRow[] | null;
}

export interface ExportResult {
	text: string;
	/** UTF-8 size of `text`. */
	bytes: number;
}

export interface ExportOptions {
	redactor: Redactor | null;
	redaction: string;
	onProgress?: OnExportProgress;
	/** Include rewound branches (model D11): a marked section at each rewind point, a fork in Strap. Default true. */
	branches?: boolean;
}

/** The source without its rewound branches when they are left out (rows rebuilt without them). */
export function withoutBranches(src: ExportSource, include: boolean | undefined): ExportSource {
	if (include !== false || !src.session.branches) return src;
	const { branches: _left, ...session } = src.session;
	return { ...src, session, rows: null };
}

/** The source with every content string redacted (shares whatever did not change). */
export function redactSource(src: ExportSource, r: Redactor): ExportSource {
	const session = r.deep(src.session);
	const metadata = r.deep(src.metadata);
	let childrenChanged = false;
	const children: Record<string, ExportChild> = {};
	for (const [id, c] of Object.entries(src.children)) {
		const s = r.deep(c.result.session);
		const m = r.deep(c.result.metadata);
		const description = c.description ? r.text(c.description) : c.description;
		if (s !== c.result.session || m !== c.result.metadata || description !== c.description) {
			childrenChanged = true;
			children[id] = { ...c, description, result: { ...c.result, session: s, metadata: m } };
		} else children[id] = c;
	}
	const same = session === src.session && metadata === src.metadata && !childrenChanged;
	return same
		? src
		: { ...src, title: r.clipped(src.title), session, metadata, children: childrenChanged ? children : src.children, rows: null };
}

/** The chat rows of a source, built once and kept on it. */
export function rowsOf(src: ExportSource): ChatRow[] {
	src.rows ??= buildChatRows(src.session, src.children, { metadata: src.metadata });
	return src.rows;
}

export async function exportSession(
	src: ExportSource,
	format: ExportFormat,
	opts: ExportOptions & { countBytes?: boolean }
): Promise<ExportResult> {
	const s = opts.redactor ? redactSource(withoutBranches(src, opts.branches), opts.redactor) : withoutBranches(src, opts.branches);
	const meta: ExportMeta = { title: s.title, sessionKey: s.key, startedAt: s.startedAt, endedAt: s.endedAt, redaction: opts.redaction };
	let text: string;
	if (format === 'strap') text = JSON.stringify(toStrap(s.session, s.children, meta, opts.onProgress, s.metadata), null, 2) + '\n';
	else if (format === 'html') text = await toHtml(rowsOf(s), meta, opts.onProgress);
	else text = toMarkdown(rowsOf(s), meta, opts.onProgress);
	return { text, bytes: opts.countBytes === false ? -1 : utf8Bytes(text) };
}

/** The text only (a Blob's size gives the bytes for free). */
export async function exportSessionText(
	src: ExportSource,
	format: ExportFormat,
	opts: ExportOptions
): Promise<string> {
	return (await exportSession(src, format, { ...opts, countBytes: false })).text;
}
