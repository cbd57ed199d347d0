// Chat rows for records that are not atoms (viewer-mode metadata lines that kept their JSON):
// Claude Code's named `system` notes become quiet notices or error rows, pure bookkeeping is
// left to inspectors, and only a record nobody has a name for becomes a raw card. This is the
// one place that knows those record names, as tools.ts is for tool names.
import type { MetadataLine } from '../../model/types.ts';
import { stripAnsi } from '../../model/text.ts';
import { isRecord, num, str, toJson } from './content.ts';
import type { ErrorRow, NoticeRow, RawRow } from './types.ts';

/** Record types written as bookkeeping (titles, modes, snapshots, queue ledger, …): no row. */
const BOOKKEEPING_TYPES = new Set([
	'user', 'assistant', 'attachment', 'progress', 'file-history-snapshot', 'queue-operation', 'summary',
	'custom-title', 'ai-title', 'last-prompt', 'permission-mode', 'agent-name', 'agent-setting', 'mode', 'pr-link',
	'bridge-session', 'state', 'postal'
]);

/** `system` subtypes that only restate what the rows already show (the turn's duration). */
const QUIET_SYSTEM = new Set(['system:turn_duration']);

/** `system` subtypes whose `content` is a note for the reader, with the title it gets. */
const NOTE_TITLES: Record<string, string> = {
	system: 'System note',
	'system:informational': 'System note',
	'system:local_command': 'Local command output',
	'system:away_summary': 'Recap while you were away',
	'system:bridge_status': 'Remote session',
	'system:scheduled_task_fire': 'Scheduled task ran'
};

type RecordRow = NoticeRow | ErrorRow | RawRow;

/** The row a metadata record gets, or null when it gets none. */
export function recordRow(m: MetadataLine, key: string, turnIndex: number): RecordRow | null {
	if (m.value === undefined || BOOKKEEPING_TYPES.has(m.type) || QUIET_SYSTEM.has(m.type)) return null;
	const v = isRecord(m.value) ? m.value : {};
	const base = { key, atomUuid: m.uuid ?? '', atomUuids: m.uuid ? [m.uuid] : [], turnIndex, ms: typeof m.t === 'number' ? m.t * 1000 : null, defaultOpen: false };
	if (m.type === 'system:api_error') return apiErrorRow(v, base);
	if (m.type === 'system:stop_hook_summary') return stopHookRow(v, base);
	const title = NOTE_TITLES[m.type];
	if (title) {
		const text = stripAnsi(contentText(v.content)).trim();
		return { ...base, kind: 'notice', noticeKind: 'system', title: firstLineOr(text, title), text, markdown: m.type === 'system:away_summary' };
	}
	return { ...base, kind: 'raw', title: `Unrecognized record: ${m.type}`, json: toJson(m.value) };
}

type Base = Omit<NoticeRow, 'kind' | 'noticeKind' | 'title' | 'text' | 'markdown'>;

/** An API error Claude Code retried: a warning while retries remain, an alert on the last one. */
function apiErrorRow(v: Record<string, unknown>, base: Base): ErrorRow {
	const err = isRecord(v.error) ? v.error : {};
	const inner = isRecord(err.error) ? err.error : err;
	const message = str(inner.message) ?? str(v.content) ?? str(err.message) ?? 'The API returned an error.';
	const attempt = num(v.retryAttempt);
	const max = num(v.maxRetries);
	const retrying = attempt !== null && max !== null && attempt < max;
	const status = num(err.status) ?? num(v.status);
	const retry = attempt !== null ? ` (attempt ${attempt}${max !== null ? ` of ${max}` : ''}${retrying ? ', retrying' : ''})` : '';
	return { ...base, kind: 'error', errorKind: 'api', tone: retrying ? 'warning' : 'alert', status, text: `${message}${retry}` };
}

/** A Stop hook summary matters only when a hook failed or kept Claude going. */
function stopHookRow(v: Record<string, unknown>, base: Base): NoticeRow | null {
	const errors = Array.isArray(v.hookErrors) ? v.hookErrors.map((e) => (typeof e === 'string' ? e : toJson(e))) : [];
	const prevented = v.preventedContinuation === true;
	if (!errors.length && !prevented) return null;
	const title = errors.length ? `Stop hook failed (${errors.length} error${errors.length === 1 ? '' : 's'})` : 'A Stop hook kept Claude going';
	const text = [str(v.stopReason) ?? '', ...errors].filter(Boolean).join('\n');
	return { ...base, kind: 'notice', noticeKind: 'system', title, text: stripAnsi(text), markdown: false };
}

function contentText(c: unknown): string {
	if (typeof c === 'string') return c;
	if (Array.isArray(c)) return c.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
	return '';
}

function firstLineOr(text: string, fallback: string): string {
	const line = text.split('\n', 1)[0].trim();
	if (!line || fallback !== 'System note') return fallback;
	return line.length > 100 ? `${line.slice(0, 99)}…` : line;
}
