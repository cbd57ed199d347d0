// Two-phase load, phase one: the session list of a big drop from only the head and the tail of
// each file (Blob.slice, never the middle), so thousands of sessions list in a fraction of a full
// parse. Per file: its kind, title facts, first and last timestamps, model, cwd, and the session
// ids its head names (a resumed session's resume link). `groupScans` then groups files by layout:
// `<project>/<sid>.jsonl` a session, `<sid>/subagents/*` its subagents, `states/<sid>.jsonl` its
// state log; a linked earlier session is taken in as an ancestor; a `<sid>/subagents/` folder
// without `<sid>.jsonl` is one session marked mainMissing (orphans.ts); a file with no
// conversation line is none (group.ts's rule). Other harnesses: scan-harness.ts. Phase two (the
// full parse when a session is opened) is load-files.ts. `turnsEst` is the head's prompts
// extrapolated over the file's size (`exact` when the head was the whole file).
// Over 400 lines and kept whole: the scan, its stored form and the grouping share one record
// shape, and the scan index stores exactly what this file reads.
import { classifyFile, sniffHead } from './classify.ts';
import { cyrb53 } from './load-files.ts';
import { msOf, titleFields } from './summary.ts';
import { promptOf } from './prompt-text.ts';
import { titleOf, type TitleFacts } from './session-meta.ts';
import { baseName, dirOf, normPath, segments, stemOf } from './paths.ts';
import { orphanFolderOf } from './orphans.ts';
import { metadataOnlyReason } from './group.ts';
import type { ClassifiedFile, FileKind, HeadSniff, InputFile } from './types.ts';
import { MODEL_VERSION } from '../model/index.ts';
import type { HarnessId } from '../model/harness/kit.ts';
import { HARNESS_DOC_FORMATS, isHarnessFile } from './harnesses.ts';
import { harnessProject, harnessRoots, scanHarnessHead, scanHarnessLastMs, SCAN_DOC_MAX, type HarnessFacts } from './scan-harness.ts';

export const SCAN_HEAD = 32 * 1024;
export const SCAN_TAIL = 16 * 1024;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the head and tail of one file say. */
export interface FileScan extends TitleFacts {
	path: string;
	name: string;
	kind: FileKind;
	/** Session id from classification (the folder of a subagent, the state log's name, the lines). */
	sessionId: string | null;
	agentId: string | null;
	bytes: number;
	reason: string | null;
	firstMs: number | null;
	lastMs: number | null;
	model: string | null;
	cwd: string | null;
	/** Real prompts seen in the inspected bytes, and how many bytes that was. */
	prompts: number;
	/** Of `prompts`, those on lines of another session (a resume replaying its ancestor's lines):
	 *  the ancestor counts them when it is listed with this file. */
	linkedPrompts?: number;
	/** Lines seen that carry a uuid (conversation lines); kept when a stored scan drops its uuids. */
	uuidLines?: number;
	seenBytes: number;
	/** The head and tail together were the whole file. */
	whole: boolean;
	/** Session ids on the head's lines other than this file's own (resume links). */
	linked: string[];
	/** name:size:hash(head):hash(tail), for the session key. */
	fingerprint: string;
	/** A file of another harness than Claude Code: what its head says (null for Claude Code files). */
	other: HarnessFacts | null;
}

/** One listed session: enough for the list and to build it later from `files`. */
export interface ScannedSession {
	key: string;
	/** The leaf file's stem (the session id Claude Code named it by); another harness's own session id. */
	id: string;
	/** Folder holding the leaf transcript ('' at the top of the drop). */
	project: string;
	harness: HarnessId;
	title: string;
	startedAt: number | null;
	endedAt: number | null;
	/** Bytes of every file of the session (transcripts, subagents, sidecars). */
	bytes: number;
	turnsEst: number;
	/** True when turnsEst is a count over whole files, not an extrapolation. */
	exact: boolean;
	subagents: number;
	model: string | null;
	cwd: string | null;
	/** Paths of the session's files: ancestors, leaf, subagents and sidecars, state log, postal log
	 *  (another harness: its main file first, then child threads / storage documents). */
	files: string[];
	/** An orphaned subagent folder (orphans.ts): `files` are its subagents, `id` the folder's session id. */
	mainMissing?: boolean;
}

