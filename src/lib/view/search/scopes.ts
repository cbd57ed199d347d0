// Search scopes named for what a person means: this session, this project, everything (the stored
// history plus whatever is loaded and not indexed yet). The names of the five scopes before them
// stay accepted, in `#qs=` links and window.__loupe.search: `history` is `everything`, `loaded`
// and `cached` open as `everything` in the field (the hook still runs their own passes).
export type SearchScopeName = 'session' | 'project' | 'everything';
export type ScopeAlias = 'loaded' | 'cached' | 'history';

export const SEARCH_SCOPES: readonly { value: SearchScopeName; label: string }[] = [
	{ value: 'session', label: 'This session' },
	{ value: 'project', label: 'This project' },
	{ value: 'everything', label: 'Everything' }
];

const ALIASES: Record<ScopeAlias, SearchScopeName> = { loaded: 'everything', cached: 'everything', history: 'everything' };

/** The scope a name means (a link's `qs`, a hook's option): an old name its new one, junk the session. */
export function scopeOf(name: string | null | undefined): SearchScopeName {
	if (name === 'session' || name === 'project' || name === 'everything') return name;
	return (name && Object.hasOwn(ALIASES, name) ? ALIASES[name as ScopeAlias] : null) ?? 'session';
}
