// The session list of a big drop as data: one entry per listed session (from the head/tail scan,
// or exact once built), projects summarised from their entries, and the sorting and filtering
// the list offers. Pure: the state class holds the choices, the component draws the result.
import { dirOf } from '../../ingest/paths.ts';
import { projectName } from '../../ingest/project-name.ts';
import { personOf } from '../../ingest/person.ts';

export interface ListEntry {
	key: string;
	/** Folder of the session's transcript in the drop ('' at the top). */
	project: string;
	/** The agent that wrote it (a harness id such as `claude-code`) and how the list names it. */
	harness: string;
	harnessLabel?: string;
	title: string;
	startedAt: number | null;
	endedAt: number | null;
	bytes: number;
	turns: number;
	/** False while `turns` is the scan's estimate (shown with '~'). */
	turnsExact: boolean;
	subagents: number;
	cwd: string | null;
	model: string | null;
	/** An orphaned subagent folder: its main transcript is gone (ingest/orphans.ts). */
	mainMissing?: boolean;
	/** The session's cost once the history index read it (view/history/list.ts). */
	costUsd?: number;
}

export interface ProjectEntry {
	/** The folder path in the drop (what data-project carries). */
	key: string;
	name: string;
	/** False when the name is the lossy decoding of the folder name. */
	exactName: boolean;
	sessions: number;
	bytes: number;
	lastActivity: number | null;
	/** Summed over its sessions once the history index read every one of them (else absent). */
	costUsd?: number;
	/** Whose it is, in a tree of several people's histories (`<person>/.claude/projects/…`). */
	person?: string;
}

export type SortKey = 'newest' | 'largest' | 'longest' | 'turns';
export const SORT_KEYS: readonly SortKey[] = ['newest', 'largest', 'longest', 'turns'];

export interface ListFilter {
	/** Case-insensitive words that must all appear in the title. */
	text?: string;
	/** Sessions active on or after / before these epoch ms (a session spanning the bound counts). */
	from?: number | null;
	to?: number | null;
	project?: string | null;
	/** Only this person's projects (ingest/person.ts). */
	person?: string | null;
}

const last = (e: ListEntry) => e.endedAt ?? e.startedAt ?? -Infinity;
export const durationOf = (e: ListEntry): number => (e.startedAt !== null && e.endedAt !== null ? Math.max(0, e.endedAt - e.startedAt) : 0);

const BY: Record<SortKey, (a: ListEntry, b: ListEntry) => number> = {
	newest: (a, b) => last(b) - last(a),
	largest: (a, b) => b.bytes - a.bytes,
	longest: (a, b) => durationOf(b) - durationOf(a),
	turns: (a, b) => b.turns - a.turns
};

export function sortEntries(entries: readonly ListEntry[], key: SortKey): ListEntry[] {
	const by = BY[key];
	return [...entries].sort((a, b) => by(a, b) || last(b) - last(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function filterEntries(entries: readonly ListEntry[], f: ListFilter): ListEntry[] {
	const words = (f.text ?? '').toLowerCase().split(/\s+/).filter(Boolean);
	const from = f.from ?? null;
	const to = f.to ?? null;
	return entries.filter((e) => {
		if (f.project != null && e.project !== f.project) return false;
		if (f.person != null && personOf(e.project) !== f.person) return false;
		if (from !== null && (e.endedAt ?? e.startedAt ?? -Infinity) < from) return false;
		if (to !== null && (e.startedAt ?? e.endedAt ?? Infinity) > to) return false;
		if (words.length) {
			const title = e.title.toLowerCase();
			if (!words.every((w) => title.includes(w))) return false;
		}
		return true;
	});
}

/** Projects of the listed sessions, most recently active first. */
export function projectsOf(entries: readonly ListEntry[]): ProjectEntry[] {
	const by = new Map<string, { entries: ListEntry[]; cwds: Set<string | null> }>();
	for (const e of entries) {
		let p = by.get(e.project);
		if (!p) by.set(e.project, (p = { entries: [], cwds: new Set() }));
		p.entries.push(e);
		p.cwds.add(e.cwd);
	}
	const out: ProjectEntry[] = [];
	for (const [key, p] of by) {
		const { name, exact } = projectName(key, [...p.cwds]);
		let lastActivity: number | null = null;
		for (const e of p.entries) {
			const t = e.endedAt ?? e.startedAt;
			if (t !== null && (lastActivity === null || t > lastActivity)) lastActivity = t;
		}
		const project: ProjectEntry = { key, name, exactName: exact, sessions: p.entries.length, bytes: p.entries.reduce((n, e) => n + e.bytes, 0), lastActivity };
		if (p.entries.every((e) => e.costUsd !== undefined)) project.costUsd = p.entries.reduce((n, e) => n + (e.costUsd ?? 0), 0);
		const person = personOf(key);
		if (person !== null) project.person = person;
		out.push(project);
	}
	return out.sort((a, b) => (b.lastActivity ?? -Infinity) - (a.lastActivity ?? -Infinity) || (a.key < b.key ? -1 : 1));
}

/**
 * The sessions a "this project" search covers: every listed session of the open one's folder,
 * built or not (a big drop builds them on the search's way). A drop that was not scanned lists
 * nothing, so then the built sessions of that folder.
 */
export function projectSessionKeys(folder: string, list: readonly Pick<ListEntry, 'key' | 'project'>[], built: readonly { key: string; folder: string }[]): string[] {
	const listed = list.filter((e) => e.project === folder).map((e) => e.key);
	return listed.length ? listed : built.filter((s) => s.folder === folder).map((s) => s.key);
}

/** The `n` sessions after `key` in the order the list shows (the likely next ones to open); from
 *  the top when `key` is not shown (filtered out). */
export function keysAfter(shown: readonly Pick<ListEntry, 'key'>[], key: string, n: number): string[] {
	const at = shown.findIndex((e) => e.key === key);
	return shown.slice(at + 1).filter((e) => e.key !== key).slice(0, n).map((e) => e.key);
}

/**
 * The project a session belongs to: its listing's, as the list names it (another harness's
 * project is not its file's folder: date folders and the like are dropped from it), else the
 * folder of its main transcript (a drop that was not scanned lists nothing).
 */
export function projectOfSession(key: string, list: readonly Pick<ListEntry, 'key' | 'project'>[], mainPath: string | null): string {
	return list.find((e) => e.key === key)?.project ?? (mainPath === null ? '' : dirOf(mainPath));
}
