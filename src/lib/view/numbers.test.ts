import { describe, expect, it } from 'vitest';
import { groupDigits, plainDate } from './numbers.ts';

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
