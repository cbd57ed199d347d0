// History search's facets over the session list: which listed sessions a history-scoped query
// covers (project, harness, a date range on when they started) and in what order (grouped by
// project, newest session first within each). The role, tool and failed-calls facets are the
// field scope's (scan.ts SearchScope). Pure: the page passes its list and gets the keys to search.
import type { ListEntry } from '../sessions/list.ts';
import { personOf } from '../../ingest/person.ts';

export interface HistoryFacets {
	/** Project folder ('' for all). */
	project: string;
	/** Harness id ('' for all). */
	harness: string;
	/** Whose sessions, in a tree of several people's (ingest/person.ts; '' for all). */
	person?: string;
	/** Inclusive day bounds, `YYYY-MM-DD`, local time ('' for open). */
	since: string;
	until: string;
}

export const NO_FACETS: HistoryFacets = { project: '', harness: '', since: '', until: '' };

function dayStart(day: string): number | null {
	const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
	return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime() : null;
}

/** The sessions a history query covers, grouped by project (the one with the newest session first), newest first in each. */
export function historyKeys(list: readonly Pick<ListEntry, 'key' | 'project' | 'harness' | 'startedAt'>[], f: HistoryFacets): string[] {
	const from = f.since ? dayStart(f.since) : null;
	const untilStart = f.until ? dayStart(f.until) : null;
	const to = untilStart === null ? null : untilStart + 86_400_000;
	const picked = list.filter((e) => {
		if (f.project && e.project !== f.project) return false;
		if (f.harness && e.harness !== f.harness) return false;
		if (f.person && personOf(e.project) !== f.person) return false;
		if (from !== null && (e.startedAt === null || e.startedAt < from)) return false;
		if (to !== null && (e.startedAt === null || e.startedAt >= to)) return false;
		return true;
	});
	// A project ranks by its newest session; ties keep list order.
	const newest = new Map<string, number>();
	for (const e of picked) newest.set(e.project, Math.max(newest.get(e.project) ?? -Infinity, e.startedAt ?? -Infinity));
	const rank = [...newest.keys()].sort((a, b) => newest.get(b)! - newest.get(a)!);
	const order = new Map(rank.map((p, i) => [p, i]));
	return picked
		.map((e, i) => ({ e, i }))
		.sort((a, b) => order.get(a.e.project)! - order.get(b.e.project)! || (b.e.startedAt ?? -Infinity) - (a.e.startedAt ?? -Infinity) || a.i - b.i)
		.map(({ e }) => e.key);
}