export interface ScanListing {
	sessions: ScannedSession[];
	/** Files no listed session uses (tool-results side files, unknown files), with a reason. */
	unused: { path: string; reason: string }[];
}

const parseObj = (line: string): Obj | null => {
	try {
		const v: unknown = JSON.parse(line);
		return isObj(v) ? v : null;
	} catch {
		return null; // a bad line is the full parse's business; the scan only skips it
	}
};

/**
 * The records of a tail worth parsing, oldest first: the last line that carries a timestamp, and
 * every title record. Parsing is the scan's main cost, so other lines are only looked at as text.
 */
function tailRecords(bytes: Uint8Array): Obj[] {
	const lines = new TextDecoder('utf-8').decode(bytes).split('\n');
	lines.shift(); // cut by the slice
	const out: Obj[] = [];
	let timed = false;
	for (let i = lines.length - 1; i >= 0; i--) {
		const line = lines[i].trim();
		if (!line || line[0] !== '{') continue;
		const titled = line.includes('-title"') || line.includes('"summary"');
		if (!titled && (timed || !line.includes('"timestamp"'))) continue;
		const r = parseObj(line);
		if (!r) continue;
		if (!timed && typeof r.timestamp === 'string') timed = true;
		out.push(r);
	}
	return out.reverse();
}

/** Every JSON object line of a slice; `cut`: it starts inside a line, so the first is skipped. */
function lineValues(bytes: Uint8Array, cut: boolean): Obj[] {
	const lines = new TextDecoder('utf-8').decode(bytes).split('\n');
	if (cut) lines.shift();
	const out: Obj[] = [];
	for (const l of lines) {
		const line = l.trim();
		const r = line[0] === '{' ? parseObj(line) : null;
		if (r) out.push(r);
	}
	return out;
}

const isCommand = (p: string) => p.startsWith('/') || p.startsWith('! ');

/** Scans one file from its head and tail bytes (tail empty when the head is the whole file). */
export function scanFile(path: string, head: Uint8Array, tail: Uint8Array, size: number): FileScan {
	const p = normPath(path);
	const sniff = size > 0 ? sniffHead(head, size) : undefined;
	const c = classifyFile(p, head, size, sniff);
	const whole = head.length >= size;
	const stem = stemOf(p);
	const scan: FileScan = {
		path: p,
		name: baseName(p),
		kind: c.kind,
		sessionId: c.sessionId,
		agentId: c.agentId ?? null,
		bytes: size,
		reason: c.reason ?? null,
		firstMs: null,
		lastMs: null,
		model: null,
		cwd: null,
		prompts: 0,
		seenBytes: whole ? size : head.length,
		whole,
		linked: [],
		fingerprint: `${baseName(p)}:${size}:${cyrb53(head.subarray(0, 4096)).toString(36)}:${cyrb53((whole ? head : tail).subarray(Math.max(0, (whole ? head : tail).length - 4096))).toString(36)}`,
		customTitle: null,
		aiTitle: null,
		summaries: [],
		uuids: new Set(),
		firstPrompt: null,
		other: null
	};
	if (c.kind !== 'transcript' && c.kind !== 'subagent') return scan;
	if (c.format === 'web-json') return scan;
	// classify parsed the head's complete lines already (up to 200 of them): reuse its values.
	const headRecs = (sniff?.values ?? []).filter(isObj);
	// A whole small file whose lines outnumber the sniff's cap still needs its last time and titles.
	const rest = !whole ? tail : headRecs.length >= 200 ? head : null;
	// Another harness's adapter reads the head with the tail (not the tail alone: what a line becomes
	// can hang on earlier lines, e.g. Codex uses its event mirrors only in a file without items).
	if (sniff && isHarnessFile(c)) return scanOther(scan, c, sniff, rest === null ? null : whole ? lineValues(head, false) : [...headRecs, ...lineValues(tail, true)]);
	const tailRecs = rest === null ? [] : tailRecords(rest);
	const linked = new Set<string>();
	let firstCommand: string | null = null;
	const visit = (r: Obj, inHead: boolean) => {
		const ms = msOf(r.timestamp);
		if (ms !== null) {
			if (inHead && (scan.firstMs === null || ms < scan.firstMs)) scan.firstMs = ms;
			if (scan.lastMs === null || ms > scan.lastMs) scan.lastMs = ms;
		}
		if (typeof r.uuid === 'string') {
			scan.uuids.add(r.uuid);
			scan.uuidLines = (scan.uuidLines ?? 0) + 1;
		}
		if (scan.cwd === null && typeof r.cwd === 'string') scan.cwd = r.cwd;
		if (r.type === 'assistant' && isObj(r.message) && typeof r.message.model === 'string' && r.message.model !== '<synthetic>') scan.model = r.message.model;
		if (inHead && typeof r.sessionId === 'string' && r.sessionId !== stem && r.sessionId !== c.sessionId) linked.add(r.sessionId);
		titleFields(r, scan);
		if (inHead && r.type === 'user') {
			const allowSidechain = c.kind === 'subagent';
			const prompt = promptOf(r, { allowSidechain });
			if (prompt !== null) {
				if (isCommand(prompt)) firstCommand ??= prompt;
				else {
					scan.firstPrompt ??= prompt;
					scan.prompts++;
					if (typeof r.sessionId === 'string' && r.sessionId !== stem && r.sessionId !== c.sessionId) scan.linkedPrompts = (scan.linkedPrompts ?? 0) + 1;
				}
			}
		}
	};
	for (const r of headRecs) visit(r, true);
	for (const r of tailRecs) visit(r, false);
	scan.firstMs ??= scan.lastMs;
	scan.firstPrompt ??= firstCommand;
	if (firstCommand !== null && scan.prompts === 0) scan.prompts = 1;
	scan.linked = [...linked];
	return scan;
}

