// LiveSession: one session whose files grow while it is read (following a running session). It
// holds an IncrementalBuilder for the main files (candidate transcripts, state log, postal log)
// and one per subagent transcript — separate builds, as load-files.ts builds them — and after
// each build attaches the subagents (and 1.0.x inline sidechains) to their Task / Agent calls,
// like a full load does. Bytes go to each file's reader once; build() re-runs only what the
// appends require and says what changed (the main turns, the calls whose child changed), so a
// view can redo only that. Grouping files into sessions, titles and the session-list facts are
// the project's (live.ts), which keeps one LiveSession per session.
import { IncrementalBuilder } from '../model/index.ts';
import type { AppendRole, BuildChange, FileRecords, Issue, ParseResult } from '../model/index.ts';
import { attachSubagents, firstPromptOf, type ChildInput } from './attach-subagents.ts';
import { splitInlineSidechains } from './sidechains.ts';
import { buildSession } from '../model/index.ts';
import type { ChildTranscript, UnattachedChild } from './types.ts';

type Obj = Record<string, unknown>;

export type LiveRole = AppendRole | 'subagent';

export interface LiveBuild {
	/** the main session (viewer mode) */
	result: ParseResult;
	/** keyed by the Task / Agent tool_use id, as LoadedSession.children */
	children: Record<string, ChildTranscript>;
	unattached: UnattachedChild[];
	/** the main result's issues, then every child's */
	issues: Issue[];
	/** what changed in the main session's turns (IncrementalBuilder.change) */
	change: BuildChange;
	/** tool_use ids whose delegated child changed since the previous build: it grew, or was tied
	 *  to the call or untied from it (their rows change even when the call's turn did not) */
	changedCalls: string[];
}

/** What a load knows of a subagent file besides its bytes. */
export interface SubagentInfo {
	agentId?: string | null;
	/** its parsed .meta.json */
	meta?: Obj | null;
}

interface Child {
	builder: IncrementalBuilder;
	agentId: string | null;
	meta: Obj | null;
	firstPrompt: string | null;
}

/** The inputs of the last attachment, to tell whether it can be kept. */
interface Attached {
	files: string[];
	agentIds: (string | null)[];
	metas: (Obj | null)[];
	/** child file → call id */
	calls: Map<string, string>;
	children: Record<string, ChildTranscript>;
}

const AGENT_FILE = /(?:^|\/)agent-([^/]+)\.jsonl$/;

export class LiveSession {
	private readonly main: IncrementalBuilder;
	private readonly subagents = new Map<string, Child>();
	private readonly mains: string[] = [];
	private readonly standalone: boolean;
	/** per main transcript: records scanned for inline sidechain lines, and whether one was seen */
	private readonly sideScan = new Map<string, { scanned: number; seen: boolean }>();
	private attached: Attached | null = null;
	private previous: LiveBuild | null = null;

	/** standalone: the main transcript is itself a subagent transcript dropped on its own. */
	constructor(opts: { standalone?: boolean } = {}) {
		this.standalone = !!opts.standalone;
		this.main = new IncrementalBuilder({ compat: 'viewer', ...(this.standalone ? { subagent: true } : {}) });
	}

	/** Bytes appended to one of the session's files; agentId defaults to the one in `agent-<id>.jsonl`. */
	append(role: LiveRole, path: string, bytes: Uint8Array | string, agentId?: string | null): void {
		if (role !== 'subagent') {
			if (role === 'transcript' && !this.mains.includes(path)) this.mains.push(path);
			this.main.append(role, path, bytes);
			return;
		}
		this.child(path, agentId).builder.append('transcript', path, bytes);
	}

	/** Sets what is known of a subagent file besides its bytes (undefined fields stay as they are). */
	describeSubagent(path: string, info: SubagentInfo): void {
		const c = this.child(path, info.agentId);
		if (info.agentId !== undefined && info.agentId !== null) c.agentId = info.agentId;
		if (info.meta !== undefined) c.meta = info.meta;
	}

	/** Forgets a subagent file (it left, or is re-read from its start). */
	dropSubagent(path: string): void {
		this.subagents.delete(path);
	}

	/** The subagent files it holds (appended or described, not dropped). */
	subagentFiles(): string[] {
		return [...this.subagents.keys()];
	}

	/** Candidate main transcripts, LEAF LAST (see IncrementalBuilder.setTranscriptOrder). */
	setTranscriptOrder(paths: string[]): void {
		this.mains.splice(0, this.mains.length, ...paths);
		this.main.setTranscriptOrder(paths);
	}

