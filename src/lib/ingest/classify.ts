// Classification of one dropped file from its path and the first bytes of its content (a "head"
// sniff of up to HEAD_BYTES), so a file can be sorted before it is read whole. Content decides;
// the path only breaks ties (a state log is named states/<sid>.jsonl, a subagent lives in
// <sid>/subagents/). Every file gets a kind; 'unknown' always carries a human reason.
import type { ClassifiedFile, HeadSniff } from './types.ts';
import {
	agentIdFromName,
	baseName,
	isPostalPath,
	isUnderSubagents,
	normPath,
	sessionFromSubagentPath,
	stateLogSid,
	stemOf
} from './paths.ts';
import { classifyHarness } from './harnesses.ts';

export const HEAD_BYTES = 64 * 1024;
/** How many complete lines of the head are parsed at most. */
const SNIFF_LINES = 200;

/** Record types Claude Code writes (content lines and metadata lines). */
const TRANSCRIPT_TYPES = new Set([
	'user',
	'assistant',
	'system',
	'attachment',
	'progress',
	'summary',
	'file-history-snapshot',
	'queue-operation',
	'permission-mode',
	'last-prompt',
	'custom-title',
	'ai-title',
	'agent-name',
	'agent-setting',
	'mode',
	'pr-link',
	'bridge-session',
	'atis-latch',
	'result'
]);
const STATE_KEYS = ['state', 'awaiting', 'orphanReply', 'retriesRecovered', 'retriesGaveUp', 'effortApplied'];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the head of a file says about its content. */

export function sniffHead(head: Uint8Array, totalBytes: number): HeadSniff {
	const complete = head.length >= totalBytes;
	const none: HeadSniff = { text: null, binaryReason: null, complete, values: [], badLines: 0, firstLineBad: true };
	const first = head.subarray(0, 1024);
	const compressed = compressedKind(first);
	if (compressed) return { ...none, binaryReason: `binary file (${compressed}: extract it first)` };
	if (first.includes(0)) return { ...none, binaryReason: 'binary file (contains NUL bytes)' };
	try {
		// stream: true tolerates a multi-byte character cut at the 1 KB boundary.
		new TextDecoder('utf-8', { fatal: true }).decode(first, { stream: first.length < head.length || !complete });
	} catch {
		return { ...none, binaryReason: 'binary file (not valid UTF-8 text)' };
	}
	let text = new TextDecoder('utf-8').decode(head, { stream: !complete });
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const lines = text.split('\n');
	if (!complete) lines.pop(); // the last line may be cut off
	const values: unknown[] = [];
	let badLines = 0;
	let firstLineBad = true;
	let seenFirst = false;
	for (const raw of lines) {
		const line = raw.trim();
		if (!line || line.startsWith('//')) continue;
		if (values.length + badLines >= SNIFF_LINES) break;
		try {
			values.push(JSON.parse(line));
			if (!seenFirst) firstLineBad = false;
		} catch {
			badLines++;
		}
		seenFirst = true;
	}
	return { text, binaryReason: null, complete, values, badLines, firstLineBad };
}

/** Archives people are likely to drop instead of the transcript inside. */
function compressedKind(b: Uint8Array): string | null {
	if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip-compressed';
	if (b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04) return 'a zip archive';
	if (b.length >= 4 && b[0] === 0x28 && b[1] === 0xb5 && b[2] === 0x2f && b[3] === 0xfd) return 'zstd-compressed';
	return null;
}

/** A record Claude Code could have written. */
export function isTranscriptRecord(v: unknown): v is Obj {
	if (!isObj(v) || typeof v.type !== 'string') return false;
	if (typeof v.uuid === 'string' || typeof v.sessionId === 'string') return true;
	return TRANSCRIPT_TYPES.has(v.type) && ('message' in v || 'leafUuid' in v || 'summary' in v || 'messageId' in v || 'snapshot' in v || 'customTitle' in v || 'aiTitle' in v);
}
export function isStateRow(v: unknown): v is Obj {
	return isObj(v) && typeof v.t === 'number' && !('type' in v) && STATE_KEYS.some((k) => k in v);
}
export function isPostalRow(v: unknown): v is Obj {
	return isObj(v) && typeof v.t === 'number' && typeof v.ev === 'string';
}

