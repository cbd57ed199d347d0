// Recognising other harnesses' files by content: a Codex rollout, a Gemini CLI recording, a
// Strap state, a pi session, a Cursor transcript or an OpenCode storage document, from a file's
// first records (the path only helps to tie sub-agent files to their parent). Files of agents
// Loupe does not read get a "not opened" reason that names them. harnesses.ts runs the adapters.
import { isGeminiDocument } from '../model/gemini/parse.ts';
import { isStrapDocument, isStrapEvent } from '../model/strap/parse.ts';
import { CURSOR_BLOCKS } from '../model/cursor/parse.ts';
import type { HarnessId } from '../model/harness/kit.ts';
import type { HeadSniff } from './types.ts';
import { baseName, normPath, stemOf } from './paths.ts';
import type { ClassifiedFile } from './types.ts';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How a harness file's bytes become input for its adapter. */
export type HarnessFormat = 'codex' | 'gemini-jsonl' | 'gemini-json' | 'strap-json' | 'strap-jsonl' | 'pi' | 'cursor' | 'opencode';

export const HARNESS_LABELS: Record<HarnessId, string> = { 'claude-code': 'Claude Code', codex: 'Codex CLI', strap: 'Strap', gemini: 'Gemini CLI', pi: 'pi', cursor: 'Cursor', opencode: 'OpenCode' };

