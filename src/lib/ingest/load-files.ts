// The load orchestration the worker calls, written against plain inputs ({path, blob}) so it
// runs the same in Node tests: sniff each file's head and classify it, stream every needed
// file chunk by chunk into the model's RecordReader (progress per chunk, abort checked between
// chunks; a file is never turned into one string, except a web JSON export, which is one JSON
// document by nature and capped), group files into sessions, build each session in viewer mode,
// parse and attach its subagents, and compute its session-list facts.
//
// Session key: `<leaf stem>-<hash>` where hash is a 53-bit hash (base 36) over, for every file of
// the session sorted by name, its name, its byte size and its first and last 4 KiB. That is cheap
// (no full read), stable across reloads and folders, and changes when a file grows (appends change
// the size and the tail). Two inputs that differ only in the middle of a file of the same size
// would collide; for transcripts, which are append-only, that does not happen in practice.
import { buildSession, RecordReader } from '../model/index.ts';
import type { FileRecords, Issue, ParseResult } from '../model/index.ts';
import { classifyFile, HEAD_BYTES } from './classify.ts';
import { groupSessions, planFiles } from './group.ts';
import { summarize } from './summary.ts';
import { splitInlineSidechains } from './sidechains.ts';
import { attachSubagents, firstPromptOf, type ChildInput } from './attach-subagents.ts';
import { sessionMeta, sortNewestFirst } from './session-meta.ts';
import { webJsonRecords } from './web-json.ts';
import { normPath } from './paths.ts';
import { orphanMainRecords, type OrphanChild } from './orphans.ts';
import { buildHarnessSessions, isHarnessDocument, isHarnessFile, readHarnessDocument, type HarnessInput } from './harnesses.ts';
import type { ClassifiedFile, FileSummary, InputFile, LoadedSession, LoadOptions, LoadOutput, SessionPlan, UnattachedChild } from './types.ts';

/** Bytes read from a file at a time: large enough for few reads, small enough to stream. */
const DEFAULT_CHUNK = 4 * 1024 * 1024;
/** A web JSON export is parsed as one document; beyond this it is refused with a reason. */
export const WEB_JSON_MAX = 256 * 1024 * 1024;
/** Bytes of a file's head and of its tail in its fingerprint. */
const FP_BYTES = 4096;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first bytes of a blob (for classification). */
export async function readHead(blob: Blob, n = HEAD_BYTES): Promise<Uint8Array> {
	return new Uint8Array(await blob.slice(0, n).arrayBuffer());
}

/** Chunks of a blob, as a stream when the platform has Blob.stream(), else by slices (bytes read already: as they are). */
async function* chunksOf(blob: Blob | Uint8Array, chunkBytes: number): AsyncGenerator<Uint8Array> {
	if (blob instanceof Uint8Array) {
		if (blob.length) yield blob;
		return;
	}
	if (typeof blob.stream === 'function') {
		const reader = blob.stream().getReader();
		let done = false;
		try {
			for (;;) {
				const r = await reader.read();
				if (r.done) {
					done = true;
					return;
				}
				if (r.value && r.value.length) yield r.value;
			}
		} finally {
			// Left early (abort, error): release the file instead of leaving the stream half read.
			if (!done) await reader.cancel().catch(() => undefined);
			reader.releaseLock();
		}
	}
	for (let at = 0; at < blob.size; at += chunkBytes) yield new Uint8Array(await blob.slice(at, at + chunkBytes).arrayBuffer());
}

function countNewlines(b: Uint8Array): number {
	let n = 0;
	for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
	return n;
}

