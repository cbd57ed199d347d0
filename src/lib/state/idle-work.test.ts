import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdIdleWork, hurryIdleWork, idleWorkHeld, idleWorkHurried, idleWorkStarted } from './idle-work';

afterEach(() => vi.useRealTimers());

describe('holdIdleWork', () => {
  it('holds until every hold is released, each release counting once', () => {
    expect(idleWorkHeld()).toBe(false);
    const a = holdIdleWork();
    const b = holdIdleWork();
    a();
    a();
    expect(idleWorkHeld()).toBe(true);
    b();
    expect(idleWorkHeld()).toBe(false);
  });
});

describe('hurryIdleWork', () => {
  it('resolves at once when no idle work is undone', async () => {
    await hurryIdleWork(10_000);
    expect(idleWorkHurried()).toBe(false);
  });

  it('lifts a hold and resolves when every piece of idle work is done', async () => {
    const release = holdIdleWork();
    const a = idleWorkStarted();
    const b = idleWorkStarted();
    let settled = false;
    const hurried = hurryIdleWork(10_000).then(() => (settled = true));
    expect(idleWorkHurried()).toBe(true);
    expect(idleWorkHeld()).toBe(false);
    a();
    await Promise.resolve();
    expect(settled).toBe(false);
    b();
    await hurried;
    expect(idleWorkHurried()).toBe(false);
    expect(idleWorkHeld()).toBe(true);
    release();
  });

  it('gives up after maxMs, and a later finish wakes nothing', async () => {
    vi.useFakeTimers();
    const finish = idleWorkStarted();
    let settled = false;
    void hurryIdleWork(300).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect(idleWorkHurried()).toBe(false);
    finish();
    expect(idleWorkHurried()).toBe(false);
  });
});