/** A file of another harness: its adapter read the head; `read` (head and tail, or the whole file
 *  when the head sniff did not cover it) gives the last time by the adapter's own rule (epoch
 *  numbers, Strap's `time`, pi's message time), as the opened session has it. */
function scanOther(scan: FileScan, c: ClassifiedFile, sniff: HeadSniff, read: Obj[] | null): FileScan {
	const other = scanHarnessHead(c, sniff, scan.bytes);
	const tailMs = read ? scanHarnessLastMs(c, read) : null;
	const lastMs = tailMs !== null && (other.lastMs === null || tailMs > other.lastMs) ? tailMs : other.lastMs;
	const firstMs = other.firstMs ?? lastMs;
	return { ...scan, other: { ...other, lastMs }, firstMs, lastMs, model: other.model, cwd: other.cwd, prompts: other.prompts, firstPrompt: other.title };
}

/** The project folder of a path inside a session's own folder (`<project>/<sid>/subagents/x`). */
function projectOfNested(path: string, marker: string): { project: string; sid: string } | null {
	const s = segments(path);
	const i = s.lastIndexOf(marker);
	if (i < 1) return null;
	return { project: s.slice(0, i - 1).join('/'), sid: s[i - 1] };
}

interface Draft {
	leaf: FileScan;
	ancestors: FileScan[];
	subagents: FileScan[];
	sidecars: FileScan[];
	hidden: boolean;
	/** The session that took this one in as an ancestor (its subagents and sidecars go there too). */
	heir?: Draft;
}

/**
 * Files → listed sessions, newest first. `partial`: the scan is still running, so a subagent
 * whose parent has not been seen yet is left out instead of being listed on its own.
 */