	build(): LiveBuild {
		const result = this.main.build();
		const change = this.main.change;
		const inputs: ChildInput[] = [];
		for (const [path, c] of this.subagents) {
			// described (or fed only a partial line) before any bytes reached its reader: nothing to build yet
			const records = c.builder.records(path);
			if (!records) continue;
			const child = c.builder.build();
			c.firstPrompt ??= firstPromptOf(records.records);
			inputs.push({ file: path, agentId: c.agentId, meta: c.meta, firstPrompt: c.firstPrompt, result: child, records });
		}
		const mains = this.mains.map((p) => this.main.records(p)).filter((r): r is FileRecords => r !== null);
		if (!this.standalone && this.hasInlineSidechains(mains)) {
			// Claude Code 1.0.x wrote subagent chains into the main file (see sidechains.ts).
			const fileAgents = new Set(inputs.map((c) => c.agentId).filter((a): a is string => a !== null));
			for (const fr of mains) {
				for (const sc of splitInlineSidechains(fr, fileAgents)) {
					const child = buildSession({ transcripts: [sc.records] }, { compat: 'viewer', subagent: true });
					inputs.push({ file: sc.records.file, agentId: sc.agentId, meta: null, firstPrompt: firstPromptOf(sc.records.records), result: child, records: sc.records });
				}
			}
		}
		const { children, unattached } = this.attach(result, inputs, mains, change);
		const issues = [...result.issues, ...Object.values(children).flatMap((c) => c.result.issues), ...unattached.flatMap((u) => u.result.issues)];
		const changedCalls = this.changedCalls(children);
		this.previous = { result, children, unattached, issues, change, changedCalls };
		return this.previous;
	}

	private child(path: string, agentId?: string | null): Child {
		let c = this.subagents.get(path);
		if (!c) {
			c = { builder: new IncrementalBuilder({ compat: 'viewer', subagent: true }), agentId: agentId ?? AGENT_FILE.exec(path)?.[1] ?? null, meta: null, firstPrompt: null };
			this.subagents.set(path, c);
		}
		return c;
	}

	/** Whether any main transcript holds a sidechain line; only records new since the last build are looked at. */
	private hasInlineSidechains(mains: FileRecords[]): boolean {
		let any = false;
		for (const fr of mains) {
			let s = this.sideScan.get(fr.file);
			if (!s || s.scanned > fr.records.length) this.sideScan.set(fr.file, (s = { scanned: 0, seen: false }));
			for (let i = s.scanned; i < fr.records.length && !s.seen; i++) if (fr.records[i].value.isSidechain === true) s.seen = true;
			s.scanned = fr.records.length;
			any ||= s.seen;
		}
		return any;
	}

	/** Ties children to calls. Matching reads every atom, so once every child is attached the same
	 *  ties are kept while the main parse only grew (fast path) and the children's files, agent ids
	 *  and .meta.json are the same; anything else matches again. */
	private attach(result: ParseResult, inputs: ChildInput[], mains: FileRecords[], change: BuildChange): { children: Record<string, ChildTranscript>; unattached: UnattachedChild[] } {
		const prev = this.attached;
		const grewOnly = change.path === 'fast' || change.path === 'unchanged';
		if (
			prev &&
			grewOnly &&
			prev.files.length === inputs.length &&
			inputs.every((c, i) => c.file === prev.files[i] && c.agentId === prev.agentIds[i] && c.meta === prev.metas[i])
		) {
			const children: Record<string, ChildTranscript> = {};
			for (const c of inputs) {
				const before = prev.children[prev.calls.get(c.file) ?? ''];
				if (before) children[before.toolUseId] = before.result === c.result ? before : { ...before, result: c.result };
			}
			if (Object.keys(children).length === inputs.length) {
				prev.children = children;
				return { children, unattached: [] };
			}
		}
		const out = attachSubagents(result, inputs, mains);
		this.attached = out.unattached.length
			? null
			: {
					files: inputs.map((c) => c.file),
					agentIds: inputs.map((c) => c.agentId),
					metas: inputs.map((c) => c.meta),
					calls: new Map(Object.values(out.children).map((c) => [c.file, c.toolUseId])),
					children: out.children
				};
		return out;
	}

	/** Calls whose child is not the previous build's (grown, newly tied, or untied). */
	private changedCalls(children: Record<string, ChildTranscript>): string[] {
		const before = this.previous?.children ?? {};
		const out = new Set<string>();
		for (const [id, c] of Object.entries(children)) {
			const b = before[id];
			// a grown child is a new parse object (an unchanged builder returns its previous result)
			if (!b || b.file !== c.file || b.result !== c.result) out.add(id);
		}
		for (const id of Object.keys(before)) if (!(id in children)) out.add(id);
		return [...out];
	}
}
