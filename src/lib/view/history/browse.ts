// The history view's rows, pure: one row per stored session (from its digest, no files needed),
// the root each came from, and the view's own link (`#history&hp=<project>&hr=<root>&hf=<text>&hs=<sort>&hd=<dir>`) so a filtered view can
// be reopened or shared. Sorting, filtering and the sums are history-table.ts's (loaded with the rows).
import type { SessionDigest } from './types.ts';

/** What the view shows of one stored session. */
export type HistoryRow = Pick<SessionDigest, 'key' | 'title' | 'project' | 'harness' | 'startedAt' | 'endedAt' | 'turns' | 'costUsd' | 'unpricedMessages'> & {
	/** The dropped folder the session came from (the first segment of its project's path). */
	root: string;
};

export type HistorySort = 'date' | 'cost' | 'turns' | 'title' | 'project';
const SORTS: readonly HistorySort[] = ['date', 'cost', 'turns', 'title', 'project'];

export interface HistoryFilters {
	/** Case-insensitive text in the title or project. */
	text: string;
	project: string;
	root: string;
	sort: HistorySort;
	dir: 'asc' | 'desc';
}

export const NO_HISTORY_FILTERS: HistoryFilters = { text: '', project: '', root: '', sort: 'date', dir: 'desc' };

/** A session's root: the top folder of its project path ("projects" for a dropped ~/.claude/projects). */
export function rootOf(project: string): string {
	const p = project.replace(/^\/+/, '');
	const slash = p.indexOf('/');
	return slash < 0 ? p : p.slice(0, slash);
}

export function rowOf(d: HistoryRow | Omit<HistoryRow, 'root'>): HistoryRow {
	const { key, title, project, harness, startedAt, endedAt, turns, costUsd, unpricedMessages } = d;
	return { key, title, project, harness, startedAt, endedAt, turns, costUsd, unpricedMessages, root: rootOf(project) };
}

/** The last path segment of a project folder (what the list shows; the full path is its title). */
export function projectLabel(project: string): string {
	const parts = project.split('/').filter(Boolean);
	return parts[parts.length - 1] ?? project;
}

export interface HistorySummary {
	sessions: number;
	projects: number;
	roots: string[];
	costUsd: number;
	/** Epoch ms of the first and last activity (null: no times). */
	from: number | null;
	to: number | null;
}

/** `YYYY-MM-DD` in UTC (the summary's date range; no Intl at the start page). */
export function isoDay(ms: number | null): string {
	return ms === null ? '—' : new Date(ms).toISOString().slice(0, 10);
}

const PARAMS: Record<string, keyof HistoryFilters> = { hf: 'text', hp: 'project', hr: 'root', hs: 'sort', hd: 'dir' };

/** The filters of a `#history…` fragment, or null when the fragment is not the history view's. */
export function parseHistoryHash(hash: string): HistoryFilters | null {
	const body = hash.replace(/^#/, '');
	const [head, ...rest] = body.split('&');
	if (head !== 'history') return null;
	const f: HistoryFilters = { ...NO_HISTORY_FILTERS };
	for (const part of rest) {
		const eq = part.indexOf('=');
		const name = PARAMS[part.slice(0, eq)];
		if (eq <= 0 || !name) continue;
		let v: string;
		try {
			v = decodeURIComponent(part.slice(eq + 1).replace(/\+/g, '%20')).slice(0, 1024);
		} catch {
			continue;
		}
		if (name === 'sort') f.sort = SORTS.find((s) => s === v) ?? f.sort;
		else if (name === 'dir') f.dir = v === 'asc' ? 'asc' : 'desc';
		else f[name] = v;
	}
	return f;
}

/** The view's fragment: `#history` plus what differs from the defaults. */
export function historyHash(f: HistoryFilters): string {
	const parts = ['history'];
	for (const [param, name] of Object.entries(PARAMS)) {
		const v = f[name];
		if (v && v !== NO_HISTORY_FILTERS[name]) parts.push(`${param}=${encodeURIComponent(v)}`);
	}
	return `#${parts.join('&')}`;
}