export function groupScans(scans: readonly FileScan[], opts: { partial?: boolean } = {}): ScanListing {
	const unused: ScanListing['unused'] = [];
	const drafts = new Map<string, Draft>(); // `${project}\n${stem}` → draft
	const byId = new Map<string, Draft[]>();
	const keyOf = (project: string, sid: string) => `${project}\n${sid}`;
	for (const f of scans) {
		if (f.kind !== 'transcript' || f.other) continue;
		// Seen whole and without one conversation line (the full load's rule, group.ts): not a session.
		if (f.whole && !f.uuidLines && f.linked.length === 0) {
			const named = f.summaries.some((x) => x.leafUuid !== null && scans.some((o) => o !== f && o.uuids.has(x.leafUuid as string)));
			unused.push({ path: f.path, reason: named ? 'only `summary` records, titles of another session in the drop: no conversation of its own' : metadataOnlyReason(f) });
			continue;
		}
		const d: Draft = { leaf: f, ancestors: [], subagents: [], sidecars: [], hidden: false };
		drafts.set(keyOf(dirOf(f.path), stemOf(f.path)), d);
		for (const id of new Set([stemOf(f.path), f.sessionId ?? ''])) if (id) byId.set(id, [...(byId.get(id) ?? []), d]);
	}
	// Resume links: a file naming an earlier session on its head's lines continues it.
	for (const d of drafts.values()) {
		for (const id of d.leaf.linked) {
			const anc = (byId.get(id) ?? []).find((a) => a !== d && dirOf(a.leaf.path) === dirOf(d.leaf.path));
			if (anc && !anc.hidden && (anc.leaf.firstMs ?? 0) <= (d.leaf.firstMs ?? Infinity)) {
				anc.hidden = true;
				anc.heir = d;
				d.ancestors.push(anc.leaf, ...anc.ancestors);
			}
		}
	}
	const find = (project: string | null, sid: string | null): Draft | undefined => {
		if (!sid) return undefined;
		const own = project !== null ? drafts.get(keyOf(project, sid)) : undefined;
		return own ?? byId.get(sid)?.[0];
	};
	const orphans: FileScan[] = [];
	// `<project>/<sid>/subagents/` without `<sid>.jsonl`: one session per folder (orphans.ts).
	const folders = new Map<string, { folder: { project: string; sid: string }; subagents: FileScan[]; metas: FileScan[] }>();
	const folderOf = (f: FileScan) => {
		const folder = orphanFolderOf(f.path);
		if (!folder) return null;
		const k = keyOf(folder.project, folder.sid);
		let o = folders.get(k);
		if (!o) folders.set(k, (o = { folder, subagents: [], metas: [] }));
		return o;
	};
	for (const f of scans) {
		if (f.kind === 'transcript') continue;
		if (f.kind === 'subagent' || f.kind === 'subagent-meta') {
			const nest = projectOfNested(f.path, 'subagents');
			const d = find(nest?.project ?? null, nest?.sid ?? f.sessionId);
			const o = d ? null : folderOf(f);
			if (d) (f.kind === 'subagent' ? d.subagents : d.sidecars).push(f);
			else if (o) (f.kind === 'subagent' ? o.subagents : o.metas).push(f);
			else if (f.kind === 'subagent') orphans.push(f);
			else if (!opts.partial) unused.push({ path: f.path, reason: 'subagent .meta.json without its agent transcript' });
		} else if (f.kind === 'state-log') {
			const nest = projectOfNested(f.path, 'states');
			const d = find(nest?.project ?? null, f.sessionId);
			if (d) d.sidecars.push(f);
			else unused.push({ path: f.path, reason: `state log for session ${f.sessionId ?? '?'}, which is not among the dropped transcripts` });
		} else if (f.kind === 'postal-log') {
			const project = dirOf(dirOf(f.path));
			const mine = [...drafts.values()].filter((d) => dirOf(d.leaf.path) === project);
			for (const d of mine) d.sidecars.push(f);
			if (!mine.length) unused.push({ path: f.path, reason: 'postal log without any session' });
		} else if (!segments(f.path).slice(0, -1).includes('tool-results')) {
			// tool-results/ holds the full output of long tool calls next to a session; the transcript
			// already quotes it, so these side files are expected, not worth an issue each.
			unused.push({ path: f.path, reason: f.reason ?? 'not a file Loupe can read' });
		}
	}
	// An ancestor's subagents and sidecars belong to the session listed for it, with its lines.
	for (const d of drafts.values()) {
		let heir = d.heir;
		while (heir?.heir) heir = heir.heir;
		if (!heir) continue;
		heir.subagents.push(...d.subagents.splice(0));
		// A postal log sits beside every session of its project: the heir has it already.
		for (const f of d.sidecars.splice(0)) if (!heir.sidecars.includes(f)) heir.sidecars.push(f);
	}
	const sessions: ScannedSession[] = [];
	for (const d of drafts.values()) if (!d.hidden) sessions.push(toSession(d));
	if (!opts.partial) {
		for (const o of orphans) sessions.push(toSession({ leaf: o, ancestors: [], subagents: [], sidecars: [], hidden: false }));
		for (const o of folders.values()) {
			if (o.subagents.length) sessions.push(orphanSession(o.folder, o.subagents, o.metas));
			else for (const m of o.metas) unused.push({ path: m.path, reason: 'subagent .meta.json without its agent transcript' });
		}
	}
	sessions.push(...otherSessions(scans, unused, opts.partial ?? false));
	sessions.sort((a, b) => (b.endedAt ?? b.startedAt ?? -Infinity) - (a.endedAt ?? a.startedAt ?? -Infinity) || (a.key < b.key ? -1 : 1));
	return { sessions, unused };
}

