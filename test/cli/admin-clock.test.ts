import { afterEach, describe, expect, it } from 'vitest';
import { parseClockOptions } from '../../src/cli/commands/admin/clock.js';
import { startManualClock, stopManualClock } from '../../src/store/instance-clock.js';
import { type AdminFake, adminFake } from './admin-helpers.js';

const T0 = Date.parse('2030-01-31T09:00:00.000Z');

describe('confctl admin clock', () => {
  const made: AdminFake[] = [];
  afterEach(() => {
    for (const f of made.splice(0)) f.dispose();
  });

  /** A fresh data directory with its first tenant. */
  async function initialised(): Promise<AdminFake> {
    const f = adminFake();
    made.push(f);
    expect(await f.run(['admin', 'init', '--no-profile'])).toBe(0);
    return f;
  }

  /** A data directory whose instance runs on the manual clock, standing at T0 (what `serve --clock manual` does first). */
  async function manual(): Promise<AdminFake> {
    const f = await initialised();
    f.inspect(({ store }) => void startManualClock(store, T0));
    return f;
  }

  it('parses TIME and DURATION, and refuses anything else with exit 2', () => {
    expect(parseClockOptions('show')).toEqual({ action: 'show' });
    expect(parseClockOptions('set', '2030-01-31T10:00:00+01:00')).toEqual({ action: 'set', at_ms: T0 });
    expect(parseClockOptions('advance', '90')).toEqual({ action: 'advance', by_ms: 90_000 });
    expect(parseClockOptions('advance', '2m')).toEqual({ action: 'advance', by_ms: 120_000 });
    expect(() => parseClockOptions('advance', '-5s')).toThrow(expect.objectContaining({ exitCode: 2, message: "DURATION must be a number with ms, s, m or h (a bare number is seconds), not '-5s'" }));
    expect(() => parseClockOptions('set', 'tomorrow')).toThrow(expect.objectContaining({ exitCode: 2 }));
  });

  it('says clearly, with exit 2, that an instance on the real clock has no clock to show or move', async () => {
    const f = await initialised();
    for (const args of [['show'], ['advance', '10m'], ['set', '2030-01-01T00:00:00Z']]) {
      expect(await f.run(['admin', 'clock', ...args])).toBe(2);
      expect(f.stderr()).toContain("this instance runs on the real clock: start it with 'confctl serve --clock manual' to move its clock");
    }
    expect(f.inspect(({ store }) => store.clock.get())).toBeUndefined();
    // A manual clock that serve turned off again is refused the same way.
    f.inspect(({ store }) => {
      void startManualClock(store, T0);
      void stopManualClock(store);
    });
    expect(await f.run(['admin', 'clock', 'advance', '1s'])).toBe(2);
    expect(f.inspect(({ store }) => store.clock.get())).toEqual({ at_ms: T0, manual: false });
  });

  it('shows, advances and sets the manual clock, printing where it stands and stood', async () => {
    const f = await manual();
    expect(await f.json(['admin', 'clock', 'show'])).toEqual({ clock: '2030-01-31T09:00:00.000Z' });
    expect(await f.json(['admin', 'clock', 'advance', '10m'])).toEqual({ clock: '2030-01-31T09:10:00.000Z', moved_from: '2030-01-31T09:00:00.000Z' });
    expect(await f.json(['admin', 'clock', 'set', '2030-02-01'])).toEqual({ clock: '2030-02-01T00:00:00.000Z', moved_from: '2030-01-31T09:10:00.000Z' });
    expect(f.inspect(({ store }) => store.clock.get())).toEqual({ at_ms: Date.parse('2030-02-01T00:00:00.000Z'), manual: true });
  });

  it('refuses to set the clock backwards with exit 2, and changes nothing', async () => {
    const f = await manual();
    await f.json(['admin', 'clock', 'advance', '1h']);
    expect(await f.run(['admin', 'clock', 'set', '2030-01-31T09:59:59.999Z'])).toBe(2);
    expect(f.stderr()).toContain('the clock never moves backwards: it stands at 2030-01-31T10:00:00.000Z, and 2030-01-31T09:59:59.999Z is earlier');
    expect(f.inspect(({ store }) => store.clock.get())).toEqual({ at_ms: T0 + 3_600_000, manual: true });
  });

  it('dates what other admin commands write with the manual clock', async () => {
    const f = await manual();
    await f.json(['admin', 'clock', 'advance', '1h']);
    expect(await f.run(['admin', 'tenants', 'add', 'acme.test'])).toBe(0);
    const tenant = f.inspect(({ store }) => store.tenants.byDomain('acme.test'));
    expect(tenant?.created_at).toBe('2030-01-31T10:00:00.000Z');
  });
});