/** Keys found by pattern in a head whose first line is too long to be complete. */
function sniffPartialLine(text: string): { type: string | null; sidechain: boolean | null; agentId: string | null; sessionId: string | null } {
	const str = (key: string) => new RegExp(`(?<!\\\\)"${key}"\\s*:\\s*"([^"\\\\]*)"`).exec(text)?.[1] ?? null;
	const sc = /(?<!\\)"isSidechain"\s*:\s*(true|false)/.exec(text)?.[1];
	return { type: str('type'), sidechain: sc === undefined ? null : sc === 'true', agentId: str('agentId'), sessionId: str('sessionId') };
}

function make(path: string, bytes: number, kind: ClassifiedFile['kind'], extra: Partial<ClassifiedFile> = {}): ClassifiedFile {
	const p = normPath(path);
	return { path: p, name: baseName(p), kind, sessionId: null, bytes, ...extra };
}

function unknown(path: string, bytes: number, reason: string): ClassifiedFile {
	return make(path, bytes, 'unknown', { reason });
}

/** What the browser would not hand over while a folder was walked (a folder's path ends in '/'):
 *  listed with the reason, so nothing is dropped silently. */
export function unreadableEntry(path: string): ClassifiedFile {
	return unknown(path, 0, path.endsWith('/') ? 'the browser would not list this folder; its files were not opened' : 'the browser would not hand this file over; the rest of the folder was opened');
}

/**
 * Classify a file from its relative path, the first bytes (≤ HEAD_BYTES suffice) and its size.
 * `sniffed`: sniffHead(head, bytes) when the caller already has it (the scan reuses its values).
 */
export function classifyFile(path: string, head: Uint8Array, bytes: number, sniffed?: HeadSniff): ClassifiedFile {
	const p = normPath(path);
	const name = baseName(p);
	if (bytes === 0) return unknown(p, bytes, 'empty file (0 bytes)');
	const s = sniffed ?? sniffHead(head, bytes);
	if (s.binaryReason || s.text === null) return unknown(p, bytes, s.binaryReason ?? 'binary file');
	if (s.complete && s.text.trim() === '') return unknown(p, bytes, 'empty file (only blank lines)');

	if (name.endsWith('.meta.json')) return classifyMeta(p, s, bytes);

	const transcriptish = s.values.filter(isTranscriptRecord);
	const states = s.values.filter(isStateRow).length;
	const postal = s.values.filter(isPostalRow).length;

	if (transcriptish.length > 0) return classifyTranscript(p, transcriptish, bytes);
	// Not Claude Code: another harness (Codex, Gemini CLI, Strap), or one named in the reason.
	const other = classifyHarness(p, s, bytes);
	if (other) return other;
	if (states > 0 && (stateLogSid(p) || states >= postal)) {
		return make(p, bytes, 'state-log', { sessionId: stateLogSid(p) ?? stemOf(p) });
	}
	if (postal > 0) return make(p, bytes, 'postal-log', isPostalPath(p) ? {} : { reason: 'postal rows {t, ev, id}' });

	if (s.values.length === 0 || s.firstLineBad) return classifyNoLines(p, s, bytes);
	if (isPostalPath(p) || stateLogSid(p)) {
		// Named like a log but no row parses as one: still a log, the model reports each bad row.
		return isPostalPath(p) ? make(p, bytes, 'postal-log') : make(p, bytes, 'state-log', { sessionId: stateLogSid(p) });
	}
	const firstType = isObj(s.values[0]) ? (s.values[0] as Obj).type : undefined;
	if (typeof firstType === 'string' && ['started', 'result'].includes(firstType) && isUnderSubagents(p)) {
		return unknown(p, bytes, 'workflow journal (started/result lines), not a transcript');
	}
	return unknown(p, bytes, 'JSON lines, but not a Claude Code transcript (no line has a type with a uuid or sessionId) nor a Codex CLI, Gemini CLI or Strap session');
}

function classifyMeta(p: string, s: HeadSniff, bytes: number): ClassifiedFile {
	let v: unknown;
	try {
		v = JSON.parse(s.text ?? '');
	} catch {
		return unknown(p, bytes, s.complete ? 'subagent .meta.json that is not valid JSON' : 'subagent .meta.json too large to be a sidecar');
	}
	if (!isObj(v)) return unknown(p, bytes, 'subagent .meta.json that is not a JSON object');
	const agentId = agentIdFromName(baseName(p)) ?? (typeof v.agentId === 'string' ? v.agentId : undefined);
	return make(p, bytes, 'subagent-meta', { sessionId: sessionFromSubagentPath(p), ...(agentId ? { agentId } : {}) });
}

