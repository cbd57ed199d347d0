// Small display helpers shared by the chat components: expand-state keys, time and token
// formatting, copy to clipboard.
import { plainClock } from '$lib/view/numbers';

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

// A row's time without Intl (view/numbers.ts says why): 'HH:MM' on the row, the local date and
// time to the second in its title.
export const fullTime = (ms: number | null): string => plainClock(ms, true, true);
export const shortTime = (ms: number | null): string => plainClock(ms);
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