/** Sessions of other harnesses: each root file with the files that belong to it (scan-harness.ts). */
function otherSessions(scans: readonly FileScan[], unused: ScanListing['unused'], partial: boolean): ScannedSession[] {
	const files = scans.filter((f): f is FileScan & { other: HarnessFacts } => f.kind === 'transcript' && f.other !== null);
	const { roots, orphans } = harnessRoots(files, partial);
	for (const o of orphans) unused.push({ path: o.path, reason: `an OpenCode ${o.other.openCode ?? 'storage'} document whose session is not in the drop` });
	const members = new Map<FileScan, FileScan[]>();
	for (const [f, root] of roots) if (f !== root) members.set(root, [...(members.get(root) ?? []), f]);
	const out: ScannedSession[] = [];
	for (const [f, root] of roots) {
		if (f !== root) continue;
		const rest = members.get(f) ?? [];
		const all = [f, ...rest];
		// OpenCode keeps one small document per message: the session's times span them all.
		const timed = f.other.format === 'opencode' ? all : [f];
		const firsts = timed.map((x) => x.firstMs).filter((x): x is number => x !== null);
		const lasts = timed.map((x) => x.lastMs).filter((x): x is number => x !== null);
		const id = f.other.thread || stemOf(f.path);
		const turns = f.other.format === 'opencode' ? all.reduce((n, x) => n + x.prompts, 0) : estimatedTurns(f);
		out.push({
			key: listedKey(id, all),
			id,
			project: harnessProject(f.path, f.other.harness),
			harness: f.other.harness,
			title: f.firstPrompt ?? all.find((x) => x.firstPrompt)?.firstPrompt ?? `Session ${id.slice(0, 8)}`,
			startedAt: firsts.length ? Math.min(...firsts) : null,
			endedAt: lasts.length ? Math.max(...lasts) : null,
			bytes: all.reduce((n, x) => n + x.bytes, 0),
			turnsEst: turns,
			exact: all.every((x) => x.whole),
			subagents: f.other.format === 'opencode' ? 0 : rest.length,
			model: f.model ?? all.find((x) => x.model)?.model ?? null,
			cwd: f.cwd ?? all.find((x) => x.cwd)?.cwd ?? null,
			files: all.map((x) => x.path),
			// A Codex child thread listed as a root: its parent rollout is not in the drop.
			...(f.other.harness === 'codex' && f.other.parent ? { mainMissing: true } : {})
		});
	}
	return out;
}

/** A listed session's key: its id and a hash of its files' fingerprints (any order), so a grown or
 *  replaced file lists as another session. */
function listedKey(id: string, scans: readonly FileScan[]): string {
	const fingerprints = scans.map((f) => f.fingerprint).sort();
	return `${id}-${cyrb53(new TextEncoder().encode(fingerprints.join('\n'))).toString(36)}`;
}

/** Prompts of one file: counted when the scan saw it whole, else the head's extrapolated over its
 *  size. The head always holds the first prompt, so only the ones after it are extrapolated. */
function estimatedTurns(f: FileScan, skip = 0): number {
	const prompts = Math.max(0, f.prompts - skip);
	return f.whole || prompts === 0 ? prompts : 1 + Math.round(((prompts - 1) * f.bytes) / Math.max(1, f.seenBytes));
}