function classifyTranscript(p: string, recs: Obj[], bytes: number): ClassifiedFile {
	const name = baseName(p);
	const content = recs.filter((r) => typeof r.uuid === 'string');
	const allSidechain = content.length > 0 && content.every((r) => r.isSidechain === true);
	const lineAgent = content.map((r) => r.agentId).find((a): a is string => typeof a === 'string');
	const lineSession = recs.map((r) => r.sessionId).find((x): x is string => typeof x === 'string') ?? null;
	const nameAgent = agentIdFromName(name);
	const underSub = isUnderSubagents(p);
	if (underSub && !nameAgent && content.length === 0) {
		// Side files of subagent runs (workflow journal.jsonl ...) hold no conversation.
		return unknown(p, bytes, 'a side file of a subagent run (no conversation lines), not a transcript');
	}
	if (underSub || (allSidechain && (lineAgent || nameAgent))) {
		const agentId = nameAgent ?? lineAgent;
		const reason = underSub ? undefined : nameAgent ? 'legacy root-level agent file' : 'all lines are sidechain lines of one agent';
		return make(p, bytes, 'subagent', {
			sessionId: sessionFromSubagentPath(p) ?? lineSession,
			...(agentId ? { agentId } : {}),
			...(reason ? { reason } : {})
		});
	}
	const stem = stemOf(p);
	const sessionId = recs.some((r) => r.sessionId === stem) ? stem : (lineSession ?? stem);
	return make(p, bytes, 'transcript', { sessionId });
}

/** No complete line parsed: a JSON document, one huge first line, or not JSON at all. */
function classifyNoLines(p: string, s: HeadSniff, bytes: number): ClassifiedFile {
	const text = (s.text ?? '').trimStart();
	if (s.complete && (text.startsWith('{') || text.startsWith('['))) {
		let doc: unknown;
		try {
			doc = JSON.parse(text);
		} catch {
			return unknown(p, bytes, 'not JSON lines: the first line is not valid JSON');
		}
		if (isObj(doc) && Array.isArray(doc.loglines)) {
			return make(p, bytes, 'transcript', { sessionId: stemOf(p), format: 'web-json', reason: 'Claude Code on the web export ({loglines: [...]})' });
		}
		return unknown(p, bytes, 'a JSON document, not JSON lines (one record per line)');
	}
	if (!s.complete && /^\{\s*"loglines"\s*:/.test(text)) {
		return make(p, bytes, 'transcript', { sessionId: stemOf(p), format: 'web-json', reason: 'Claude Code on the web export ({loglines: [...]})' });
	}
	if (!s.complete && text.startsWith('{') && !text.includes('\n')) {
		// The first line is longer than the head: recognise it by its keys.
		const k = sniffPartialLine(text);
		// A record type alone could be nested anywhere; an envelope key makes it a Claude Code line.
		const envelope = /(?<!\\)"(parentUuid|sessionId|uuid)"\s*:/.test(text);
		if (k.type && TRANSCRIPT_TYPES.has(k.type) && envelope) {
			// The cut-off line may hide isSidechain after a long message; an agent-*.jsonl name settles it.
			const sidechain = k.sidechain ?? (agentIdFromName(baseName(p)) !== null);
			const recs: Obj[] = [{ type: k.type, uuid: 'x', isSidechain: sidechain, ...(k.sessionId ? { sessionId: k.sessionId } : {}), ...(k.agentId ? { agentId: k.agentId } : {}) }];
			return classifyTranscript(p, recs, bytes);
		}
	}
	if (!s.complete && /^[[{]/.test(text) && !text.includes('\n')) {
		return unknown(p, bytes, 'a first line longer than 64 KB that is not a Claude Code record (a minified JSON document?)');
	}
	if (!s.complete && /^[[{]\s*\n/.test(text)) {
		if (/"loglines"\s*:/.test(text.slice(0, 200))) {
			return make(p, bytes, 'transcript', { sessionId: stemOf(p), format: 'web-json', reason: 'Claude Code on the web export ({loglines: [...]})' });
		}
		return unknown(p, bytes, 'a JSON document, not JSON lines (one record per line)');
	}
	const ext = /\.([A-Za-z0-9]+)$/.exec(baseName(p))?.[1];
	const hint = ext && ext.toLowerCase() !== 'jsonl' ? ` (a .${ext} file)` : '';
	return unknown(p, bytes, `not JSON lines: the first line is not JSON${hint}`);
}
