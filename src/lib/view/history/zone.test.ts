import { describe, expect, it } from 'vitest';
import { isoWeek, isTimeZone, zone } from './zone.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86400000;

describe('zone', () => {
  it('reads the calendar day in the zone, around midnight and across offsets that are not whole hours', () => {
    const t = Date.parse('2026-03-02T19:00:00Z');
    expect(zone('UTC').day(t)).toBe('2026-03-02');
    expect(zone('Asia/Kolkata').day(t)).toBe('2026-03-03'); // 00:30 IST
    expect(zone('Asia/Kathmandu').day(Date.parse('2026-03-02T18:14:00Z'))).toBe('2026-03-02'); // 23:59 NPT
    expect(zone('Asia/Kathmandu').day(Date.parse('2026-03-02T18:15:00Z'))).toBe('2026-03-03');
    expect(zone('America/Los_Angeles').day(t)).toBe('2026-03-02');
    expect(zone('America/Los_Angeles').day(Date.parse('2026-03-03T07:59:00Z'))).toBe('2026-03-02');
  });

  it('follows daylight saving time', () => {
    // New York: UTC-5 until 2026-03-08 07:00Z, then UTC-4.
    const ny = zone('America/New_York');
    expect(ny.day(Date.parse('2026-03-08T04:30:00Z'))).toBe('2026-03-07'); // 23:30 EST
    expect(ny.day(Date.parse('2026-03-09T03:30:00Z'))).toBe('2026-03-08'); // 23:30 EDT
    expect(ny.day(Date.parse('2026-03-09T04:30:00Z'))).toBe('2026-03-09'); // 00:30 EDT
  });

  it('writes ISO weeks and months', () => {
    expect(isoWeek(day('2026-01-01'))).toBe('2026-W01');
    expect(isoWeek(day('2021-01-03'))).toBe('2020-W53');
    expect(isoWeek(day('2024-12-30'))).toBe('2025-W01');
    expect(isoWeek(day('2026-12-31'))).toBe('2026-W53');
    expect(zone('Asia/Tokyo').week(Date.parse('2026-01-04T15:30:00Z'))).toBe('2026-W02'); // Monday 00:30 JST
    expect(zone('Asia/Tokyo').month(Date.parse('2026-01-31T15:30:00Z'))).toBe('2026-02');
  });

  it('knows which names are time zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
