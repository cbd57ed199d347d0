import { describe, expect, it } from 'vitest';
import { zeroTokens, type Tokens } from './messages.ts';
import { callCost, contextWindowOf, findModel, PRICES, type PriceTable } from './prices.ts';

const tok = (t: Partial<Tokens>): Tokens => ({ ...zeroTokens(), ...t });
const JAN_2026 = Date.parse('2026-01-10T00:00:00Z');

const TABLE: PriceTable = {
	source: 'test',
	sourceDate: '2026-01-01',
	models: [
		{ id: 'tiered', name: 'Tiered', match: { starts_with: 'tiered' }, contextWindow: 1_000_000, prices: { input_mtok: { base: 3, tiers: [{ start: 200_000, price: 6 }] }, output_mtok: { base: 15, tiers: [{ start: 200_000, price: 22.5 }] } } },
		{
			id: 'dated',
			name: 'Dated',
			match: { or: [{ equals: 'dated' }, { regex: '^dated-\\d{8}$' }] },
			contextWindow: 200_000,
			prices: [{ prices: { input_mtok: 10, output_mtok: 10 } }, { constraint: { type: 'start_date', start_date: '2026-03-01' }, prices: { input_mtok: 1, output_mtok: 1 } }]
		},
		{ id: 'bare', name: 'Bare', match: { equals: 'bare' }, contextWindow: null, prices: { input_mtok: 2, output_mtok: 4 } }
	]
};

describe('callCost', () => {
	it('switches the whole call to the long-context tier once its total input passes the start', () => {
		expect(callCost('tiered', JAN_2026, tok({ input: 100_000, output: 1000 }), TABLE)).toBeCloseTo(0.3 + 0.015, 12);
		// 150k uncached + 60k cache read = 210k input in context: every token at the tier price.
		expect(callCost('tiered', JAN_2026, tok({ input: 150_000, cacheRead: 60_000, output: 1000 }), TABLE)).toBeCloseTo((210_000 * 6 + 1000 * 22.5) / 1e6, 12);
	});
	it('uses the price list in force at the call’s date', () => {
		expect(callCost('dated', Date.parse('2026-02-28T23:59:59Z'), tok({ input: 1e6 }), TABLE)).toBeCloseTo(10, 12);
		expect(callCost('dated-20260301', Date.parse('2026-03-01T00:00:00Z'), tok({ input: 1e6 }), TABLE)).toBeCloseTo(1, 12);
	});
	it('prices cache kinds the model lists no price for at their parent’s rate', () => {
		expect(callCost('bare', JAN_2026, tok({ cacheRead: 1e6, cacheWrite: 2e6, cacheWrite5m: 1e6, cacheWrite1h: 1e6 }), TABLE)).toBeCloseTo(6, 12);
	});
	it('has no price for a model the table does not know', () => {
		expect(callCost('acme-coder-1', JAN_2026, tok({ input: 5 }), TABLE)).toBeNull();
		expect(callCost('<synthetic>', JAN_2026, tok({ input: 5 }))).toBeNull();
		expect(findModel('dated-2026')).toBeNull();
	});
	it('the bundled table knows current Claude models, their 1-hour write price and window', () => {
		expect(findModel('claude-sonnet-4-5-20250929')?.name).toMatch(/Sonnet 4.5/);
		expect(callCost('claude-sonnet-4-5-20250929', JAN_2026, tok({ cacheWrite: 100_000, cacheWrite5m: 50_000, cacheWrite1h: 50_000 }))).toBeCloseTo((50_000 * 3.75 + 50_000 * 6) / 1e6, 12);
		expect(contextWindowOf('claude-haiku-4-5-20251001')).toBe(200_000);
		expect(PRICES.sourceDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
	});
});
