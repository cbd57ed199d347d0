// Content and text helpers shared by the emission rules: content normalisation, the "text" of
// an atom (text blocks joined with one space, Python-stripped), the romp markers inside user
// text, command wrappers, ANSI stripping, and the atom's author (reference §1.3, §1.4, §2.6).
// Regexes use explicit Python whitespace/word classes (pystr.ts) so \s and \w match what
// Python's Unicode-aware re module matches.
import { PY_WS, pyStrip } from './pystr.ts';
import type { Author, ContentBlock } from './types.ts';

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
	return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** String content becomes one text block when non-blank; a list is kept as given. */
export function normContent(content: unknown): ContentBlock[] {
	if (typeof content === 'string') return pyStrip(content) ? [{ type: 'text', text: content }] : [];
	if (Array.isArray(content)) return content as ContentBlock[];
	return [];
}

/** Text of a block list: every text block's text, joined with one space, then stripped.
 *  Sets `bad.nullText` when a text block's text is not a string (counted as ""). */
export function blocksText(blocks: unknown, bad?: { nullText: boolean }): string {
	if (typeof blocks === 'string') return pyStrip(blocks);
	if (!Array.isArray(blocks)) return '';
	let out: string | null = null;
	for (const b of blocks) {
		if (!isObj(b) || b.type !== 'text') continue;
		let t = b.text;
		if (typeof t !== 'string') {
			if (bad) bad.nullText = true;
			t = '';
		}
		out = out === null ? (t as string) : out + ' ' + (t as string);
	}
	return out === null ? '' : pyStrip(out);
}

export function hasToolResult(blocks: unknown): boolean {
	if (!Array.isArray(blocks)) return false;
	for (const b of blocks) if (isObj(b) && b.type === 'tool_result') return true;
	return false;
}

// ── markers ────────────────────────────────────────────────────────────────

const S = `[${PY_WS}]`;
const NS = `[^${PY_WS}]`;
const MSG_ID = new RegExp(`<!--${S}*romp-msg-id:${S}*(${NS}+?)${S}*-->`, 'gu');
const MARKER = new RegExp(`<!--${S}*romp-msg-(id|kind):${S}*(${NS}+?)${S}*-->`, 'gu');
const INJECTED = new RegExp(`<!--${S}*romp-injected${S}*-->`, 'u');
const AUTO = new RegExp(`<!--${S}*romp-auto${S}*-->`, 'u');
const TEAMMATE = new RegExp(`^${S}*(?:<[A-Za-z][^>]*>${S}*)?another claude session sent a message:`, 'iu');
const POSTAL_KINDS = new Set(['delegate', 'coordinate', 'question']);

export function hasPostalMarker(text: string): boolean {
	MSG_ID.lastIndex = 0;
	return text.includes('romp-msg-id') && MSG_ID.test(text);
}

export function hasAutoMarker(text: string): boolean {
	return text.includes('romp-auto') && AUTO.test(text);
}

/** Id/kind pairs in text order; a kind binds to the id just before it (first kind wins). */
export function postalPairs(text: string): { mid: string; kind: string }[] {
	const pairs: { mid: string; kind: string; bound: boolean }[] = [];
	if (!text.includes('romp-msg-')) return pairs;
	MARKER.lastIndex = 0;
	let m: RegExpExecArray | null;
	while ((m = MARKER.exec(text)) !== null) {
		if (m[1] === 'id') {
			pairs.push({ mid: m[2], kind: '', bound: false });
		} else {
			// A kind binds to the nearest id before it; unknown kinds and a second kind are ignored.
			const cur = pairs[pairs.length - 1];
			if (cur && !cur.bound && POSTAL_KINDS.has(m[2])) {
				cur.kind = m[2];
				cur.bound = true;
			}
		}
	}
	return pairs.map(({ mid, kind }) => ({ mid, kind }));
}

export interface AuthorContext {
	postal: Map<string, string>;
	sdkHuman: boolean;
}

