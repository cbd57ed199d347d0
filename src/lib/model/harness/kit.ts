// The shared core every non-Claude-Code adapter (codex, strap, gemini, pi, cursor, opencode)
// builds on: a SessionDraft collects atoms in the shapes the Claude Code parser emits (assistant
// text / thinking / tool_use blocks, user tool_result blocks paired by id, compact_boundary
// atoms), places every input record exactly once (atom, metadata, off-path or issue: build.ts's
// accounting rule), and finish() marks where the agent yielded and hands the atoms to the one
// turn grouper (turns.ts). Adapters never group turns or segments themselves.
// Tools: adapters map theirs onto the canonical names the chat draws (Bash, Read, Edit, Task, …)
// with canonical inputs, keep their own name as `harnessTool`, and give results a `toolUseResult`
// in Claude Code's shape (stdout / stderr / exitCode, files for patches): no view tests a harness.
import { groupTurns } from '../turns.ts';
import { parseTimestamp } from '../timestamp.ts';
import type { Atom, Author, ContentBlock, Issue, MetadataLine, OffPathLine, ParseResult, Usage } from '../types.ts';

export type HarnessId = 'claude-code' | 'codex' | 'strap' | 'gemini' | 'pi' | 'cursor' | 'opencode';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** When an atom happened: epoch ms, or null when the format records no time (Strap, Codex G0 items). */
export type When = number | null;

export function msOf(v: unknown): When {
	if (typeof v === 'number' && Number.isFinite(v)) return v > 1e11 ? v : v * 1000;
	return parseTimestamp(v)?.ms ?? null;
}

/** A child transcript an adapter found inline (Strap forks) or that ingest attaches (Codex / Gemini files). */
export interface HarnessChild {
	toolUseId: string;
	agentType: string | null;
	description: string | null;
	file: string;
	result: ParseResult;
}

export interface HarnessResult extends ParseResult {
	harness: HarnessId;
	/** Inline children keyed by their delegation tool_use id (already namespaced to be unique). */
	children: Record<string, HarnessChild>;
	/** Facts for the session list / header. */
	info: { id: string; cwd: string | null; model: string | null; startedAt: number | null; endedAt: number | null; title: string | null; parentId: string | null };
}

type Home = 'atom' | 'meta' | 'off' | 'issue';

interface AtomOpts {
	when: When;
	line: number;
	uuid?: string;
}

export class SessionDraft {
	readonly atoms: Atom[] = [];
	readonly issues: Issue[] = [];
	readonly #homes = new Map<number, { home: Home; meta?: MetadataLine; off?: OffPathLine }>();
	#seq = 0;
	#lines = 0;

	constructor(readonly sessionId: string, readonly file: string) {}

	/** Count one input record (a line, or an item of a JSON document). */
	countLine(): void {
		this.#lines++;
	}