function toSession(d: Draft): ScannedSession {
	const mains = [...d.ancestors.slice().reverse(), d.leaf];
	const all = [...mains, ...d.subagents, ...d.sidecars];
	let startedAt: number | null = null;
	let endedAt: number | null = null;
	let turns = 0;
	mains.forEach((m, i) => {
		if (m.firstMs !== null && (startedAt === null || m.firstMs < startedAt)) startedAt = m.firstMs;
		if (m.lastMs !== null && (endedAt === null || m.lastMs > endedAt)) endedAt = m.lastMs;
		// A resumed file's replay of its ancestors' prompts is counted once, by those ancestors.
		turns += estimatedTurns(m, i > 0 ? (m.linkedPrompts ?? 0) : 0);
	});
	const id = stemOf(d.leaf.path);
	return {
		key: listedKey(id, mains),
		id,
		project: dirOf(d.leaf.path),
		harness: 'claude-code',
		title: titleOf(mains, [], `Session ${id.slice(0, 8)}`),
		startedAt,
		endedAt,
		bytes: all.reduce((n, f) => n + f.bytes, 0),
		turnsEst: Math.max(turns, mains.some((m) => m.prompts > 0) ? 1 : 0),
		exact: mains.every((m) => m.whole),
		subagents: d.subagents.length,
		model: d.leaf.model ?? mains.find((m) => m.model)?.model ?? null,
		cwd: d.leaf.cwd ?? mains.find((m) => m.cwd)?.cwd ?? null,
		files: all.map((f) => f.path)
	};
}

/** An orphaned subagent folder as one listed session of its real project, titled from its first
 *  subagent's prompt; one turn (the synthetic delegations, see orphans.ts), exact. */
function orphanSession(folder: { project: string; sid: string }, subagents: FileScan[], metas: FileScan[]): ScannedSession {
	const byStart = [...subagents].sort((a, b) => (a.firstMs ?? Infinity) - (b.firstMs ?? Infinity) || (a.path < b.path ? -1 : 1));
	const firsts = byStart.map((f) => f.firstMs).filter((x): x is number => x !== null);
	const lasts = byStart.map((f) => f.lastMs).filter((x): x is number => x !== null);
	return {
		key: listedKey(folder.sid, byStart),
		id: folder.sid,
		project: folder.project,
		harness: 'claude-code',
		title: titleOf(byStart, [], `Session ${folder.sid.slice(0, 8)}`),
		startedAt: firsts.length ? Math.min(...firsts) : null,
		endedAt: lasts.length ? Math.max(...lasts) : null,
		bytes: [...subagents, ...metas].reduce((n, f) => n + f.bytes, 0),
		turnsEst: 1,
		exact: true,
		subagents: subagents.length,
		model: byStart.find((f) => f.model)?.model ?? null,
		cwd: byStart.find((f) => f.cwd)?.cwd ?? null,
		files: [...byStart, ...metas].map((f) => f.path),
		mainMissing: true
	};
}

// ── the scan index: reusing an earlier scan of the same file ───────────────

/** Bumped whenever FileScan's meaning changes, so stored scans of an older scan are not reused. */
export const SCAN_VERSION = 3;

/** A FileScan as stored between visits: uuids kept only where a summary names them. */
export interface StoredScan extends Omit<FileScan, 'uuids'> {
	/** MODEL_VERSION | SCAN_VERSION | path | size | lastModified: see fileIdentity. */
	identity: string;
	uuids: string[];
}

/**
 * Who a file is without reading it: its path, size and modification time (a File has them; a
 * Blob from a paste or a URL does not, and is never reused). Transcripts only grow, so a file
 * that kept its size and time kept its content; the versions retire scans of an older Loupe.
 */
export function fileIdentity(path: string, blob: Blob): string | null {
	const lastModified = (blob as Partial<File>).lastModified;
	return typeof lastModified === 'number' ? `${MODEL_VERSION}|${SCAN_VERSION}|${normPath(path)}|${blob.size}|${lastModified}` : null;
}

/** Stored forms of the scans that have an identity; uuids trimmed to those some summary names. */
export function storedScans(scans: readonly FileScan[], identities: ReadonlyMap<string, string>): StoredScan[] {
	const named = new Set<string>();
	for (const s of scans) for (const x of s.summaries) if (x.leafUuid) named.add(x.leafUuid);
	const out: StoredScan[] = [];
	for (const s of scans) {
		const identity = identities.get(s.path);
		if (!identity) continue;
		out.push({ ...s, identity, uuids: [...s.uuids].filter((u) => named.has(u)) });
	}
	return out;
}

export function fromStored(s: StoredScan): FileScan {
	const { identity: _identity, uuids, ...rest } = s;
	return { ...rest, uuids: new Set(uuids) };
}