/** Stream one file (or its bytes, read already) into a RecordReader, reporting progress per chunk and honouring the signal. */
export async function readFileRecords(path: string, blob: Blob | Uint8Array, opts: LoadOptions = {}): Promise<FileRecords> {
	const reader = new RecordReader(path);
	let bytesRead = 0;
	let lines = 0;
	opts.signal?.throwIfAborted();
	const size = opts.chunkBytes ?? DEFAULT_CHUNK;
	const bytesTotal = blob instanceof Uint8Array ? blob.length : blob.size;
	for await (const big of chunksOf(blob, size)) {
		// A platform chunk larger than chunkBytes is fed in slices, so progress stays fine-grained.
		for (let at = 0; at < big.length; at += size) {
			const chunk = big.length <= size ? big : big.subarray(at, at + size);
			opts.signal?.throwIfAborted();
			reader.push(chunk);
			bytesRead += chunk.length;
			// Lines are counted for progress only (a search worker's build asks for none).
			if (opts.onProgress) {
				lines += countNewlines(chunk);
				opts.onProgress({ file: path, bytesRead, bytesTotal, lines });
			}
		}
	}
	opts.signal?.throwIfAborted();
	if (bytesRead === 0) opts.onProgress?.({ file: path, bytesRead, bytesTotal, lines });
	return reader.finish();
}

// ── hashing ────────────────────────────────────────────────────────────────

