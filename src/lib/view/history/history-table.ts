// The history view's table, pure: the rows its filters keep in their order, and the sums the start
// page and the view's header show. Loaded with the rows (state/HistoryView.svelte.ts), not at boot.
import type { HistoryFilters, HistoryRow, HistorySort, HistorySummary } from './browse.ts';

const when = (r: HistoryRow) => r.endedAt ?? r.startedAt ?? 0;

function compare(a: HistoryRow, b: HistoryRow, sort: HistorySort): number {
	switch (sort) {
		case 'cost':
			return a.costUsd - b.costUsd;
		case 'turns':
			return a.turns - b.turns;
		case 'title':
			return a.title.localeCompare(b.title);
		case 'project':
			return a.project.localeCompare(b.project);
		default:
			return when(a) - when(b);
	}
}

/** The rows the filters keep, in their order (ties by date, newest first, then key: stable). */
export function browse(rows: readonly HistoryRow[], f: HistoryFilters): HistoryRow[] {
	const text = f.text.trim().toLowerCase();
	const kept = rows.filter((r) => (!f.project || r.project === f.project) && (!f.root || r.root === f.root) && (!text || r.title.toLowerCase().includes(text) || r.project.toLowerCase().includes(text)));
	const sign = f.dir === 'asc' ? 1 : -1;
	return kept.sort((a, b) => sign * compare(a, b, f.sort) || when(b) - when(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

export function summarize(rows: readonly HistoryRow[]): HistorySummary {
	const projects = new Set<string>();
	const roots = new Set<string>();
	let costUsd = 0;
	let from: number | null = null;
	let to: number | null = null;
	for (const r of rows) {
		projects.add(r.project);
		roots.add(r.root);
		costUsd += r.costUsd;
		const a = r.startedAt ?? r.endedAt;
		const b = r.endedAt ?? r.startedAt;
		if (a !== null && (from === null || a < from)) from = a;
		if (b !== null && (to === null || b > to)) to = b;
	}
	return { sessions: rows.length, projects: projects.size, roots: [...roots].sort(), costUsd, from, to };
}

