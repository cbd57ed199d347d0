import { describe, expect, it } from 'vitest';
import { groupDigits, plainClock, plainDate } from './numbers.ts';

describe('groupDigits', () => {
  it('groups thousands as en-US does', () => {
    for (const n of [0, 7, 999, 1000, 12345, 1234567, 3473, -1234, 1000000]) expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
  });
  it('keeps a fraction ungrouped', () => {
    expect(groupDigits(1234.5)).toBe('1,234.5');
  });
});

describe('plainDate', () => {
  it('writes local date and time, or a dash', () => {
    const ms = new Date(2026, 0, 5, 9, 7).getTime();
    expect(plainDate(ms)).toBe('2026-01-05 09:07');
    expect(plainDate(ms, false)).toBe('2026-01-05');
    expect(plainDate(null)).toBe('—');
    expect(plainDate(NaN)).toBe('—');
  });
});

describe('plainClock', () => {
  it('is the local 24-hour time, with seconds on request', () => {
    const ms = new Date(2026, 0, 5, 21, 7, 3).getTime();
    expect(plainClock(ms)).toBe('21:07');
    expect(plainClock(ms, true)).toBe('21:07:03');
    expect(plainClock(new Date(2026, 0, 5, 0, 0, 9).getTime(), true)).toBe('00:00:09');
    expect(plainClock(ms, false, true)).toBe('2026-01-05 21:07:03');
    expect(plainClock(0, false, true)).toBe(plainDate(1, false) + ' ' + plainClock(0, true));
  });
  it('is empty for a missing or invalid time', () => {
    expect(plainClock(null)).toBe('');
    expect(plainClock(Number.NaN)).toBe('');
    expect(plainClock(8.64e15 + 1)).toBe('');
  });
});