export interface ScanOptions {
	signal?: AbortSignal;
	/** Earlier scans by identity: a file whose identity is here is not read again. */
	known?: ReadonlyMap<string, StoredScan>;
	/** A provisional listing while the scan runs (at most every `batchMs`), then none: the result is final. */
	onBatch?: (listing: ScanListing, filesDone: number, filesTotal: number) => void;
	batchMs?: number;
	/** The interval after the first listing (default `batchMs`). */
	laterBatchMs?: number;
	/** Files read at once (slices are I/O bound; a few in flight hide the latency). */
	concurrency?: number;
	/** After the first provisional listing, no file is read for this long (see FIRST_LIST_PAUSE_MS). */
	firstListPauseMs?: number;
	/** Scans a file elsewhere from its whole bytes (a big drop's first scan: the history lanes read
	 *  each transcript once, for its scan and its billed calls; worker/scan-lanes.ts), or null: read
	 *  its head and tail here. Never asked for a file a known scan or its path answers. */
	scanOne?: (file: InputFile, path: string) => Promise<FileScan | null>;
}

/**
 * How long a scan waits after its first provisional listing. The page draws that listing — its
 * workspace, then the session list in steps, one frame each — while the scan keeps both cores of
 * a small machine busy (reads, the browser's file I/O): those frames took 22-25 ms of CPU but
 * 43-67 ms of wall time, waiting for a core, the 1 GB tree drop's longest tasks. With
 * the scan waiting, none of three drops had a task over 50 ms then; the wait is ~3 % of the scan.
 */
export const FIRST_LIST_PAUSE_MS = 400;

/** `<session>/tool-results/<id>.txt`: Claude Code's side files, never a transcript. */
export function isToolOutputSideFile(path: string): boolean {
	const parts = segments(path);
	return parts.length >= 2 && parts[parts.length - 2] === 'tool-results' && !/\.jsonl?$/i.test(parts[parts.length - 1]);
}

async function bytesOf(blob: Blob, from: number, to: number): Promise<Uint8Array> {
	return new Uint8Array(await blob.slice(from, to).arrayBuffer());
}

/** A file whose every read is a request (a remote tree's, worker/remote/http.ts) says how much of
 *  its head and tail a scan reads first: less than a local file's, as the bytes are the cost. */
export interface ScanReadHint {
	scanHead?: number;
	scanTail?: number;
}

const newlines = (b: Uint8Array, max: number) => {
	let n = 0;
	for (let i = b.indexOf(10); i >= 0 && n < max; i = b.indexOf(10, i + 1)) n++;
	return n;
};

/** The head and tail to scan. A small first read that holds too few whole lines (a long first
 *  prompt, a long last message) is read again at the usual sizes. */
async function headAndTail(blob: Blob, size: number): Promise<[Uint8Array, Uint8Array]> {
	const hint = blob as Blob & ScanReadHint;
	const h = Math.min(hint.scanHead ?? SCAN_HEAD, SCAN_HEAD);
	const t = Math.min(hint.scanTail ?? SCAN_TAIL, SCAN_TAIL);
	let [head, tail] = await Promise.all([bytesOf(blob, 0, h), bytesOf(blob, size - t, size)]);
	const [again, tailAgain] = [h < SCAN_HEAD && newlines(head, 2) < 2, t < SCAN_TAIL && newlines(tail, 2) < 2];
	if (again || tailAgain) {
		[head, tail] = await Promise.all([again ? bytesOf(blob, 0, Math.min(size, SCAN_HEAD)) : head, tailAgain ? bytesOf(blob, Math.max(0, size - SCAN_TAIL), size) : tail]);
	}
	return [head, tail];
}

/** A file's scan from its head and tail, read here. */
async function scanHere(blob: Blob, path: string, size: number): Promise<FileScan> {
	if (size <= ((blob as ScanReadHint).scanHead ?? SCAN_HEAD) + ((blob as ScanReadHint).scanTail ?? SCAN_TAIL)) return scanFile(path, await bytesOf(blob, 0, size), new Uint8Array(0), size);
	const [head, tail] = await headAndTail(blob, size);
	const s = scanFile(path, head, tail, size);
	// A harness JSON document is one value: its head alone does not parse, so a small one is read whole.
	const doc = s.other !== null && HARNESS_DOC_FORMATS.has(s.other.format) && size <= SCAN_DOC_MAX;
	return doc ? scanFile(path, await bytesOf(blob, 0, size), new Uint8Array(0), size) : s;
}

