// LiveSession: one session whose files grow while it is read (following a running session).
// It holds an IncrementalBuilder for the main files (candidate transcripts, state log, postal
// log) and one per subagent transcript — separate builds, as load-files.ts builds them — and
// attaches the subagents to their Task / Agent calls after each build, like a full load does.
// Bytes go to each file's reader once; build() re-runs only what the appends require.
// Not covered here (the full load still does it): .meta.json evidence, titles and session-list
// facts, and the grouping of files into sessions.
import { IncrementalBuilder } from '../model/index.ts';
import type { AppendRole, BuildChange, FileRecords, Issue, ParseResult } from '../model/index.ts';
import { attachSubagents, firstPromptOf, type ChildInput } from './attach-subagents.ts';
import { splitInlineSidechains } from './sidechains.ts';
import { buildSession } from '../model/index.ts';
import type { ChildTranscript, UnattachedChild } from './types.ts';

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
	/** subagent files whose parse changed since the previous build */
	changedSubagents: string[];
}

interface Child {
	builder: IncrementalBuilder;
	agentId: string | null;
}

const AGENT_FILE = /(?:^|\/)agent-([^/]+)\.jsonl$/;

export class LiveSession {
	private readonly main: IncrementalBuilder;
	private readonly subagents = new Map<string, Child>();
	private readonly mains: string[] = [];
	private readonly standalone: boolean;

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
		let c = this.subagents.get(path);
		if (!c) {
			c = { builder: new IncrementalBuilder({ compat: 'viewer', subagent: true }), agentId: agentId ?? AGENT_FILE.exec(path)?.[1] ?? null };
			this.subagents.set(path, c);
		}
		c.builder.append('transcript', path, bytes);
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
		const changedSubagents: string[] = [];
		for (const [path, c] of this.subagents) {
			const child = c.builder.build();
			if (c.builder.change.path !== 'unchanged') changedSubagents.push(path);
			const records = c.builder.records(path)!;
			inputs.push({ file: path, agentId: c.agentId, meta: null, firstPrompt: firstPromptOf(records.records), result: child, records });
		}
		const mains = this.mains.map((p) => this.main.records(p)).filter((r): r is FileRecords => r !== null);
		if (!this.standalone) {
			// Claude Code 1.0.x wrote subagent chains into the main file (see sidechains.ts).
			const fileAgents = new Set(inputs.map((c) => c.agentId).filter((a): a is string => a !== null));
			for (const fr of mains) {
				for (const sc of splitInlineSidechains(fr, fileAgents)) {
					const child = buildSession({ transcripts: [sc.records] }, { compat: 'viewer', subagent: true });
					inputs.push({ file: sc.records.file, agentId: sc.agentId, meta: null, firstPrompt: firstPromptOf(sc.records.records), result: child, records: sc.records });
				}
			}
		}
		const { children, unattached } = attachSubagents(result, inputs, mains);
		const issues = [...result.issues, ...Object.values(children).flatMap((c) => c.result.issues), ...unattached.flatMap((u) => u.result.issues)];
		return { result, children, unattached, issues, change, changedSubagents };
	}
}