/** Formats whose file is one JSON document (read whole), not JSON lines. */
export const HARNESS_DOC_FORMATS: ReadonlySet<string> = new Set<string>(['gemini-json', 'strap-json', 'opencode']);
/** A JSON document is read whole; beyond this it is refused with a reason. */
export const HARNESS_DOC_MAX = 256 * 1024 * 1024;

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'inter_agent_communication', 'inter_agent_communication_metadata']);
const CODEX_ITEMS = new Set(['message', 'reasoning', 'function_call', 'function_call_output', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output', 'web_search_call']);
const OPENCODE_PARTS = new Set(['text', 'reasoning', 'tool', 'file', 'step-start', 'step-finish', 'patch', 'compaction', 'agent', 'subtask']);
const GEMINI_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

function isEnvelope(v: unknown): v is Obj {
	return isObj(v) && typeof v.type === 'string' && isObj(v.payload) && 'timestamp' in v;
}

function codexSessionId(values: unknown[]): string | null {
	for (const v of values) {
		if (isEnvelope(v) && v.type === 'session_meta' && typeof (v.payload as Obj).id === 'string') return (v.payload as Obj).id as string;
	}
	const h = values[0];
	return isObj(h) && typeof h.id === 'string' && !('type' in h) ? h.id : null;
}

function looksCodex(values: unknown[]): boolean {
	if (!values.length) return false;
	const first = values[0];
	if (isEnvelope(first) && first.type === 'session_meta') return true;
	const env = values.filter((v) => isEnvelope(v) && CODEX_TYPES.has(v.type as string)).length;
	if (env > 0 && env * 2 >= values.length) return true;
	// G0: a bare header {id, timestamp, instructions?, git?} followed by bare response items / state markers.
	if (isObj(first) && typeof first.id === 'string' && typeof first.timestamp === 'string' && !('type' in first) && !('sessionId' in first)) {
		const rest = values.slice(1);
		return 'instructions' in first || 'git' in first || rest.some((v) => isObj(v) && ('record_type' in v || CODEX_ITEMS.has(String(v.type))));
	}
	return false;
}

function looksGeminiJsonl(values: unknown[]): boolean {
	const first = values[0];
	if (isObj(first) && typeof first.sessionId === 'string' && !('type' in first) && ('projectHash' in first || 'startTime' in first)) return true;
	const msgs = values.filter((v) => isObj(v) && typeof v.id === 'string' && GEMINI_TYPES.has(String(v.type)) && 'content' in v && !('uuid' in v));
	return msgs.length > 0 && msgs.length * 2 >= values.length;
}

/** Why a file of another harness Loupe does not read yet is not opened, or null. */
function otherHarness(values: unknown[], doc: unknown): string | null {
	const first = values[0] ?? doc;
	if (isObj(first) && typeof first.session_id === 'string' && 'ts' in first && typeof first.text === 'string' && !('type' in first)) {
		return 'Codex CLI prompt history (history.jsonl: what was typed, no replies): not a transcript';
	}
	// A small JSON document may arrive as the head's only parsed line.
	const whole = doc ?? (values.length === 1 ? values[0] : null);
	const log = Array.isArray(whole) ? whole[0] : null;
	if (isObj(log) && typeof log.sessionId === 'string' && typeof log.messageId !== 'undefined' && 'message' in log) {
		return 'Gemini CLI prompt log (logs.json: prompts only, no model output): not a transcript';
	}
	const history = isObj(whole) && Array.isArray(whole.history) ? whole.history : Array.isArray(whole) ? whole : null;
	if (history && history.length && history.every((h) => isObj(h) && typeof h.role === 'string' && Array.isArray(h.parts))) {
		return 'a Gemini API history (a /chat save checkpoint: role / parts, no times, ids or tool status): not opened';
	}
	const odd = cursorOddBlocks(values);
	if (odd) return `a Cursor-like transcript with block types Loupe does not know (${odd}): not opened`;
	return null;
}

/** Which OpenCode storage document this is (session / message / part), or null. */
export function openCodeKind(v: unknown): 'session' | 'message' | 'part' | null {
	if (!isObj(v) || typeof v.id !== 'string') return null;
	if (typeof v.projectID === 'string' && 'directory' in v) return 'session';
	if (typeof v.sessionID === 'string' && typeof v.role === 'string' && !('type' in v)) return 'message';
	if (typeof v.messageID === 'string' || (OPENCODE_PARTS.has(String(v.type)) && (typeof v.sessionID === 'string' || isObj(v.time) || isObj(v.state)))) return 'part';
	return null;
}

function openCodeFile(p: string, bytes: number, v: Obj): ClassifiedFile {
	const kind = openCodeKind(v);
	const sid = kind === 'session' ? (v.id as string) : typeof v.sessionID === 'string' ? v.sessionID : null;
	return make(p, bytes, 'opencode', 'opencode', sid, `OpenCode ${kind ?? 'storage'} file`);
}

function cursorLines(values: unknown[]): Obj[] {
	return values.filter((v): v is Obj => isObj(v) && (v.role === 'user' || v.role === 'assistant') && isObj(v.message) && Array.isArray((v.message as Obj).content));
}

/** Block types of Cursor-shaped lines that are not Claude-style blocks, or null. */
function cursorOddBlocks(values: unknown[]): string | null {
	const lines = cursorLines(values);
	if (!lines.length || lines.length * 2 < values.length) return null;
	const odd = new Set<string>();
	for (const l of lines) for (const b of (l.message as Obj).content as unknown[]) if (isObj(b) && !CURSOR_BLOCKS.has(String(b.type))) odd.add(String(b.type));
	return odd.size ? [...odd].join(', ') : null;
}

function looksCursor(values: unknown[]): boolean {
	const lines = cursorLines(values);
	return lines.length > 0 && lines.length * 2 >= values.length && cursorOddBlocks(values) === null;
}

function make(p: string, bytes: number, harness: HarnessId, format: HarnessFormat, sessionId: string | null, reason: string): ClassifiedFile {
	return { path: p, name: baseName(p), kind: 'transcript', sessionId, bytes, harness, format, reason };
}

function unknown(p: string, bytes: number, reason: string): ClassifiedFile {
	return { path: p, name: baseName(p), kind: 'unknown', sessionId: null, bytes, reason };
}

/**
 * Recognise another harness from a file's head (after Claude Code was ruled out). Returns null
 * when the content is none of them, so the caller's own reasons stand.
 */
export function classifyHarness(path: string, s: HeadSniff, bytes: number): ClassifiedFile | null {
	const p = normPath(path);
	const values = s.firstLineBad ? [] : s.values;
	if (values.length) {
		const first = values[0];
		if (isObj(first) && first.type === 'session' && typeof first.version === 'number' && typeof first.id === 'string') return make(p, bytes, 'pi', 'pi', first.id, 'pi coding-agent session');
		if (looksCursor(values)) return make(p, bytes, 'cursor', 'cursor', stemOf(p), 'Cursor agent transcript');
		if (looksCodex(values)) return make(p, bytes, 'codex', 'codex', codexSessionId(values) ?? stemOf(p), 'Codex CLI rollout');
		if (looksGeminiJsonl(values)) {
			const h = values[0];
			const sid = isObj(h) && typeof h.sessionId === 'string' ? h.sessionId : stemOf(p);
			return make(p, bytes, 'gemini', 'gemini-jsonl', sid, 'Gemini CLI session (JSONL)');
		}
		if (values.every(isStrapEvent)) return make(p, bytes, 'strap', 'strap-jsonl', stemOf(p), 'Strap events (JSONL)');
		if (values.length === 1 && (isStrapDocument(values[0]) || isGeminiDocument(values[0]))) return docClass(p, bytes, values[0]);
		if (values.length === 1 && openCodeKind(values[0])) return openCodeFile(p, bytes, values[0] as Obj);
		const other = otherHarness(values, null);
		if (other) return unknown(p, bytes, other);
		return null;
	}
	const text = (s.text ?? '').trimStart();
	if (!/^[[{]/.test(text)) return null;
	if (s.complete) {
		let doc: unknown;
		try {
			doc = JSON.parse(text);
		} catch {
			return null;
		}
		if (isStrapDocument(doc) || isGeminiDocument(doc)) return docClass(p, bytes, doc);
		if (openCodeKind(doc)) return openCodeFile(p, bytes, doc as Obj);
		const other = otherHarness([], doc);
		return other ? unknown(p, bytes, other) : null;
	}
	// A first line longer than the head: a Codex envelope is recognised by how it starts.
	const envelope = /^\{\s*"timestamp"\s*:\s*"[^"\\]*"\s*,\s*"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context)"/.exec(text);
	if (envelope) {
		const id = envelope[1] === 'session_meta' ? (/"payload"\s*:\s*\{\s*"id"\s*:\s*"([^"\\]*)"/.exec(text)?.[1] ?? null) : null;
		return make(p, bytes, 'codex', 'codex', id ?? stemOf(p), 'Codex CLI rollout');
	}
	// A document larger than the head: recognise it by its keys.
	const start = text.slice(0, 4096);
	if (/"sessionID"\s*:/.test(start) && /"(messageID|role|projectID)"\s*:/.test(start)) {
		return make(p, bytes, 'opencode', 'opencode', /"sessionID"\s*:\s*"([^"\\]*)"/.exec(start)?.[1] ?? null, 'OpenCode storage file');
	}
	if (/"version"\s*:\s*"strap\./.test(text)) return make(p, bytes, 'strap', 'strap-json', stemOf(p), 'Strap state');
	if (/"sessionId"\s*:/.test(text) && /"messages"\s*:/.test(text) && /"projectHash"\s*:/.test(text)) {
		return make(p, bytes, 'gemini', 'gemini-json', /"sessionId"\s*:\s*"([^"\\]*)"/.exec(text)?.[1] ?? stemOf(p), 'Gemini CLI session (JSON)');
	}
	return null;
}

function docClass(p: string, bytes: number, doc: unknown): ClassifiedFile {
	if (isStrapDocument(doc)) return make(p, bytes, 'strap', 'strap-json', stemOf(p), 'Strap state');
	const sid = isObj(doc) && typeof doc.sessionId === 'string' ? doc.sessionId : stemOf(p);
	return make(p, bytes, 'gemini', 'gemini-json', sid, 'Gemini CLI session (JSON)');
}

export function isHarnessFile(c: ClassifiedFile): boolean {
	return c.kind === 'transcript' && c.harness !== undefined && c.harness !== 'claude-code';
}

export function isHarnessDocument(c: ClassifiedFile): boolean {
	return isHarnessFile(c) && HARNESS_DOC_FORMATS.has(c.format ?? '');
}
