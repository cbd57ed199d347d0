// The scan (scan.ts) for files of other harnesses — Codex CLI rollouts, Gemini CLI, Strap, pi,
// Cursor, OpenCode: what one file's head says (run through the harness's own adapter, so the
// title is the first prompt a human typed and never injected context), and how files group into
// listed sessions the way harnesses.ts groups them on a full load: a Codex child thread under the
// thread its session_meta names, a Gemini sub-agent file under chats/<parentId>/ with that
// session, a Cursor <dir>/subagents/ file with the one transcript in <dir>, OpenCode message and
// part documents with their session. The full parse on open is still load-files.ts.
import { msOf, type HarnessId } from '../model/harness/kit.ts';
import type { FileRecords } from '../model/index.ts';
import type { HeadSniff } from './types.ts';
import { HARNESS_DOC_FORMATS, harnessTitle, openCodeKind, runAdapter, type HarnessFormat } from './harnesses.ts';
import { dirOf, segments } from './paths.ts';
import type { ClassifiedFile } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Harness JSON documents are parsed whole by the scan up to this size; bigger ones list with what their head names. */
export const SCAN_DOC_MAX = 1024 * 1024;

/** What the head of one harness file says: FileScan's harness part. */
export interface HarnessFacts {
	harness: HarnessId;
	format: HarnessFormat;
	/** The thread / session id the harness gives this file (Codex session_meta id, Gemini sessionId…). */
	thread: string;
	/** The thread this one is a child of, as the file itself names it (Codex, OpenCode). */
	parent: string | null;
	/** OpenCode: which storage document this is, and the message id it is or belongs to. */
	openCode: 'session' | 'message' | 'part' | null;
	message: string | null;
	title: string | null;
	prompts: number;
	firstMs: number | null;
	lastMs: number | null;
	model: string | null;
	cwd: string | null;
}

/** The one JSON value of a document whose whole text the head holds, or undefined. */
function documentOf(s: HeadSniff): unknown {
	if (s.values.length === 1 && s.badLines === 0) return s.values[0];
	if (!s.complete || s.text === null) return undefined;
	try {
		return JSON.parse(s.text);
	} catch {
		return undefined;
	}
}

function openCodeFacts(c: ClassifiedFile, doc: unknown, base: HarnessFacts): HarnessFacts {
	if (!isObj(doc)) return { ...base, openCode: 'session' };
	const kind = openCodeKind(doc);
	const time = isObj(doc.time) ? doc.time : {};
	const firstMs = msOf(time.created);
	const lastMs = msOf(time.updated ?? time.completed) ?? firstMs;
	if (kind === 'session') return { ...base, openCode: 'session', thread: str(doc.id) ?? base.thread, parent: str(doc.parentID), title: str(doc.title), firstMs, lastMs, cwd: str(doc.directory) };
	if (kind === 'message') return { ...base, openCode: 'message', thread: str(doc.sessionID) ?? base.thread, message: str(doc.id), firstMs, lastMs, model: str(doc.modelID), prompts: doc.role === 'user' ? 1 : 0 };
	// A part names its message (or sits in part/<messageID>/); its session only in newer storage.
	const dir = segments(c.path).at(-2) ?? null;
	return { ...base, openCode: 'part', thread: str(doc.sessionID) ?? '', message: str(doc.messageID) ?? dir, firstMs, lastMs };
}

/** The harness facts of a file classify.ts gave to another harness, from its head sniff. */
export function scanHarnessHead(c: ClassifiedFile, s: HeadSniff, size: number): HarnessFacts {
	const format = c.format as HarnessFormat;
	const base: HarnessFacts = { harness: c.harness as HarnessId, format, thread: c.sessionId ?? '', parent: null, openCode: null, message: null, title: null, prompts: 0, firstMs: null, lastMs: null, model: null, cwd: null };
	const doc = HARNESS_DOC_FORMATS.has(format) ? documentOf(s) : undefined;
	if (format === 'opencode') return openCodeFacts(c, doc, base);
	let records: FileRecords | undefined;
	if (!HARNESS_DOC_FORMATS.has(format)) records = recordsOf(c, s.values.filter(isObj), size);
	else if (doc === undefined) return base; // a document bigger than the scan reads: listed by name only
	const r = runAdapter({ file: c, records, doc }, []);
	if (!r) return base;
	const human = r.session.turns.filter((t) => t.atoms.some((a) => a.type === 'user' && a.author === 'human')).length;
	return {
		...base,
		thread: r.info.id || base.thread,
		parent: r.info.parentId,
		title: harnessTitle(r),
		prompts: human,
		firstMs: r.info.startedAt,
		lastMs: r.info.endedAt,
		model: r.info.model,
		cwd: r.info.cwd
	};
}

function recordsOf(c: ClassifiedFile, values: Obj[], size: number): FileRecords {
	return { file: c.path, bytes: size, lines: values.length, records: values.map((value, i) => ({ line: i + 1, value, bytes: 0 })), issues: [] };
}

