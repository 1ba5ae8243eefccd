import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock, instanceClock, realMs, realNow, systemClock, useInstanceClock } from '../../src/contract/clock.js';
import { nowIso } from '../../src/store/util.js';

describe('the one clock', () => {
  let restore = () => {};
  afterEach(() => restore());

  it('is the system clock unless another is installed, and the store dates rows with it', () => {
    expect(instanceClock()).toBe(systemClock);
    const before = realMs();
    const stamped = Date.parse(nowIso());
    expect(stamped).toBeGreaterThanOrEqual(before);
    expect(stamped).toBeLessThanOrEqual(realNow().getTime());
  });

  it('installs a clock for the process and puts the previous one back', () => {
    restore = useInstanceClock(fixedClock(Date.parse('2030-01-31T09:00:00.000Z')));
    expect(instanceClock().now().toISOString()).toBe('2030-01-31T09:00:00.000Z');
    expect(nowIso()).toBe('2030-01-31T09:00:00.000Z');
    const inner = useInstanceClock(fixedClock(new Date('2031-01-01T00:00:00.000Z')));
    expect(nowIso()).toBe('2031-01-01T00:00:00.000Z');
    inner();
    expect(nowIso()).toBe('2030-01-31T09:00:00.000Z');
    restore();
    expect(instanceClock()).toBe(systemClock);
  });

  it('keeps real time for what must, whatever the instance clock says', () => {
    restore = useInstanceClock(fixedClock(0));
    expect(Math.abs(realMs() - realNow().getTime())).toBeLessThan(1000);
    expect(realMs()).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'));
  });
});
