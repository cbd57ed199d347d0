// How usage figures read: dollars, token counts, and a cost that admits what it could not price
// ("≥ $1.20 (3 messages unpriced)"). Pure strings, shared by the panel, the session list and
// the timeline tooltip.
import type { Tally } from './types.ts';

export function formatUsd(usd: number): string {
	if (usd === 0) return '$0';
	if (usd < 0.01) return `$${usd.toFixed(4)}`;
	if (usd < 100) return `$${usd.toFixed(2)}`;
	return `$${Math.round(usd).toLocaleString('en-US')}`;
}

/** "950", "12.3k", "480k", "1.2M" (the chat's token line uses it too). */
export function formatTokens(n: number): string {
	if (n < 1000) return String(n);
	if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
	return `${(n / 1_000_000).toFixed(1)}M`;
}

/** "$1.20", or "≥ $1.20 (3 messages unpriced)", or "unpriced" when nothing had a price. */
export function costLabel(t: Pick<Tally, 'costUsd' | 'unpricedMessages' | 'messages'>): string {
	if (!t.unpricedMessages) return formatUsd(t.costUsd);
	if (t.unpricedMessages === t.messages) return `unpriced (${t.messages} ${t.messages === 1 ? 'message' : 'messages'})`;
	return `≥ ${formatUsd(t.costUsd)} (${t.unpricedMessages} ${t.unpricedMessages === 1 ? 'message' : 'messages'} unpriced)`;
}