/** A file's scan from its whole bytes: what reading its head and tail here gives (scanInputs). */
export function scanOfBytes(path: string, bytes: Uint8Array): FileScan {
	const size = bytes.length;
	if (size <= SCAN_HEAD + SCAN_TAIL) return scanFile(path, bytes, new Uint8Array(0), size);
	const s = scanFile(path, bytes.subarray(0, SCAN_HEAD), bytes.subarray(size - SCAN_TAIL), size);
	const doc = s.other !== null && HARNESS_DOC_FORMATS.has(s.other.format) && size <= SCAN_DOC_MAX;
	return doc ? scanFile(path, bytes, new Uint8Array(0), size) : s;
}

/** Reads the head and tail of every input and groups them (see the module comment). */
export async function scanInputs(
	files: readonly InputFile[],
	opts: ScanOptions = {}
): Promise<{ listing: ScanListing; scans: FileScan[]; identities: Map<string, string>; reused: number }> {
	const identities = new Map<string, string>();
	let reused = 0;
	const order = files.map((f, i) => ({ f, i, path: normPath(f.path) })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	const scans: FileScan[] = new Array(order.length);
	let next = 0;
	let done = 0;
	let lastBatch = performance.now();
	const batchMs = opts.batchMs ?? 250;
	let pause: Promise<void> | null = null;
	let listed = false;
	const worker = async () => {
		for (;;) {
			if (pause) await pause;
			opts.signal?.throwIfAborted();
			const at = next++;
			if (at >= order.length) return;
			const { f, path } = order[at];
			const size = f.blob.size;
			const identity = fileIdentity(path, f.blob);
			if (identity) identities.set(path, identity);
			const known = identity ? opts.known?.get(identity) : undefined;
			try {
				if (known) {
					scans[at] = fromStored(known);
					reused++;
				} else if (isToolOutputSideFile(path)) {
					// A third of a real projects tree: full outputs of long tool calls, quoted by the
					// transcript anyway. Listed as unused by their path alone, never read.
					scans[at] = { ...scanFile(path, new Uint8Array(0), new Uint8Array(0), 0), kind: 'unknown', bytes: size, reason: 'tool output kept beside its session (tool-results/)' };
				} else {
					scans[at] = (opts.scanOne && (await opts.scanOne(f, path))) || (await scanHere(f.blob, path, size));
				}
			} catch (e) {
				opts.signal?.throwIfAborted();
				scans[at] = { ...scanFile(path, new Uint8Array(0), new Uint8Array(0), 0), kind: 'unknown', bytes: size, reason: `could not be read: ${e instanceof Error ? e.message : String(e)}` };
			}
			done++;
			if (opts.onBatch && performance.now() - lastBatch >= (listed ? (opts.laterBatchMs ?? batchMs) : batchMs)) {
				lastBatch = performance.now();
				opts.onBatch(groupScans(scans.filter(Boolean), { partial: true }), done, order.length);
				if (!listed && opts.firstListPauseMs) {
					pause = new Promise((resume) =>
						setTimeout(() => {
							pause = null;
							resume();
						}, opts.firstListPauseMs)
					);
				}
				listed = true;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 16) }, worker));
	opts.signal?.throwIfAborted();
	return { listing: groupScans(scans), scans, identities, reused };
}

/** A drop with more sessions than this is listed from the scan, not parsed whole. */
export const SCAN_MIN_SESSIONS = 24;
/** …and so is one of several sessions whose files add up to more than this. */
export const SCAN_MIN_BYTES = 64 * 1024 * 1024;

/**
 * Whether a drop is big enough to list first and parse on open. A single session (one file, one
 * project with one transcript) is always parsed whole, exactly as before the scan existed, and
 * so is a small folder, whose full grouping (forks, replays) is then exact.
 */
export function prefersScan(listing: ScanListing, totalBytes: number): boolean {
	const n = listing.sessions.length;
	return n > SCAN_MIN_SESSIONS || (n > 1 && totalBytes > SCAN_MIN_BYTES);
}