/** cyrb53: a fast 53-bit string/byte hash (not cryptographic; only identifies inputs). */
export function cyrb53(data: Iterable<number>, seed = 0): number {
	let h1 = 0xdeadbeef ^ seed;
	let h2 = 0x41c6ce57 ^ seed;
	for (const c of data) {
		h1 = Math.imul(h1 ^ c, 2654435761);
		h2 = Math.imul(h2 ^ c, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

async function fingerprint(f: ClassifiedFile, blob: Blob | Uint8Array): Promise<string> {
	const size = blob instanceof Uint8Array ? blob.length : blob.size;
	const part = async (from: number, to: number) => (blob instanceof Uint8Array ? blob.subarray(from, to) : new Uint8Array(await blob.slice(from, to).arrayBuffer()));
	const head = await part(0, FP_BYTES);
	const tail = await part(Math.max(0, size - FP_BYTES), size);
	return `${f.name}:${size}:${cyrb53(head).toString(36)}:${cyrb53(tail).toString(36)}`;
}

/** Content hash of a set of files (see the module comment); `blob` may be the file's bytes, read already. */
export async function contentHash(files: { file: ClassifiedFile; blob: Blob | Uint8Array }[]): Promise<string> {
	const fps = await Promise.all(files.map((x) => fingerprint(x.file, x.blob)));
	fps.sort();
	return cyrb53(new TextEncoder().encode(fps.join('\n'))).toString(36);
}

// ── the load ───────────────────────────────────────────────────────────────

function fileIssue(f: ClassifiedFile): Issue {
	const r = f.reason ?? 'not a file Loupe can read';
	const kind = /^empty/.test(r) ? 'empty-file' : /^binary/.test(r) ? 'binary' : 'unknown-file';
	return { file: f.path, line: null, kind, message: r };
}

/** Build a session, turning an unexpected throw into an issue instead of losing the load. */
function safeBuild(input: Parameters<typeof buildSession>[0], opts: Parameters<typeof buildSession>[1], file: string, issues: Issue[]): ParseResult | null {
	try {
		return buildSession(input, opts);
	} catch (e) {
		issues.push({ file, line: null, kind: 'parse-failed', message: `the model failed on this input: ${e instanceof Error ? e.message : String(e)}` });
		return null;
	}
}

export async function loadSessions(files: InputFile[], opts: LoadOptions = {}): Promise<LoadOutput> {
	const issues: Issue[] = [];
	const blobs = new Map<string, Blob>();
	const preread = new Map<string, Uint8Array>();
	const classified: ClassifiedFile[] = [];

	// 1. Classify from each file's head.
	for (const f of files) {
		opts.signal?.throwIfAborted();
		const path = normPath(f.path);
		blobs.set(path, f.blob);
		if (f.bytes) preread.set(path, f.bytes);
		try {
			classified.push(classifyFile(path, f.bytes ? f.bytes.subarray(0, HEAD_BYTES) : await readHead(f.blob), f.blob.size));
		} catch (e) {
			opts.signal?.throwIfAborted();
			classified.push(unreadable(path, f.blob.size, e));
		}
	}

	// 2. Read every file that feeds a session.
	const records = new Map<string, FileRecords>();
	const harnessDocs = new Map<string, unknown>();
	const metas = new Map<string, Obj>();
	const overallTotal = classified.reduce((n, c) => n + (c.kind === 'unknown' ? 0 : c.bytes), 0);
	let overallDone = 0;
	const perFile: LoadOptions = {
		...opts,
		onProgress: opts.onProgress && ((p) => opts.onProgress?.({ ...p, phase: 'read', overallRead: overallDone + p.bytesRead, overallTotal }))
	};
	for (let i = 0; i < classified.length; i++) {
		const c = classified[i];
		const blob = blobs.get(c.path) as Blob;
		const bytes = preread.get(c.path);
		const text = () => (bytes ? new TextDecoder().decode(bytes) : blob.text());
		const counted = c.kind === 'unknown' ? 0 : c.bytes;
		try {
			if (c.kind === 'subagent-meta') {
				const v: unknown = JSON.parse(await text()); // classification saw the whole (small) file
				if (isObj(v)) metas.set(c.path, v);
			} else if (c.kind === 'transcript' && c.format === 'web-json') {
				if (blob.size > WEB_JSON_MAX) {
					classified[i] = { ...c, kind: 'unknown', reason: `a web JSON export larger than ${WEB_JSON_MAX / 1048576} MB is not supported` };
				} else {
					const fr = webJsonRecords(c.path, await text());
					perFile.onProgress?.({ file: c.path, bytesRead: blob.size, bytesTotal: blob.size, lines: fr.lines });
					records.set(c.path, fr);
				}
			} else if (isHarnessDocument(c)) {
				const read = await readHarnessDocument(c, blob);
				if ('doc' in read) {
					harnessDocs.set(c.path, read.doc);
					perFile.onProgress?.({ file: c.path, bytesRead: blob.size, bytesTotal: blob.size, lines: 1 });
				} else classified[i] = { ...c, kind: 'unknown', reason: read.reason };
			} else if (c.kind !== 'unknown') {
				records.set(c.path, await readFileRecords(c.path, bytes ?? blob, perFile));
			}
		} catch (e) {
			opts.signal?.throwIfAborted();
			if (isAbort(e)) throw e;
			classified[i] = unreadable(c.path, c.bytes, e);
		}
		overallDone += counted;
	}

	// 3. Group.
	const summaries = new Map<string, FileSummary>();
	for (const c of classified) {
		const fr = records.get(c.path);
		if (fr && (c.kind === 'transcript' || c.kind === 'subagent') && !isHarnessFile(c)) summaries.set(c.path, summarize(c.path, fr));
	}
	const { plans, leftover } = groupSessions(classified.filter((c) => !isHarnessFile(c)), summaries);
	const allSummaries = [...summaries.values()].flatMap((s) => s.summaries);

	// 4. Build each session.
	const childCache = new Map<string, ParseResult | null>();
	const sessions: LoadedSession[] = [];
	for (const plan of plans) {
		opts.signal?.throwIfAborted();
		const leaf = plan.mainFiles.at(-1);
		const planBytes = [...plan.replayed, ...plan.mainFiles].reduce((n, f) => n + f.bytes, 0);
		opts.onProgress?.({ file: leaf?.path ?? plan.key, bytesRead: 0, bytesTotal: planBytes, lines: 0, phase: 'build', overallRead: overallTotal, overallTotal });
		const s = await buildPlan(plan, { records, metas, summaries, allSummaries, blobs, preread, childCache }, issues);
		if (s) {
			sessions.push(s);
			opts.onSession?.(s);
		}
	}

	// 5. Other harnesses (Codex, Gemini CLI, Strap): their own adapters, the same LoadedSession shape.
	const harnessInputs: HarnessInput[] = classified.filter(isHarnessFile).map((file) => ({ file, records: records.get(file.path), doc: harnessDocs.get(file.path) }));
	if (harnessInputs.length) {
		const built = await buildHarnessSessions(harnessInputs, (fs) => contentHash(fs.map((file) => ({ file, blob: preread.get(file.path) ?? (blobs.get(file.path) as Blob) }))), (p) => blobs.get(p) as Blob, issues);
		for (const s of built) {
			sessions.push(s);
			opts.onSession?.(s);
		}
	}

	const unknown = [...leftover, ...classified.filter((c) => c.kind === 'unknown' && !leftover.includes(c))];
	for (const u of unknown) issues.push(fileIssue(u));
	const sorted = sortNewestFirst(sessions);
	for (const s of sorted) issues.push(...s.issues);
	return { sessions: sorted, unknown, issues };
}

interface BuildCtx {
	records: Map<string, FileRecords>;
	metas: Map<string, Obj>;
	summaries: Map<string, FileSummary>;
	allSummaries: { leafUuid: string | null; summary: string }[];
	blobs: Map<string, Blob>;
	/** Bytes of the files the caller read already (InputFile.bytes). */
	preread: Map<string, Uint8Array>;
	childCache: Map<string, ParseResult | null>;
}

/** Build one planned session; when it cannot be built, the reason goes to `failures` and null is returned. */
async function buildPlan(plan: SessionPlan, ctx: BuildCtx, failures: Issue[]): Promise<LoadedSession | null> {
	const issues: Issue[] = [];
	const rec = (f: ClassifiedFile | null) => (f ? (ctx.records.get(f.path) ?? null) : null);
	const mains = plan.mainMissing ? [orphanMain(plan.mainMissing, plan, ctx)] : plan.mainFiles.map(rec).filter((r): r is FileRecords => r !== null);
	const leafPath = plan.mainFiles.at(-1)?.path ?? mains[0]?.file ?? plan.key;
	if (mains.length === 0) {
		failures.push({ file: leafPath, line: null, kind: 'parse-failed', message: 'none of the session\'s transcripts could be read' });
		return null;
	}
	const standalone = plan.standalone === 'subagent';
	const result = safeBuild(
		{ transcripts: mains, states: rec(plan.states), postal: rec(plan.postal) },
		{ compat: 'viewer', ...(standalone ? { subagent: true } : {}) },
		leafPath,
		failures
	);
	if (!result) return null;

	// Children: subagent files, then inline sidechains of the main files.
	const inputs: ChildInput[] = [];
	for (const sub of plan.subagents) {
		const fr = rec(sub.file);
		if (!fr) continue;
		let child = ctx.childCache.get(sub.file.path);
		if (child === undefined) {
			child = safeBuild({ transcripts: [fr] }, { compat: 'viewer', subagent: true }, sub.file.path, issues);
			ctx.childCache.set(sub.file.path, child);
		}
		if (!child) continue;
		const agentId = sub.file.agentId ?? ctx.summaries.get(sub.file.path)?.agentIds[0] ?? null;
		inputs.push({ file: sub.file.path, agentId, meta: sub.meta ? (ctx.metas.get(sub.meta.path) ?? null) : null, firstPrompt: firstPromptOf(fr.records), result: child, records: fr });
	}
	if (!standalone) {
		const fileAgents = new Set(inputs.map((c) => c.agentId).filter((a): a is string => a !== null));
		for (const fr of mains) {
			for (const sc of splitInlineSidechains(fr, fileAgents)) {
				const child = safeBuild({ transcripts: [sc.records] }, { compat: 'viewer', subagent: true }, sc.records.file, issues);
				if (child) inputs.push({ file: sc.records.file, agentId: sc.agentId, meta: null, firstPrompt: firstPromptOf(sc.records.records), result: child, records: sc.records });
			}
		}
	}
	const { children, unattached } = attachSubagents(result, inputs, mains);
	for (const u of unattached) issues.push({ file: u.file, line: null, kind: 'unattached-subagent', message: `subagent transcript not tied to a Task / Agent call: ${u.reason}` });

	const files = planFiles(plan);
	const bytes = files.reduce((n, f) => n + f.bytes, 0);
	const hash = await contentHash(files.map((file) => ({ file, blob: ctx.preread.get(file.path) ?? (ctx.blobs.get(file.path) as Blob) })));
	// An orphaned folder's facts (title, times) are its subagents', the earliest first.
	const sumsOf = (fs: ClassifiedFile[]) => fs.map((f) => ctx.summaries.get(f.path)).filter((s): s is FileSummary => !!s);
	const mainSums = plan.mainMissing ? sumsOf(plan.subagents.map((x) => x.file)).sort((a, b) => (a.firstMs ?? Infinity) - (b.firstMs ?? Infinity)) : sumsOf([...plan.replayed, ...plan.mainFiles]);
	const meta = sessionMeta({ key: plan.key, result, mains: mainSums, allSummaries: ctx.allSummaries, bytes, subagents: inputs.length });
	if (plan.mainMissing) Object.assign(meta, { mainMissing: true, project: plan.mainMissing.project });
	const childIssues = [...Object.values(children).map((c) => c.result), ...unattached.map((u: UnattachedChild) => u.result)].flatMap((r) => r.issues);
	return {
		key: `${plan.key}-${hash}`,
		title: meta.title,
		startedAt: meta.startedAt,
		endedAt: meta.endedAt,
		bytes,
		files,
		inputs: files.map((f) => ({ path: f.path, blob: ctx.blobs.get(f.path) as Blob })),
		result,
		children,
		unattached,
		issues: [...issues, ...result.issues, ...childIssues],
		meta
	};
}

/** The synthetic main transcript of an orphaned subagent folder: one delegation per subagent that
 *  no other subagent of the folder spawned (those attach under their parent's own call). */
function orphanMain(folder: { project: string; sid: string }, plan: SessionPlan, ctx: BuildCtx): FileRecords {
	const spawned = new Set(plan.subagents.flatMap((x) => ctx.summaries.get(x.file.path)?.spawnedAgentIds ?? []));
	const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
	const children: OrphanChild[] = [];
	for (const x of plan.subagents) {
		const sum = ctx.summaries.get(x.file.path);
		const agentId = x.file.agentId ?? sum?.agentIds[0] ?? null;
		if (agentId && spawned.has(agentId)) continue;
		const fr = ctx.records.get(x.file.path);
		const meta = x.meta ? ctx.metas.get(x.meta.path) : undefined;
		const cwd = fr?.records.map((r) => str(r.value.cwd)).find((c) => c !== null) ?? null;
		children.push({ agentId, prompt: fr ? firstPromptOf(fr.records) : null, description: str(meta?.description), agentType: str(meta?.agentType), firstMs: sum?.firstMs ?? null, lastMs: sum?.lastMs ?? null, cwd });
	}
	return orphanMainRecords(folder.project, folder.sid, children);
}

function isAbort(e: unknown): boolean {
	return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'AbortError';
}

function unreadable(path: string, bytes: number, e: unknown): ClassifiedFile {
	if (isAbort(e)) throw e;
	const p = normPath(path);
	return { path: p, name: p.split('/').at(-1) ?? p, kind: 'unknown', sessionId: null, bytes, reason: `could not be read: ${e instanceof Error ? e.message : String(e)}` };
}

/** Load pasted JSONL (or a web JSON export) as if it were one dropped file called `name`. */
export function loadText(name: string, text: string, opts: LoadOptions = {}): Promise<LoadOutput> {
	const path = /\.(jsonl|json)$/i.test(name) ? name : `${name}.jsonl`;
	return loadSessions([{ path, blob: new Blob([text]) }], opts);
}

