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
	it('reads what the reference reads: other ISO forms, and digits of any script through strptime', () => {
		expect(parseTimestamp('２０２６-06-10T13:00:00Z')?.t).toBe(1781096400);
		expect(parseTimestamp('2026-06-1٠T1٣:00:00Z')?.t).toBe(1781096400);
		expect(parseTimestamp(' 2026-06-10t13:00:00Z\u001c')?.t).toBe(1781096400);
		expect(parseTimestamp('2026-W24-3T13:00:00Z')?.t).toBe(1781096400);
		expect(parseTimestamp('20260610T130000Z')?.t).toBe(1781096400);
		expect(parseTimestamp('2026-06-10')?.t).toBe(Date.UTC(2026, 5, 10) / 1000);
		expect(parseTimestamp('2026-06-10T13:00:00.123456789+02:30:15.5')?.ms).toBe(Date.UTC(2026, 5, 10, 10, 29, 44, 623));
		expect(parseTimestamp('\ufeff2026-06-10T13:00:00Z')).toBeNull(); // U+FEFF is not Python whitespace
	});
	it('rejects numbers, garbage and impossible dates', () => {
		expect(parseTimestamp(1781096400)).toBeNull();
		expect(parseTimestamp('not-a-timestamp')).toBeNull();
		expect(parseTimestamp('2026-13-10T13:00:00.000Z')).toBeNull();
		expect(parseTimestamp('2026-02-30T13:00:00.000Z')).toBeNull(); // the fast path too
		expect(parseTimestamp('2026-02-29T13:00:00Z')).toBeNull();
		expect(parseTimestamp('2024-02-29T13:00:00.000Z')?.t).toBe(Date.UTC(2024, 1, 29, 13) / 1000);
		expect(parseTimestamp(null)).toBeNull();
	});
});