	#uuid(o: AtomOpts): string {
		return o.uuid ?? `${this.sessionId}:${o.line}:${this.#seq++}`;
	}

	#base(type: Atom['type'], o: AtomOpts): Atom {
		const ms = o.when;
		const a: Atom = { type, uuid: this.#uuid(o), session_id: this.sessionId, t: ms === null ? NaN : Math.floor(ms / 1000), line: o.line };
		if (ms !== null) a.ms = ms;
		this.#homes.set(o.line, { home: 'atom' });
		this.atoms.push(a);
		return a;
	}

	/** A prompt or a notice: author human (opens a turn) or system (injected context, runtime notes). */
	user(blocks: ContentBlock[], author: Author, o: AtomOpts & { speaker?: string }): Atom {
		const a = this.#base('user', o);
		a.message = { role: 'user', content: blocks };
		a.author = author;
		a.promptSource = author === 'human' ? 'typed' : 'system';
		if (o.speaker) a.speaker = o.speaker;
		return a;
	}

	assistant(blocks: ContentBlock[], o: AtomOpts & { model?: string | null; usage?: Usage | null; messageId?: string }): Atom {
		const a = this.#base('assistant', o);
		a.message = { role: 'assistant', content: blocks, ...(o.model ? { model: o.model } : {}), ...(o.usage ? { usage: o.usage } : {}) };
		if (o.messageId) a.messageId = o.messageId;
		return a;
	}

	/** The result of a call, as Claude Code records it: a user atom with one tool_result block. */
	result(toolUseId: string, content: unknown, isError: boolean, o: AtomOpts & { toolUseResult?: unknown }): Atom {
		const a = this.#base('user', o);
		a.message = { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) }] };
		a.author = 'system';
		if (o.toolUseResult !== undefined) a.toolUseResult = o.toolUseResult;
		return a;
	}

	compaction(summary: string | null, o: AtomOpts & { preTokens?: number | null; trigger?: string | null }): Atom {
		const a = this.#base('system', o);
		a.subtype = 'compact_boundary';
		a.summary = summary;
		a.compact_metadata = { trigger: o.trigger ?? null, pre_tokens: o.preTokens ?? null, post_tokens: null };
		return a;
	}

	/** An error the agent hit (API error, failed turn): drawn as an error row. */
	error(text: string, o: AtomOpts & { status?: number }): Atom {
		const a = this.assistant([{ type: 'text', text }], o);
		a.isApiError = true;
		if (o.status !== undefined) a.apiErrorStatus = o.status;
		return a;
	}

	/** The human stopped the agent: a notice that also ends the turn (turns.ts reads the text). */
	interrupt(reason: string | null, o: AtomOpts): Atom {
		const why = reason && reason !== 'interrupted' ? ` (${reason})` : '';
		return this.user([{ type: 'text', text: `[Request interrupted by user${why}]` }], 'system', o);
	}

	/** A record whose content went into an atom built from several records (an OpenCode part). */
	partOfAtom(line: number): void {
		this.#homes.set(line, { home: 'atom' });
	}

	/** A record that made no atom: bookkeeping (no row), or an unknown record kept whole (a raw card). */
	meta(line: number, type: string, when: When, value?: unknown, reason?: string): void {
		if (this.#homes.get(line)?.home === 'atom') return;
		const m: MetadataLine = { file: this.file, line, type, t: when === null ? null : Math.floor(when / 1000) };
		if (value !== undefined) m.value = value;
		if (reason) m.reason = reason;
		this.#homes.set(line, { home: 'meta', meta: m });
	}

	/** A record shown elsewhere (a duplicate stream, a rewound message). */
	off(line: number, reason: string): void {
		if (this.#homes.has(line)) return;
		this.#homes.set(line, { home: 'off', off: { file: this.file, line, uuid: null, reason } });
	}

	/** A broken record: its only home is this issue. */
	bad(line: number | null, kind: string, message: string): void {
		if (line === null) {
			this.issues.push({ file: this.file, line, kind, message });
			return;
		}
		if (this.#homes.has(line)) return;
		this.issues.push({ file: this.file, line, kind, message, accounted: true });
		this.#homes.set(line, { home: 'issue' });
	}

	/** A warning about a record that lives elsewhere (not its home). */
	warn(line: number | null, kind: string, message: string): void {
		this.issues.push({ file: this.file, line, kind, message });
	}

	/** First and last atom time (ms), null when no atom has one. */
	span(): { first: number | null; last: number | null } {
		let first: number | null = null;
		let last: number | null = null;
		for (const a of this.atoms) {
			if (typeof a.ms !== 'number') continue;
			if (first === null || a.ms < first) first = a.ms;
			if (last === null || a.ms > last) last = a.ms;
		}
		return { first, last };
	}

	hasHome(line: number): boolean {
		return this.#homes.has(line);
	}

	/**
	 * Mark each yield (the last assistant atom before the next human prompt, and at the end when
	 * `endedAtEof`), group turns, and total the accounting. Lines counted but never placed become
	 * metadata so the totals always balance.
	 */
	finish(opts: { endedAtEof?: boolean; inOrder?: boolean } = {}): Pick<ParseResult, 'session' | 'issues' | 'offPath' | 'metadata' | 'accounting'> {
		markYields(this.atoms, opts.endedAtEof ?? true);
		// `inOrder`: the format's order is the conversation's (Strap events), so nothing is moved.
		const byTime = stableByTime(this.atoms);
		const ordered = opts.inOrder ? byTime : promptsFirst(byTime);
		const turns = groupTurns(ordered, this.sessionId);
		// An untimed turn has no end either (turns.ts starts its max at -Infinity).
		for (const t of turns) if (!Number.isFinite(t.end)) t.end = t.t;
		const metadata: MetadataLine[] = [];
		const offPath: OffPathLine[] = [];
		let atoms = 0;
		let issues = 0;
		for (const h of this.#homes.values()) {
			if (h.home === 'atom') atoms++;
			else if (h.home === 'issue') issues++;
			else if (h.home === 'meta' && h.meta) metadata.push(h.meta);
			else if (h.home === 'off' && h.off) offPath.push(h.off);
		}
		metadata.sort((a, b) => a.line - b.line);
		offPath.sort((a, b) => a.line - b.line);
		const lines = Math.max(this.#lines, atoms + issues + metadata.length + offPath.length);
		// Counted records that never got a home (should not happen; kept honest rather than hidden).
		const unplaced = lines - (atoms + issues + metadata.length + offPath.length);
		for (let i = 0; i < unplaced; i++) metadata.push({ file: this.file, line: 0, type: 'unplaced', reason: 'no home' });
		return {
			session: { rompUuid: this.sessionId, name: this.sessionId, dir: '', color: '#888888', leafFsid: this.sessionId, landedTextUuids: [], turns },
			issues: this.issues,
			offPath,
			metadata,
			accounting: { lines, atoms, offPath: offPath.length, metadata: metadata.length, issues }
		};
	}
}

/** Atoms in time order; untimed atoms keep their place after the timed atom before them. */
function stableByTime(atoms: Atom[]): Atom[] {
	// Formats without times are already in conversation order; with times, writers sometimes log a
	// line late (Codex replays, Gemini re-appends), so sort by time but never move untimed atoms.
	if (!atoms.some((a) => Number.isFinite(a.t))) return atoms;
	const key = (a: Atom) => (typeof a.ms === 'number' ? a.ms : Number.isFinite(a.t) ? a.t * 1000 : NaN);
	let last = -Infinity;
	const keyed = atoms.map((a, i) => {
		const k = key(a);
		if (Number.isFinite(k)) last = k;
		return { a, i, k: Number.isFinite(k) ? k : last };
	});
	keyed.sort((x, y) => x.k - y.k || x.i - y.i);
	return keyed.map((x) => x.a);
}

/**
 * Context injected just before a prompt (AGENTS.md, environment, permissions) goes right after
 * it, so the prompt opens its turn (turns.ts opens turns at human prompts only after a yield).
 */
function promptsFirst(atoms: Atom[]): Atom[] {
	const out: Atom[] = [];
	let pending: Atom[] = [];
	for (const a of atoms) {
		if (a.type === 'user' && a.author === 'system' && !a.message?.content.some((b) => b.type === 'tool_result') && !isInterruptAtom(a)) {
			pending.push(a);
			continue;
		}
		if (isHumanPrompt(a)) out.push(a, ...pending);
		else out.push(...pending, a);
		pending = [];
	}
	out.push(...pending);
	return out;
}

function isInterruptAtom(a: Atom): boolean {
	const b = a.message?.content[0];
	return !!b && b.type === 'text' && typeof b.text === 'string' && b.text.startsWith('[Request interrupted by user');
}

function isHumanPrompt(a: Atom): boolean {
	return a.type === 'user' && a.author === 'human';
}

/** The agent yielded before each human prompt (and at the end of a finished session). */
function markYields(atoms: Atom[], endedAtEof: boolean): void {
	let lastAssistant: Atom | null = null;
	for (const a of atoms) {
		if (isHumanPrompt(a) && lastAssistant) {
			if (lastAssistant.message && lastAssistant.message.stop_reason == null) lastAssistant.message.stop_reason = 'end_turn';
			lastAssistant = null;
		} else if (a.type === 'assistant' && !a.isApiError) lastAssistant = a;
		else if (a.type === 'assistant') lastAssistant = a;
	}
	if (endedAtEof && lastAssistant?.message && lastAssistant.message.stop_reason == null) {
		const hasCall = lastAssistant.message.content.some((b) => b.type === 'tool_use');
		if (!hasCall) lastAssistant.message.stop_reason = 'end_turn';
	}
}

/** Text of Gemini / OpenAI style content: a string, or text parts. */
export function plainText(v: unknown): string {
	if (typeof v === 'string') return v;
	if (Array.isArray(v)) return v.map(plainText).filter((s) => s !== '').join('\n');
	if (isObj(v)) {
		if (typeof v.text === 'string') return v.text;
		if (typeof v.output === 'string') return v.output;
	}
	return '';
}

/** A data: URL image as a Claude-style image block (the chat only draws allow-listed data URLs). */
export function imageBlock(url: string): ContentBlock | null {
	const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
	if (!m) return null;
	return { type: 'image', source: { type: 'base64', media_type: m[1], data: m[2] } };
}

/** One unified-diff-like patch file as the chat's multi-file result shape. */
export interface PatchFile {
	filePath: string;
	type: 'update' | 'create' | 'delete';
	movePath?: string;
	/** Each hunk as the text it replaces and the text it becomes (no line numbers are recorded). */
	edits: { old_string: string; new_string: string }[];
	/** Real hunks with line numbers, when the harness also recorded the applied diff. */
	structuredPatch?: ReturnType<typeof unifiedHunks>;
}

/**
 * Parse a `*** Begin Patch … *** End Patch` body (the apply_patch grammar): Add / Update / Delete
 * File headers, optional `*** Move to:`, `@@` hunk separators, and ' ' / '+' / '-' lines.
 */
export function parseApplyPatch(text: string): PatchFile[] {
	const files: PatchFile[] = [];
	let cur: PatchFile | null = null;
	let oldL: string[] = [];
	let newL: string[] = [];
	const flush = () => {
		if (cur && (oldL.length || newL.length)) cur.edits.push({ old_string: oldL.join('\n'), new_string: newL.join('\n') });
		oldL = [];
		newL = [];
	};
	for (const raw of text.split('\n')) {
		const line = raw.replace(/\r$/, '');
		const head = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
		if (head) {
			flush();
			cur = { filePath: head[2].trim(), type: head[1] === 'Add' ? 'create' : head[1] === 'Delete' ? 'delete' : 'update', edits: [] };
			files.push(cur);
			continue;
		}
		if (!cur) continue;
		const mv = /^\*\*\* Move to: (.+)$/.exec(line);
		if (mv) {
			cur.movePath = mv[1].trim();
			continue;
		}
		if (line.startsWith('*** ')) {
			flush();
			if (line.startsWith('*** End Patch')) cur = null;
			continue;
		}
		if (line.startsWith('@@')) {
			flush();
			continue;
		}
		const op = line[0];
		const body = line.slice(1);
		if (op === '+') newL.push(body);
		else if (op === '-') oldL.push(body);
		else if (op === ' ' || line === '') {
			oldL.push(body);
			newL.push(body);
		}
	}
	flush();
	return files;
}

/** Hunks of a unified diff (`@@ -a,b +c,d @@` headers) in the structuredPatch shape, or null. */
export function unifiedHunks(diff: string): { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] | null {
	const hunks: { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }[] = [];
	let cur: (typeof hunks)[number] | null = null;
	for (const line of diff.split('\n')) {
		const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
		if (h) {
			cur = { oldStart: Number(h[1]), oldLines: Number(h[2] ?? 1), newStart: Number(h[3]), newLines: Number(h[4] ?? 1), lines: [] };
			hunks.push(cur);
		} else if (cur && /^[ +\-\\]/.test(line) && !/^(\+\+\+|---) /.test(line)) cur.lines.push(line);
	}
	return hunks.length ? hunks : null;
}

/** The canonical call + result shape of a patch (Edit for one updated file, Write for one new file). */
export function patchCall(files: PatchFile[], raw: string): { name: string; input: Obj; toolUseResult: Obj } {
	const first = files[0];
	const toolUseResult: Obj = { filePath: first?.filePath ?? '', files, patch: raw };
	if (files.length === 1 && first.type === 'create') {
		toolUseResult.type = 'create';
		return { name: 'Write', input: { file_path: first.filePath, content: first.edits.map((e) => e.new_string).join('\n') }, toolUseResult };
	}
	if (files.length === 1 && first.edits.length <= 1) {
		const e = first.edits[0] ?? { old_string: '', new_string: '' };
		return { name: 'Edit', input: { file_path: first.filePath, old_string: e.old_string, new_string: e.new_string }, toolUseResult };
	}
	return { name: 'MultiEdit', input: { file_path: first?.filePath ?? '', edits: first?.edits ?? [] }, toolUseResult };
}
