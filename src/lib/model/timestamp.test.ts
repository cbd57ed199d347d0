import { describe, expect, it } from 'vitest';
import { parseTimestamp } from './timestamp.ts';

describe('parseTimestamp', () => {
	it('truncates to whole seconds and keeps milliseconds', () => {
		expect(parseTimestamp('2026-06-10T13:00:00.999Z')).toEqual({ ms: Date.UTC(2026, 5, 10, 13, 0, 0, 999), t: 1781096400 });
	});
	it('reads offsets, no fraction, long fractions and no zone (UTC)', () => {
		expect(parseTimestamp('2026-06-10T15:00:00+02:00')?.t).toBe(1781096400);
		expect(parseTimestamp('2026-06-10T13:00:00Z')?.t).toBe(1781096400);
		expect(parseTimestamp('2026-06-10T13:00:00.123456Z')?.ms).toBe(Date.UTC(2026, 5, 10, 13, 0, 0, 123));
		expect(parseTimestamp('2026-06-10T13:00:00')?.t).toBe(1781096400);
	});
	it('accepts a lower-case z but flags it', () => {
		const p = parseTimestamp('2026-06-10T13:00:00.000z');
		expect(p?.t).toBe(1781096400);
		expect(p?.warn).toMatch(/lower-case/);
	});
	it('rejects numbers, garbage and impossible dates', () => {
		expect(parseTimestamp(1781096400)).toBeNull();
		expect(parseTimestamp('not-a-timestamp')).toBeNull();
		expect(parseTimestamp('2026-13-10T13:00:00.000Z')).toBeNull();
		expect(parseTimestamp(null)).toBeNull();
	});
});
