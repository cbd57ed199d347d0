// Whose history a project folder belongs to, when a tree holds several people's: the folder above
// `projects/` (or above `.claude/projects/`), as teams sync `<person>/.claude/projects` to one
// bucket. Pure; the list, history usage and search facets read it from a project's path.
import { segments } from './paths.ts';

/** The person a project folder path is under, or null when the path has no such layout
 *  (a dropped `projects` or `.claude` folder, a lone project folder). */
export function personOf(projectPath: string): string | null {
	const s = segments(projectPath);
	// The first `projects` with a project folder under it; a project folder may itself be named so.
	const at = s.indexOf('projects');
	if (at < 0 || at + 1 >= s.length) return null;
	const above = s[at - 1] === '.claude' ? at - 2 : at - 1;
	return above >= 0 ? s[above] : null;
}

/** The people of a list of project paths, sorted; empty when fewer than two (no dimension then). */
export function peopleOf(projectPaths: Iterable<string>): string[] {
	const set = new Set<string>();
	for (const p of projectPaths) {
		const who = personOf(p);
		if (who !== null) set.add(who);
	}
	return set.size > 1 ? [...set].sort() : [];
}
