// One file of a followed folder: its classification, its complete-line bytes (an unterminated
// last line waits for its "\n") and a summary merged chunk by chunk. live.ts groups the files
// into sessions; each step here says whether what grouping reads has changed.
import { readRecords, type FileRecords } from '../model/index.ts';
import { classifyFile, HEAD_BYTES } from './classify.ts';
import { summarize } from './summary.ts';
import { webJsonRecords } from './web-json.ts';
import type { ClassifiedFile, FileSummary } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the state log says the session is doing, from its last row. */
export interface StateRowInfo {
	state: string;
	/** Seconds (the row's t). */
	t: number;
}

export interface LiveFile {
	path: string;
	isWhole: boolean;
	classified: ClassifiedFile | null;
	/** First bytes, for classification while the file is young. */
	head: Uint8Array;
	/** Bytes after the last "\n", waiting for the rest of their line. */
	carry: Uint8Array;
	/** Complete-line bytes, in order (whole files: one chunk, the content). */
	chunks: Uint8Array[];
	size: number;
	summary: FileSummary | null;
	meta: Obj | null;
	lastState: StateRowInfo | null;
	lastWriteMs: number;
	/** Bumped on reset: builders fed an older generation are dropped. */
	gen: number;
}

const empty = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
	if (!a.length) return b;
	if (!b.length) return a;
	const out = new Uint8Array(a.length + b.length);
	out.set(a);
	out.set(b, a.length);
	return out;
}

/** A file seen for the first time, or read again from its start (`prev`: its last generation). */
export function newLiveFile(path: string, prev: LiveFile | undefined): LiveFile {
	return {
		path,
		isWhole: /\.json$/i.test(path),
		classified: null,
		head: empty,
		carry: empty,
		chunks: [],
		size: 0,
		summary: null,
		meta: null,
		lastState: null,
		lastWriteMs: 0,
		gen: (prev?.gen ?? 0) + 1
	};
}

/**
 * Takes a file's new bytes: complete lines go to its chunks and summary, the rest waits.
 * True when what grouping reads of the file changed (the project must regroup).
 */
export function takeBytes(f: LiveFile, bytes: Uint8Array, nowMs: number): boolean {
	if (!bytes.length && f.size > 0) return false;
	f.lastWriteMs = nowMs;
	f.size += bytes.length;
	if (f.head.length < HEAD_BYTES) f.head = concat(f.head, bytes.subarray(0, HEAD_BYTES - f.head.length));
	if (f.isWhole) {
		f.carry = concat(f.carry, bytes);
		return wholeFile(f);
	}
	const all = concat(f.carry, bytes);
	const nl = all.lastIndexOf(10);
	f.carry = nl < 0 ? all : all.slice(nl + 1);
	if (nl < 0) return classify(f);
	const lines = all.slice(0, nl + 1);
	f.chunks.push(lines);
	let regroup = classify(f);
	const fr = readRecords(f.path, [lines]);
	regroup = mergeSummary(f, fr) || regroup;
	for (let i = fr.records.length - 1; i >= 0; i--) {
		const v = fr.records[i].value;
		if (typeof v.state === 'string' && typeof v.t === 'number') {
			f.lastState = { state: v.state, t: v.t };
			break;
		}
	}
	return regroup;
}

/** A .json file: its content so far is the file (it is rewritten whole, never appended). */
function wholeFile(f: LiveFile): boolean {
	const regroup = classify(f);
	f.chunks = [f.carry];
	f.meta = null;
	if (f.classified?.kind === 'subagent-meta') {
		try {
			const v: unknown = JSON.parse(new TextDecoder().decode(f.carry));
			f.meta = isObj(v) ? v : null;
		} catch {
			f.meta = null;
		}
	} else if (f.classified?.kind === 'transcript') {
		f.summary = summarize(f.path, webJsonRecords(f.path, new TextDecoder().decode(f.carry)));
	}
	return regroup;
}

/** (Re)classifies a young file; true when its kind or ids changed. */
function classify(f: LiveFile): boolean {
	// A young file may be reclassified once more lines show what it is; an old one stays put.
	if (f.classified && f.classified.kind !== 'unknown' && f.size > HEAD_BYTES) {
		f.classified = { ...f.classified, bytes: f.size };
		return false;
	}
	const complete = f.isWhole ? f.head : f.head.subarray(0, f.head.lastIndexOf(10) + 1);
	if (!complete.length && !f.isWhole) return false;
	const c = classifyFile(f.path, complete, f.isWhole ? f.size : Math.max(complete.length, f.size - f.carry.length));
	const before = f.classified;
	f.classified = { ...c, bytes: f.size };
	return !before || before.kind !== c.kind || before.sessionId !== c.sessionId || before.agentId !== c.agentId;
}

/** Merges a chunk's summary into the file's; true when what grouping reads changed (a regroup). */
function mergeSummary(f: LiveFile, fr: FileRecords): boolean {
	const add = summarize(f.path, fr);
	const prev = f.summary;
	if (!prev) {
		f.summary = add;
		return add.externalParents.length > 0 || add.sessionIds.length > 0 || add.agentIds.length > 0 || add.spawnedAgentIds.length > 0;
	}
	let regroup = false;
	const grew = (a: string[], b: string[]) => b.some((x) => !a.includes(x));
	if (grew(prev.sessionIds, add.sessionIds) || grew(prev.agentIds, add.agentIds) || grew(prev.spawnedAgentIds, add.spawnedAgentIds)) regroup = true;
	const uuids = prev.uuids;
	for (const u of add.uuids) uuids.add(u);
	const external = add.externalParents.filter((p) => !uuids.has(p));
	if (grew(prev.externalParents, external)) regroup = true;
	f.summary = {
		...prev,
		sessionIds: union(prev.sessionIds, add.sessionIds),
		agentIds: union(prev.agentIds, add.agentIds),
		spawnedAgentIds: union(prev.spawnedAgentIds, add.spawnedAgentIds),
		uuids,
		externalParents: union(prev.externalParents.filter((p) => !add.uuids.has(p)), external),
		contentLines: prev.contentLines + add.contentLines,
		sidechainLines: prev.sidechainLines + add.sidechainLines,
		firstPrompt: betterPrompt(prev.firstPrompt, add.firstPrompt),
		customTitle: add.customTitle ?? prev.customTitle,
		aiTitle: add.aiTitle ?? prev.aiTitle,
		summaries: add.summaries.length ? [...prev.summaries, ...add.summaries] : prev.summaries,
		firstMs: minOf(prev.firstMs, add.firstMs),
		lastMs: maxOf(prev.lastMs, add.lastMs),
		lines: prev.lines + add.lines,
		bytes: prev.bytes + add.bytes
	};
	return regroup;
}

/** A chunk's first prompt replaces the file's when it is prose and the file only had a command so far (summary.ts prefers prose). */
const isCommand = (p: string) => p.startsWith('/') || p.startsWith('! ');
const betterPrompt = (prev: string | null, add: string | null) => (prev === null || (add !== null && isCommand(prev) && !isCommand(add)) ? add : prev);
const union = (a: string[], b: string[]) => (b.every((x) => a.includes(x)) ? a : [...new Set([...a, ...b])]);
const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
