import { describe, expect, it } from 'vitest';
import { barAt, turnStep } from './navigation.ts';
import type { TimelineBar } from './timeline/layout.ts';

const rows = [0, 0, 0, 1, 1, 2].map((turnIndex) => ({ turnIndex }));

describe('turnStep', () => {
  it('j goes to the first row of the next turn', () => {
    expect(turnStep(rows, 0, 1)).toBe(3);
    expect(turnStep(rows, 4, 1)).toBe(5);
  });
  it('j stays on the last turn', () => {
    expect(turnStep(rows, 5, 1)).toBe(5);
  });
  it('k goes to the start of the current turn, then the previous one', () => {
    expect(turnStep(rows, 4, -1)).toBe(3);
    expect(turnStep(rows, 3, -1)).toBe(0);
    expect(turnStep(rows, 0, -1)).toBe(0);
  });
  it('has no target in an empty chat', () => {
    expect(turnStep([], 0, 1)).toBe(-1);
  });
});

describe('barAt', () => {
  const bar = (laneKey: string, t0: number, t1: number, segmentId: string) => ({ laneKey, t0, t1, segmentId }) as TimelineBar;
  const bars = [bar('a', 0, 10, 's1'), bar('a', 20, 30, 's2'), bar('b', 5, 50, 'x')];
  it('finds the bar of the lane that started last before the moment', () => {
    expect(barAt(bars, 'a', 25)?.segmentId).toBe('s2');
    expect(barAt(bars, 'a', 15)?.segmentId).toBe('s1');
    expect(barAt(bars, 'b', 6)?.segmentId).toBe('x');
  });
  it('finds nothing before the first bar or without a time', () => {
    expect(barAt(bars, 'a', -1)).toBeNull();
    expect(barAt(bars, 'a', null)).toBeNull();
  });
});
