// A followed project folder: files arrive as appended bytes (any chunking) and the sessions they
// form are kept current, in the same LoadedSession shape a load produces. One file's bytes and
// summary are live-file.ts's part (an unterminated last line waits for its "\n", so a line is
// never shown half); each session is a LiveSession (live-session.ts), fed only the chunks it has
// not seen. Regrouping runs only when the files or what grouping reads of them change; a session
// whose main files did not change survives it, a new one is fed the kept chunks. Known
// simplification against a full load: title fields are merged chunk by chunk (a later prose
// prompt does not replace an earlier sidechain prompt used as the first prompt).
import type { AppendRole } from '../model/incremental.ts';
import { LiveSession, type LiveRole } from './live-session.ts';
import { newLiveFile, takeBytes, type LiveFile, type StateRowInfo } from './live-file.ts';
import { groupSessions, planFiles } from './group.ts';
import { normPath, stemOf } from './paths.ts';
import { sessionMeta, sortNewestFirst } from './session-meta.ts';
import type { ClassifiedFile, FileSummary, LoadedSession, SessionPlan } from './types.ts';

export type { StateRowInfo } from './live-file.ts';

/** Appended bytes of one file; `reset` drops what was read of it before (re-read whole). */
export interface LiveChange {
	path: string;
	bytes: Uint8Array;
	reset?: boolean;
	/** The file left the folder. */
	gone?: boolean;
}

export interface LiveSessionInfo {
	key: string;
	/** Wall-clock ms of the last bytes that arrived for any file of the session. */
	lastWriteMs: number;
	/** The state log's last row, or null when the session has no state log. */
	lastState: StateRowInfo | null;
}

export interface LiveUpdate {
	/** Sessions rebuilt by this update (new ones included). */
	changed: string[];
	/** Sessions that no longer exist (their files left or regrouped elsewhere). */
	removed: string[];
	/** For each changed session: calls whose subagent grew or was tied / untied (their rows change). */
	grownChildren: Record<string, string[]>;
	/** For each changed session: the first turn that is not the previous build's object
	 *  (IncrementalBuilder.change.firstChangedTurn); meaningless for `fresh` sessions. */
	firstChangedTurn: Record<string, number>;
	/** Changed sessions parsed from scratch (new, regrouped with other files, a file re-read):
	 *  nothing of their previous state carries over. */
	fresh: string[];
}

interface ProjectSession {
	plan: SessionPlan;
	key: string;
	mainSig: string;
	live: LiveSession;
	/** path → [file generation, chunks fed], for every file fed to `live`. */
	fed: Map<string, [number, number]>;
	loaded: LoadedSession | null;
}

/** Stable session key of a followed session: it must not change as the files grow. */
export const liveKey = (plan: SessionPlan) => `${plan.key}-live`;

export class LiveProject {
	#files = new Map<string, LiveFile>();
	#sessions = new Map<string, ProjectSession>();
	#regroup = false;

