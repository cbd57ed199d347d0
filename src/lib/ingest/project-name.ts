// Names for project folders. Claude Code names each folder under ~/.claude/projects after the
// working directory with every character that is not a letter or digit replaced by '-'
// (`/home/me/work/api` → `-home-me-work-api`). That is lossy: `-`, `.`, `_` and `/` all became
// `-`, so the folder name alone cannot say whether `my-app` was one folder or two.
// So: a cwd recorded on the sessions' own lines that encodes to the folder name wins (exact);
// otherwise the folder name is decoded by reading every '-' as '/' (marked inexact). Either way
// a home directory (/home/<user>, /Users/<user>, /root, C:\Users\<user>) is shown as '~'.

export interface ProjectName {
	name: string;
	/** True when a recorded cwd confirmed the name; false when it is the lossy decoding. */
	exact: boolean;
}

export function encodeProjectDir(cwd: string): string {
	return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** `/home/me/x` → `~/x`, `/Users/me` → `~`; other paths unchanged. */
export function tildeHome(path: string): string {
	const m = /^(?:\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+)(?=$|[\\/])/.exec(path);
	return m ? `~${path.slice(m[0].length).replace(/\\/g, '/')}` : path;
}

/** The display name of a project folder (`folder` is its path in the drop), given cwds seen in its sessions. */
export function projectName(folder: string, cwds: readonly (string | null)[] = []): ProjectName {
	const base = folder.split('/').filter(Boolean).at(-1) ?? '';
	if (!base) return { name: '(top of the drop)', exact: false };
	const match = cwds.find((c): c is string => !!c && encodeProjectDir(c) === base);
	if (match) return { name: tildeHome(match), exact: true };
	const drive = /^([A-Za-z])--(.*)$/.exec(base);
	if (drive) return { name: tildeHome(`${drive[1]}:/${drive[2].replace(/-/g, '/')}`), exact: false };
	if (base.startsWith('-')) return { name: tildeHome(`/${base.slice(1).replace(/-/g, '/')}`), exact: false };
	return { name: base, exact: false };
}
