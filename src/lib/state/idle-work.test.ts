import { describe, expect, it } from 'vitest';
import { holdIdleWork, idleWorkHeld } from './idle-work';

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
