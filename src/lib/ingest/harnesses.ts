// Other harnesses at the ingest level: recognise a Codex rollout, a Gemini CLI recording or a
// Strap state from a file's first records (the path only helps to tie sub-agent files to their
// parent), read it (JSON lines through the streaming reader, a JSON document whole), run its
// adapter (model/codex, model/gemini, model/strap), tie child threads to the calls that spawned
// them, and hand back LoadedSessions shaped like Claude Code's, so the worker and every view
// treat them the same. pi sessions, Cursor transcripts and OpenCode storage (grouped by session)
// open too; files of other agents are named in their "not opened" reason.
// Recognising the files is harness-classify.ts's part; this file reads them, runs the adapters,
// groups OpenCode's documents and ties children to their calls.
import { parseCodex, type CodexResult } from '../model/codex/parse.ts';
import { parseGeminiDocument, parseGeminiRecords, type GeminiResult } from '../model/gemini/parse.ts';
import { parseStrapDocument, parseStrapRecords } from '../model/strap/parse.ts';
import { parsePi } from '../model/pi/parse.ts';
import { parseCursor, type CursorResult } from '../model/cursor/parse.ts';
import { parseOpenCode, type OpenCodeDoc, type OpenCodeInput, type OpenCodeResult } from '../model/opencode/parse.ts';
import type { HarnessResult } from '../model/harness/kit.ts';
import type { FileRecords, Issue } from '../model/index.ts';
import { atomText } from '../model/index.ts';
import { HARNESS_DOC_MAX, HARNESS_LABELS, isObj, openCodeKind, type Obj } from './harness-classify.ts';
import { clip } from './prompt-text.ts';
import { TITLE_MAX } from './session-meta.ts';
import type { ChildTranscript, ClassifiedFile, LoadedSession, UnattachedChild } from './types.ts';

export { classifyHarness, HARNESS_DOC_FORMATS, HARNESS_DOC_MAX, HARNESS_LABELS, isHarnessDocument, isHarnessFile, openCodeKind, type HarnessFormat } from './harness-classify.ts';

