// Small display helpers shared by the chat components: expand-state keys, time and token
// formatting, copy to clipboard.

/** Reads the reader's choice for a key (false when untouched) — the ChatList `isExpanded` prop. */
export type IsExpanded = (key: string) => boolean;
export type OnToggle = (key: string) => void;

/**
 * Rows open by default (questions, approvals, failed groups) store the reader's "collapse" under
 * `<key>~closed`, so `isExpanded` only ever answers "did the reader flip this?" and never needs
 * to know a row's default.
 */
export function toggleKey(key: string, defaultOpen: boolean): string {
	return defaultOpen ? `${key}~closed` : key;
}
export function isOpen(isExpanded: IsExpanded, key: string, defaultOpen: boolean): boolean {
	return defaultOpen ? !isExpanded(`${key}~closed`) : isExpanded(key);
}

// One formatter each, made once: toLocaleString with options builds a new one per call, which
// costs more than the rest of a row's update (the same output, locale and options).
let fullFmt: Intl.DateTimeFormat | null = null;
let shortFmt: Intl.DateTimeFormat | null = null;
export function fullTime(ms: number | null): string {
	if (ms === null || !Number.isFinite(ms)) return '';
	const d = new Date(ms);
	fullFmt ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
	return Number.isNaN(d.getTime()) ? '' : fullFmt.format(d);
}
/** Makes both formatters ahead, one per idle moment: the first Intl date format of a page costs
 *  tens of ms (locale data), which would otherwise land in the task drawing the first chat rows. */
export function warmTimeFormats(): void {
	const idle = (f: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: 5000 }) : setTimeout(f, 200));
	idle(() => void fullTime(0));
	idle(() => void shortTime(0));
}
export function shortTime(ms: number | null): string {
	if (ms === null || !Number.isFinite(ms)) return '';
	const d = new Date(ms);
	shortFmt ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
	return Number.isNaN(d.getTime()) ? '' : shortFmt.format(d);
}
export { formatTokens as tokens } from '$lib/view/usage/format';
export function copyText(text: string): void {
	void navigator.clipboard?.writeText(text).catch(() => undefined);
}
export function durationLabel(ms: number | null): string {
	if (ms === null || ms <= 0) return '';
	const s = Math.max(1, Math.round(ms / 1000));
	if (s < 60) return `${s}s`;
	const m = Math.floor(s / 60);
	return m < 60 ? `${m}m ${String(s % 60).padStart(2, '0')}s` : `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