	/** Applies appended bytes; `nowMs` is the wall clock of their arrival. */
	apply(changes: LiveChange[], nowMs: number): LiveUpdate {
		const touched = new Set<string>();
		for (const c of changes) {
			const path = normPath(c.path);
			if (c.gone) {
				if (this.#files.delete(path)) this.#regroup = true;
				continue;
			}
			let f = this.#files.get(path);
			if (!f || c.reset) {
				f = newLiveFile(path, f);
				this.#files.set(path, f);
				this.#regroup = true;
			}
			if (takeBytes(f, c.bytes, nowMs)) this.#regroup = true;
			touched.add(path);
		}
		const removed: string[] = [];
		if (this.#regroup) removed.push(...this.#regroupNow());
		const changed: string[] = [];
		const fresh: string[] = [];
		const grownChildren: Record<string, string[]> = {};
		const firstChangedTurn: Record<string, number> = {};
		for (const s of this.#sessions.values()) {
			const mine = sessionFiles(s.plan);
			if (s.loaded && !mine.some((p) => touched.has(p))) continue;
			const r = this.#rebuild(s);
			grownChildren[s.key] = r.grown;
			firstChangedTurn[s.key] = r.firstChangedTurn;
			if (r.fresh) fresh.push(s.key);
			changed.push(s.key);
		}
		return { changed, removed, grownChildren, firstChangedTurn, fresh };
	}

	/** Every session, newest first. */
	sessions(): LoadedSession[] {
		return sortNewestFirst([...this.#sessions.values()].flatMap((s) => (s.loaded ? [s.loaded] : [])));
	}

	session(key: string): LoadedSession | null {
		return this.#sessions.get(key)?.loaded ?? null;
	}

	/** When the session was last written to and what its state log says. */
	info(key: string): LiveSessionInfo | null {
		const s = this.#sessions.get(key);
		if (!s) return null;
		let lastWriteMs = 0;
		for (const p of sessionFiles(s.plan)) lastWriteMs = Math.max(lastWriteMs, this.#files.get(p)?.lastWriteMs ?? 0);
		const states = s.plan.states ? this.#files.get(s.plan.states.path) : undefined;
		return { key, lastWriteMs, lastState: states?.lastState ?? null };
	}

	/** Files that fit no session, with the reason (as a load reports them). */
	unknown(): ClassifiedFile[] {
		return [...this.#files.values()].flatMap((f) => (f.classified?.kind === 'unknown' ? [f.classified] : []));
	}

	/** Regroups every file; keeps the sessions (and builders) whose plan is unchanged. */
	#regroupNow(): string[] {
		this.#regroup = false;
		const classified = [...this.#files.values()].flatMap((f) => (f.classified ? [{ ...f.classified, bytes: f.size }] : []));
		const summaries = new Map<string, FileSummary>();
		for (const f of this.#files.values()) if (f.summary) summaries.set(f.path, f.summary);
		const plans = groupSessions(classified, summaries).plans.flatMap(standaloneOrphans);
		const next = new Map<string, ProjectSession>();
		for (const plan of plans) {
			const key = liveKey(plan);
			const old = this.#sessions.get(key);
			const mainSig = mainSignature(plan);
			if (old && old.mainSig === mainSig) {
				old.plan = plan;
				old.loaded = null;
				next.set(key, old);
			} else {
				next.set(key, { plan, key, mainSig, ...newLive(plan), loaded: null });
			}
		}
		const removed = [...this.#sessions.keys()].filter((k) => !next.has(k));
		this.#sessions = next;
		return removed;
	}

	/** Feeds a session what it has not seen and rebuilds it; says which calls' children changed,
	 *  the first changed turn, and whether the session started over. */
	#rebuild(s: ProjectSession): { grown: string[]; firstChangedTurn: number; fresh: boolean } {
		const { plan } = s;
		const mains = plan.mainFiles.map((f) => f.path);
		const parts: [AppendRole, string][] = [
			...mains.map((p): [AppendRole, string] => ['transcript', p]),
			...(plan.states ? [['states', plan.states.path] as [AppendRole, string]] : []),
			...(plan.postal ? [['postal', plan.postal.path] as [AppendRole, string]] : [])
		];
		let fresh = s.fed.size === 0;
		if (!this.#feedMain(s, parts)) {
			Object.assign(s, newLive(plan));
			this.#feedMain(s, parts);
			fresh = true;
		}
		s.live.setTranscriptOrder(mains);

		const inPlan = new Set<string>();
		for (const sub of plan.subagents) {
			const f = this.#files.get(sub.file.path);
			if (!f) continue;
			inPlan.add(f.path);
			const at = s.fed.get(f.path);
			if (at && at[0] !== f.gen) this.#dropChild(s, f.path); // re-read from its start
			this.#feed(s, 'subagent', f);
			const meta = sub.meta ? (this.#files.get(sub.meta.path)?.meta ?? null) : null;
			s.live.describeSubagent(f.path, { agentId: sub.file.agentId ?? f.summary?.agentIds[0] ?? null, meta });
		}
		for (const p of s.live.subagentFiles()) if (!inPlan.has(p)) this.#dropChild(s, p);

		const b = s.live.build();
		const { result, children, unattached } = b;
		const files = planFiles(plan).map((f) => ({ ...f, bytes: this.#files.get(f.path)?.size ?? f.bytes }));
		const bytes = files.reduce((n, f) => n + f.bytes, 0);
		const sums = [...plan.replayed, ...plan.mainFiles].map((f) => this.#files.get(f.path)?.summary).filter((x): x is FileSummary => !!x);
		const allSummaries = [...this.#files.values()].flatMap((f) => f.summary?.summaries ?? []);
		const meta = sessionMeta({ key: plan.key, result, mains: sums, allSummaries, bytes, subagents: plan.subagents.length });
		const issues = [
			...unattached.map((u) => ({ file: u.file, line: null, kind: 'unattached-subagent', message: `subagent transcript not tied to a Task / Agent call: ${u.reason}` })),
			...b.issues
		];
		s.loaded = { key: s.key, title: meta.title, startedAt: meta.startedAt, endedAt: meta.endedAt, bytes, files, inputs: [], result, children, unattached, issues, meta };
		return { grown: b.changedCalls, firstChangedTurn: b.change.firstChangedTurn, fresh };
	}

	#dropChild(s: ProjectSession, path: string): void {
		s.live.dropSubagent(path);
		s.fed.delete(path);
	}

	/** Feeds the main files' new chunks; false when one was re-read since it was fed (start over).
	 *  A whole (.json) file that changes is re-read (follow.ts), so this covers it too. */
	#feedMain(s: ProjectSession, parts: readonly (readonly [AppendRole, string])[]): boolean {
		for (const [, path] of parts) {
			const f = this.#files.get(path);
			const at = s.fed.get(path);
			if (f && at && at[0] !== f.gen) return false;
		}
		for (const [role, path] of parts) {
			const f = this.#files.get(path);
			if (f) this.#feed(s, role, f);
		}
		return true;
	}

	/** Appends the chunks of a file `s` has not seen. */
	#feed(s: ProjectSession, role: LiveRole, f: LiveFile): void {
		const at = s.fed.get(f.path) ?? [f.gen, 0];
		if (f.isWhole && f.classified?.format === 'web-json') return;
		for (let i = at[1]; i < f.chunks.length; i++) s.live.append(role, f.path, f.chunks[i]);
		s.fed.set(f.path, [f.gen, f.chunks.length]);
	}
}

/** Following a folder does not synthesize an orphaned folder's main transcript (a LiveSession
 *  feeds real bytes only): each of its subagents is followed as a session of its own. A drop of
 *  the same folder lists it as one session (orphans.ts). */
function standaloneOrphans(plan: SessionPlan): SessionPlan[] {
	if (!plan.mainMissing) return [plan];
	return plan.subagents.map((s) => ({ key: stemOf(s.file.path), mainFiles: [s.file], replayed: [], states: null, postal: null, subagents: [], standalone: 'subagent' as const, subagentMeta: s.meta }));
}

function newLive(plan: SessionPlan): Pick<ProjectSession, 'live' | 'fed'> {
	return { live: new LiveSession({ standalone: plan.standalone === 'subagent' }), fed: new Map() };
}

function mainSignature(plan: SessionPlan): string {
	return [...plan.mainFiles.map((f) => f.path), '|', plan.states?.path ?? '', '|', plan.postal?.path ?? '', plan.standalone ?? ''].join('\n');
}

const sessionFiles = (plan: SessionPlan): string[] => planFiles(plan).map((f) => f.path);