/** Read a harness JSON document whole (it is one value by nature); null + reason when it cannot be. */
export async function readHarnessDocument(c: ClassifiedFile, blob: Blob): Promise<{ doc: unknown } | { reason: string }> {
	if (blob.size > HARNESS_DOC_MAX) return { reason: `a ${c.reason ?? 'JSON document'} larger than ${HARNESS_DOC_MAX / 1048576} MB is not supported` };
	let text = await blob.text();
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	try {
		return { doc: JSON.parse(text) };
	} catch (e) {
		return { reason: `${c.reason ?? 'JSON document'} that is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
	}
}

export interface HarnessInput {
	file: ClassifiedFile;
	records?: FileRecords;
	doc?: unknown;
	/** Further files of the same session (OpenCode keeps one document per message and part). */
	extra?: ClassifiedFile[];
	/** A session assembled from several documents (OpenCode). */
	openCode?: OpenCodeInput;
}

/** Run the file's adapter; an unexpected throw becomes an issue (adapters are written never to throw). */
export function runAdapter(x: HarnessInput, failures: Issue[]): HarnessResult | null {
	try {
		const f = x.file;
		if (f.format === 'codex' && x.records) return parseCodex(x.records);
		if (f.format === 'gemini-jsonl' && x.records) return parseGeminiRecords(x.records);
		if (f.format === 'strap-jsonl' && x.records) return parseStrapRecords(x.records);
		if (f.format === 'pi' && x.records) return parsePi(x.records);
		if (f.format === 'cursor' && x.records) return parseCursor(x.records);
		if (x.openCode) return parseOpenCode(x.openCode);
		if (f.format === 'gemini-json') return parseGeminiDocument(f.path, x.doc);
		if (f.format === 'strap-json') return parseStrapDocument(f.path, x.doc);
		failures.push({ file: f.path, line: null, kind: 'parse-failed', message: 'the file could not be read' });
	} catch (e) {
		failures.push({ file: x.file.path, line: null, kind: 'parse-failed', message: `the ${x.file.reason ?? 'adapter'} failed on this input: ${e instanceof Error ? e.message : String(e)}` });
	}
	return null;
}

/**
 * OpenCode: one document per session, message and part. Group them by session (messages name
 * theirs; parts name their message, or sit in part/<messageID>/), one input per session.
 */
function groupOpenCode(inputs: HarnessInput[], failures: Issue[]): HarnessInput[] {
	const docs = inputs.filter((x) => x.file.format === 'opencode' && isObj(x.doc));
	if (!docs.length) return [];
	const groups = new Map<string, { input: OpenCodeInput; files: ClassifiedFile[] }>();
	const group = (sid: string, file: ClassifiedFile) => {
		let g = groups.get(sid);
		if (!g) {
			g = { input: { id: sid, file: file.path, session: null, messages: [], parts: new Map(), orphans: [] }, files: [] };
			groups.set(sid, g);
		}
		return g;
	};
	const messageSession = new Map<string, string>();
	const byKind = (k: string) => docs.filter((x) => openCodeKind(x.doc) === k);
	for (const x of byKind('session')) {
		const d = x.doc as Obj;
		const g = group(d.id as string, x.file);
		g.input.session = { path: x.file.path, doc: d };
		g.input.file = x.file.path;
		g.files.unshift(x.file);
	}
	for (const x of byKind('message')) {
		const d = x.doc as Obj;
		const g = group(d.sessionID as string, x.file);
		g.input.messages.push({ path: x.file.path, doc: d });
		g.files.push(x.file);
		messageSession.set(d.id as string, d.sessionID as string);
	}
	for (const x of byKind('part')) {
		const d = x.doc as Obj;
		const mid = typeof d.messageID === 'string' ? d.messageID : parentDir(x.file.path);
		const sid = messageSession.get(mid) ?? (typeof d.sessionID === 'string' ? d.sessionID : null);
		if (!sid) {
			failures.push({ file: x.file.path, line: null, kind: 'opencode-orphan-part', message: `an OpenCode part of message ${mid}, which is not in the drop` });
			continue;
		}
		const g = group(sid, x.file);
		const doc: OpenCodeDoc = { path: x.file.path, doc: d };
		if (messageSession.has(mid)) g.input.parts.set(mid, [...(g.input.parts.get(mid) ?? []), doc]);
		else g.input.orphans.push(doc);
		g.files.push(x.file);
	}
	return [...groups.values()].map((g) => ({ file: g.files[0], extra: g.files.slice(1), openCode: g.input }));
}

interface Parsed {
	input: HarnessInput;
	result: HarnessResult;
}

function child(toolUseId: string, p: Parsed, agentType: string | null, description: string | null): ChildTranscript {
	return { toolUseId, agentId: p.result.info.id, agentType, description, file: p.input.file.path, result: p.result };
}

/** Parent folder name of a path ('' at the top). */
function parentDir(path: string): string {
	const parts = path.split('/');
	return parts.length >= 2 ? parts[parts.length - 2] : '';
}

/**
 * Tie child threads to their spawning calls. Codex: the child's session_meta names its parent
 * thread (and sometimes the spawn call); the parent's spawn event names the child thread; else
 * the n-th unclaimed spawn. Gemini: a file under chats/<parentSessionId>/ belongs to that session,
 * tied by the call's agentId, else the n-th unclaimed delegating call.
 */
function linkChildren(parsed: Parsed[]): { roots: Parsed[]; kids: Map<Parsed, { call: string | null; child: Parsed }[]> } {
	const byId = new Map<string, Parsed>();
	for (const p of parsed) if (!byId.has(p.result.info.id)) byId.set(p.result.info.id, p);
	const kids = new Map<Parsed, { call: string | null; child: Parsed }[]>();
	const roots: Parsed[] = [];
	const claimed = new Map<Parsed, Set<string>>();
	const claim = (parent: Parsed, ids: string[], preferred: string | null): string | null => {
		const used = claimed.get(parent) ?? new Set<string>();
		claimed.set(parent, used);
		const pick = preferred && ids.includes(preferred) && !used.has(preferred) ? preferred : ids.find((i) => !used.has(i)) ?? null;
		if (pick) used.add(pick);
		return pick;
	};
	// Children in start order, so the n-th spawn gets the n-th child.
	const ordered = [...parsed].sort((a, b) => (a.result.info.startedAt ?? 0) - (b.result.info.startedAt ?? 0));
	for (const p of ordered) {
		let parent: Parsed | undefined;
		let call: string | null = null;
		if (p.result.harness === 'codex') {
			const links = (p.result as CodexResult).links;
			parent = links.parentThreadId ? byId.get(links.parentThreadId) : undefined;
			if (parent && parent.result.harness === 'codex') {
				const spawns = (parent.result as CodexResult).links.spawns;
				const named = links.spawnCallId ?? spawns.find((s) => s.threadId === p.result.info.id)?.callId ?? null;
				call = claim(parent, spawns.map((s) => s.callId), named);
			}
		} else if (p.result.harness === 'gemini') {
			const dir = parentDir(p.input.file.path);
			parent = dir && dir !== p.result.info.id ? byId.get(dir) : undefined;
			if (parent && parent.result.harness === 'gemini') {
				const calls = (parent.result as GeminiResult).agentCalls;
				call = claim(parent, calls.map((c) => c.callId), calls.find((c) => c.agentId === p.result.info.id)?.callId ?? null);
			}
		} else if (p.result.harness === 'opencode') {
			parent = p.result.info.parentId ? byId.get(p.result.info.parentId) : undefined;
			if (parent && parent.result.harness === 'opencode') {
				const calls = (parent.result as OpenCodeResult).agentCalls;
				call = claim(parent, calls.map((c) => c.callId), calls.find((c) => c.sessionId === p.result.info.id)?.callId ?? null);
			}
		} else if (p.result.harness === 'cursor') {
			// <dir>/subagents/<child>.jsonl belongs to the one Cursor transcript in <dir>.
			const m = /^(.*)\/subagents\/[^/]+$/.exec(p.input.file.path);
			const parents = m ? parsed.filter((x) => x.result.harness === 'cursor' && x.input.file.path.replace(/\/[^/]+$/, '') === m[1]) : [];
			parent = parents.length === 1 ? parents[0] : undefined;
			if (parent) call = claim(parent, (parent.result as CursorResult).agentCalls, null);
		}
		if (parent && parent !== p) {
			const list = kids.get(parent) ?? [];
			list.push({ call, child: p });
			kids.set(parent, list);
		} else roots.push(p);
	}
	return { roots, kids };
}

/** The harness's own title, else the first prompt a human typed (injected context is not one), else null. */
export function harnessTitle(r: HarnessResult): string | null {
	if (r.info.title) return clip(r.info.title, TITLE_MAX);
	for (const t of r.session.turns)
		for (const a of t.atoms) if (a.type === 'user' && a.author === 'human') {
			const text = atomText(a);
			if (text) return clip(text.replace(/\s+/g, ' ').trim(), TITLE_MAX);
		}
	return null;
}

function titleOf(r: HarnessResult): string {
	return harnessTitle(r) ?? `Session ${r.info.id.slice(0, 8)}`;
}

/** Build the sessions of every harness file of a load (children attached, standalone otherwise). */
export async function buildHarnessSessions(
	inputs: HarnessInput[],
	hashOf: (files: ClassifiedFile[]) => Promise<string>,
	blobOf: (path: string) => Blob,
	failures: Issue[]
): Promise<LoadedSession[]> {
	const parsed: Parsed[] = [];
	const openCode = groupOpenCode(inputs, failures);
	for (const input of [...inputs.filter((x) => x.file.format !== 'opencode'), ...openCode]) {
		const result = runAdapter(input, failures);
		if (result) parsed.push({ input, result });
	}
	const { roots, kids } = linkChildren(parsed);
	const out: LoadedSession[] = [];
	for (const root of roots) {
		const children: Record<string, ChildTranscript> = {};
		for (const [id, c] of Object.entries(root.result.children)) children[id] = { ...c, agentId: null };
		const unattached: UnattachedChild[] = [];
		const files: ClassifiedFile[] = [root.input.file, ...(root.input.extra ?? [])];
		const walk = (parent: Parsed) => {
			for (const { call, child: c } of kids.get(parent) ?? []) {
				files.push(c.input.file, ...(c.input.extra ?? []));
				for (const [id, inner] of Object.entries(c.result.children)) children[id] = { ...inner, agentId: null };
				if (call) {
					const links = c.result.harness === 'codex' ? (c.result as CodexResult).links : null;
					children[call] = child(call, c, links?.role ?? null, links?.nickname ?? null);
				} else unattached.push({ file: c.input.file.path, agentId: c.result.info.id, reason: 'no spawning call in the parent names this thread', result: c.result });
				walk(c);
			}
		};
		walk(root);
		const r = root.result;
		const issues: Issue[] = [
			...unattached.map((u) => ({ file: u.file, line: null, kind: 'unattached-subagent', message: `sub-agent transcript not tied to a call: ${u.reason}` })),
			...r.issues,
			...Object.values(children).flatMap((c) => c.result.issues),
			...unattached.flatMap((u) => u.result.issues)
		];
		const bytes = files.reduce((n, f) => n + f.bytes, 0);
		const hash = await hashOf(files);
		const turns = r.session.turns;
		const startedAt = r.info.startedAt;
		const endedAt = r.info.endedAt;
		const title = titleOf(r);
		out.push({
			key: `${r.info.id}-${hash}`,
			title,
			startedAt,
			endedAt,
			bytes,
			files,
			inputs: files.map((f) => ({ path: f.path, blob: blobOf(f.path) })),
			result: r,
			children,
			unattached,
			issues,
			meta: {
				title,
				startedAt,
				endedAt,
				bytes,
				turns: turns.length,
				atoms: turns.reduce((n, t) => n + t.atoms.length, 0),
				subagents: Object.keys(children).length + unattached.length,
				harness: r.harness,
				harnessLabel: HARNESS_LABELS[r.harness],
				...(r.info.model ? { model: r.info.model } : {}),
				...(r.info.cwd ? { cwd: r.info.cwd } : {}),
				// A Codex child thread listed as a root: the rollout that spawned it is not in the drop.
				...(r.harness === 'codex' && (r as CodexResult).links.parentThreadId ? { mainMissing: true } : {})
			}
		});
	}
	return out;
}
