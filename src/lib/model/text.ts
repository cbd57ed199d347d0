// Content and text helpers shared by the emission rules: content normalisation, the "text" of
// an atom (text blocks joined with one space, Python-stripped), the romp markers inside user
// text, command wrappers, ANSI stripping, and the atom's author (reference §1.3, §1.4, §2.6).
// Every pattern the reference matches with a regex is written here in Python syntax and built by
// pyRegExp (pyre.ts), so it matches exactly the strings Python's Unicode-aware `re` matches
// (\s \w \b, re.I folding); pyre.test.ts runs each against what Python itself answered.
import { pyStrip } from './pystr.ts';
import { pyRegExp } from './pyre.ts';
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

/** The reference's patterns (Python syntax), by role. match = anchored at the start. */
export const PATTERNS = {
	/** search: a postal delivery's id comment */
	postalId: pyRegExp(String.raw`<!--\s*romp-msg-id:\s*(\S+?)\s*-->`),
	/** findall: id and kind comments, in order */
	postalMarker: pyRegExp(String.raw`<!--\s*romp-msg-(id|kind):\s*(\S+?)\s*-->`, { global: true }),
	/** search */
	injected: pyRegExp(String.raw`<!--\s*romp-injected\s*-->`),
	/** search */
	auto: pyRegExp(String.raw`<!--\s*romp-auto\s*-->`),
	/** match: a harness injection */
	harnessTag: pyRegExp(String.raw`^\s*<(?:task-notification|system-reminder)\b`),
	/** match, re.I: Claude Code's native teammate channel, optionally inside one wrapper tag */
	teammate: pyRegExp(String.raw`^\s*(?:<\w+>\s*)?Another Claude session sent a message:`, { ignoreCase: true }),
	/** match: any slash-command wrapper */
	commandWrapper: pyRegExp(String.raw`^\s*<(?:command-(?:name|message|args|contents)|local-command-(?:stdout|caveat))>`),
	/** match: the invocation, <command-name> first */
	commandNameFirst: pyRegExp(String.raw`^\s*<command-name>([^<]*)</command-name>`),
	/** search: the invocation anywhere (only inside a text that starts with a wrapper) */
	commandName: pyRegExp(String.raw`<command-name>([^<]*)</command-name>`),
	/** search */
	commandArgs: pyRegExp(String.raw`<command-args>([\s\S]*?)</command-args>`),
	/** match: a local command's output */
	stdout: pyRegExp(String.raw`^\s*<local-command-stdout>([\s\S]*?)</local-command-stdout>`),
	/** sub: the CSI escapes the reference strips from stdout */
	ansi: pyRegExp(String.raw`\x1b\[[0-9;?]*[ -/]*[@-~]`, { global: true }),
	/** match: skill instructions */
	skillPreamble: pyRegExp(String.raw`^\s*Base directory for this skill:`),
	/** match: an image fed to a tool */
	imageEcho: pyRegExp(String.raw`^\[Image:[^\]]*\]$`),
};

const POSTAL_KINDS = new Set(['delegate', 'coordinate', 'question']);

export function hasPostalMarker(text: string): boolean {
	return text.includes('romp-msg-id') && PATTERNS.postalId.test(text);
}

export function hasAutoMarker(text: string): boolean {
	return text.includes('romp-auto') && PATTERNS.auto.test(text);
}

/** Id/kind pairs in text order; a kind binds to the id just before it (first kind wins). */
export function postalPairs(text: string): { mid: string; kind: string }[] {
	const pairs: { mid: string; kind: string; bound: boolean }[] = [];
	if (!text.includes('romp-msg-')) return pairs;
	const marker = PATTERNS.postalMarker;
	marker.lastIndex = 0;
	let m: RegExpExecArray | null;
	while ((m = marker.exec(text)) !== null) {
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
		if (PATTERNS.harnessTag.test(text)) return 'system';
		if (PATTERNS.teammate.test(text)) return 'teammate';
		const pairs = postalPairs(text);
		if (pairs.length > 0) {
			for (let i = pairs.length - 1; i >= 0; i--) {
				const from = ctx.postal.get(pairs[i].mid);
				if (from !== undefined) return { peer: from, mid: pairs[i].mid, kind: pairs[i].kind };
			}
			const last = pairs[pairs.length - 1];
			return { peer: null, mid: last.mid, kind: last.kind };
		}
		if (text.includes('romp-injected') && PATTERNS.injected.test(text)) return 'romp';
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

// viewer (D10): every CSI sequence (any parameter bytes), OSC sequences (hyperlinks, titles) and
// two-byte escapes, where the reference strips only CSI sequences with digits, ";" and "?".
// eslint-disable-next-line no-control-regex
const ANSI_ALL = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Text without terminal escape sequences (colours, cursor moves, hyperlinks) that CLI output carries. */
export function stripAnsi(text: string): string {
	return text.replace(ANSI_ALL, '');
}

/** Rule 10: the text starts with a slash-command wrapper (it is harness noise unless rule 1 or 2 took it). */
export function startsWithWrapper(text: string): boolean {
	return PATTERNS.commandWrapper.test(text);
}

/** "/name" from a <command-name> tag's content (an empty name is "/?"). */
function commandName(raw: string): string {
	const n = pyStrip(raw);
	if (!n) return '/?';
	return n.startsWith('/') ? n : '/' + n;
}

/** Rule 1, a slash-command invocation: "/name" and the display text, or null. */
export function parseCommand(text: string): { name: string; display: string } | null {
	// <command-name> first, else anywhere in a text that starts with any wrapper (the first
	// pattern implies the wrapper test, which fails at once on ordinary prose).
	if (!PATTERNS.commandWrapper.test(text)) return null;
	const m = PATTERNS.commandNameFirst.exec(text) ?? PATTERNS.commandName.exec(text);
	if (!m) return null;
	const name = commandName(m[1]);
	const a = PATTERNS.commandArgs.exec(text);
	const args = a ? pyStrip(a[1]) : '';
	return { name, display: args ? `${name} ${args}` : name };
}

/** The command name of a <command-name>-FIRST text (pre-pass c: invocation twins). */
export function leadingCommandName(text: string): string | null {
	const m = PATTERNS.commandNameFirst.exec(text);
	return m ? commandName(m[1]) : null;
}

/**
 * Rule 2, a local command's output: the text between the stdout tags, ANSI-stripped and
 * stripped, or null. The reference needs the closing tag and strips CSI colour codes only; viewer
 * mode (D10) also reads an unclosed output to the end and strips every escape sequence.
 */
export function parseStdout(text: string, viewer = false): string | null {
	const m = PATTERNS.stdout.exec(text);
	if (m) return pyStrip(viewer ? stripAnsi(m[1]) : m[1].replace(PATTERNS.ansi, ''));
	const open = viewer ? STDOUT_OPEN.exec(text) : null;
	return open ? pyStrip(stripAnsi(text.slice(open[0].length))) : null;
}

const STDOUT_OPEN = pyRegExp(String.raw`^\s*<local-command-stdout>`);

export const SKILL_PREAMBLE = 'Base directory for this skill:';

/** Rule 4's text shape: skill instructions. */
export function isSkillText(text: string): boolean {
	return text.includes(SKILL_PREAMBLE) && PATTERNS.skillPreamble.test(text);
}

/** Rule 5: the whole text is an `[Image: …]` placeholder. */
export function isImageEcho(text: string): boolean {
	return text.startsWith('[Image:') && PATTERNS.imageEcho.test(text);
}

export function isInterruptText(text: string): boolean {
	return text.startsWith('[Request interrupted by user');
}