/**
 * The last time a harness file's read lines name, by the file's adapter as the head is read (so
 * the listed end is the opened session's, whichever field and form the format keeps its times
 * in); null for a document format (it has no lines) or no timed atom.
 */
export function scanHarnessLastMs(c: ClassifiedFile, values: Obj[]): number | null {
	if (HARNESS_DOC_FORMATS.has(c.format ?? '')) return null;
	return runAdapter({ file: c, records: recordsOf(c, values, 0) }, [])?.info.endedAt ?? null;
}

/** The minimal view of a scanned file the grouping needs. */
export interface HarnessFile {
	path: string;
	other: HarnessFacts;
}

/**
 * Which file each harness file lists under: `roots` maps every placed file to its root (itself
 * when it is listed on its own). `partial`: the scan still runs, so a file naming a parent not seen
 * yet is left out for now. `orphans`: OpenCode parts whose message and session are not in the drop.
 */
export function harnessRoots<F extends HarnessFile>(files: readonly F[], partial = false): { roots: Map<F, F>; orphans: F[] } {
	const byThread = new Map<string, F>();
	const messageSession = new Map<string, string>();
	for (const f of files) {
		if (f.other.openCode === 'message' && f.other.message !== null) messageSession.set(f.other.message, f.other.thread);
		else if (f.other.format !== 'opencode' && !byThread.has(`${f.other.harness}\n${f.other.thread}`)) byThread.set(`${f.other.harness}\n${f.other.thread}`, f);
	}
	// OpenCode: one session per id, rooted at its session document, else at its first message or part.
	const sidOf = (f: F) => (f.other.openCode === 'part' ? f.other.thread || messageSession.get(f.other.message ?? '') || '' : f.other.thread);
	const ocRoot = new Map<string, F>();
	for (const kind of ['session', 'message', 'part'] as const)
		for (const f of files) if (f.other.format === 'opencode' && (f.other.openCode ?? 'session') === kind && sidOf(f) && !ocRoot.has(sidOf(f))) ocRoot.set(sidOf(f), f);
	const orphans: F[] = [];
	/** The parent file; null: a root; undefined: not placeable (yet). */
	const parentOf = (f: F): F | null | undefined => {
		const h = f.other;
		if (h.format === 'opencode') {
			const owner = ocRoot.get(sidOf(f));
			if (!owner) return undefined;
			if (owner !== f) return owner;
			const p = h.openCode === 'session' && h.parent ? ocRoot.get(h.parent) : undefined;
			return p && p !== f ? p : null;
		}
		let wanted: string | null = null;
		if (h.harness === 'codex' && h.parent) wanted = `codex\n${h.parent}`;
		const s = segments(f.path);
		// Gemini keeps a sub-agent's file in chats/<parent session id>/.
		if (h.harness === 'gemini' && s.at(-3) === 'chats' && s.at(-2) !== h.thread) wanted = `gemini\n${s.at(-2)}`;
		if (wanted) {
			const p = byThread.get(wanted);
			return p && p !== f ? p : partial ? undefined : null;
		}
		const m = h.harness === 'cursor' ? /^(.*)\/subagents\/[^/]+$/.exec(f.path) : null;
		if (m) {
			const owners = files.filter((x) => x.other.harness === 'cursor' && dirOf(x.path) === m[1]);
			return owners.length === 1 ? owners[0] : partial ? undefined : null;
		}
		return null;
	};
	const roots = new Map<F, F>();
	for (const f of files) {
		// Follow parents up to the root (a grandchild thread lists with its grandparent), never in a circle.
		let root: F = f;
		const seen = new Set<F>([f]);
		let placed = true;
		for (;;) {
			const p = parentOf(root);
			if (p === undefined) {
				placed = false;
				break;
			}
			if (p === null || seen.has(p)) break;
			seen.add(p);
			root = p;
		}
		if (placed) roots.set(f, root);
		else if (f.other.format === 'opencode' && !partial) orphans.push(f);
	}
	return { roots, orphans };
}

/**
 * The folder a harness session is listed under: Codex keeps rollouts in sessions/YYYY/MM/DD/, so a
 * dropped ~/.codex/sessions is one project, not one per day; Gemini's chats/ sits in its project's folder.
 */
export function harnessProject(path: string, harness: HarnessId): string {
	let s = segments(path).slice(0, -1);
	if (harness === 'codex') {
		const date = [/^\d{4}$/, /^\d{2}$/, /^\d{2}$/];
		for (let n = 3; n > 0; n--) {
			const tail = s.slice(-n);
			if (tail.length === n && tail.every((x, i) => date[i].test(x))) {
				s = s.slice(0, -n);
				break;
			}
		}
	}
	if (harness === 'gemini' && s.at(-1) === 'chats') s = s.slice(0, -1);
	return s.join('/');
}