/** §2.6: the author of a user atom, or null for none (tool_result-only lines). */
export function deriveAuthor(text: string, promptSource: unknown, ctx: AuthorContext): Author | null {
	if (text) {
		if (text.startsWith('<task-notification') || text.startsWith('<system-reminder')) return 'system';
		if (TEAMMATE.test(text)) return 'teammate';
		const pairs = postalPairs(text);
		if (pairs.length > 0) {
			for (let i = pairs.length - 1; i >= 0; i--) {
				const from = ctx.postal.get(pairs[i].mid);
				if (from !== undefined) return { peer: from, mid: pairs[i].mid, kind: pairs[i].kind };
			}
			const last = pairs[pairs.length - 1];
			return { peer: null, mid: last.mid, kind: last.kind };
		}
		if (text.includes('romp-injected') && INJECTED.test(text)) return 'romp';
	}
	if (promptSource === 'sdk') return ctx.sdkHuman ? 'human' : 'sdk';
	if (promptSource === 'system') return 'system';
	if (promptSource === 'typed' || promptSource === 'queued') return 'human';
	return text ? 'human' : null;
}

export function isOpenerAuthor(a: Author | null | undefined): boolean {
	if (a === 'human' || a === 'sdk' || a === 'romp') return true;
	return isObj(a);
}

// ── commands ───────────────────────────────────────────────────────────────

const WRAPPERS = ['<command-message>', '<command-args>', '<command-contents>', '<local-command-caveat>', '<command-name>'];
const NAME_RE = /<command-name>([\s\S]*?)<\/command-name>/;
const ARGS_RE = /<command-args>([\s\S]*?)<\/command-args>/;
const STDOUT_RE = /^<local-command-stdout>([\s\S]*?)(?:<\/local-command-stdout>|$)/;
// CSI sequences, OSC sequences, and two-byte escapes.
// eslint-disable-next-line no-control-regex
const ANSI_RE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Text without terminal escape sequences (colours, cursor moves) that CLI output carries. */
export function stripAnsi(text: string): string {
	return text.replace(ANSI_RE, '');
}

export function startsWithWrapper(text: string): boolean {
	if (text.charCodeAt(0) !== 0x3c) return false;
	for (const w of WRAPPERS) if (text.startsWith(w)) return true;
	return text.startsWith('<local-command-stdout>');
}

/** A slash-command invocation: returns "/name" and the display text, or null. */
export function parseCommand(text: string): { name: string; display: string } | null {
	if (text.charCodeAt(0) !== 0x3c) return null;
	const first = text.startsWith('<command-name>');
	if (!first) {
		let wrapped = false;
		for (const w of WRAPPERS) if (text.startsWith(w)) wrapped = true;
		if (!wrapped || !text.includes('<command-name>')) return null;
	}
	const m = NAME_RE.exec(text);
	if (!m) return null;
	let name = pyStrip(m[1]);
	if (!name) name = '/?';
	else if (!name.startsWith('/')) name = '/' + name;
	const a = ARGS_RE.exec(text);
	const args = a ? pyStrip(a[1]) : '';
	return { name, display: args ? `${name} ${args}` : name };
}

/** The command name of a <command-name>-FIRST text (used for invocation twins). */
export function leadingCommandName(text: string): string | null {
	if (!text.startsWith('<command-name>')) return null;
	const m = NAME_RE.exec(text);
	if (!m) return null;
	const n = pyStrip(m[1]);
	if (!n) return '/?';
	return n.startsWith('/') ? n : '/' + n;
}

export function parseStdout(text: string): string | null {
	if (!text.startsWith('<local-command-stdout>')) return null;
	const m = STDOUT_RE.exec(text);
	const inner = m ? m[1] : '';
	return pyStrip(inner.replace(ANSI_RE, ''));
}

export const SKILL_PREAMBLE = 'Base directory for this skill:';
const IMAGE_RE = /^\[Image:[^\]]*\]$/;
export function isImageEcho(text: string): boolean {
	return text.startsWith('[Image:') && IMAGE_RE.test(text);
}

export function isInterruptText(text: string): boolean {
	return text.startsWith('[Request interrupted by user');
}
