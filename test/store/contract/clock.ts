import { describe, expect, it } from 'vitest';
import { advanceClock, ClockRefused, setClock, showClock, startManualClock, stopManualClock, storedClock } from '../../../src/store/instance-clock.js';
import type { DataStore } from '../../../src/store/port.js';
import { eachStore, type StoreFactory } from './fixtures.js';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/**
 * The manual clock (src/store/instance-clock.ts) on every store: it starts at the later of the
 * real time and where it last stood, never moves backwards, refuses moves when the instance is
 * on the real clock, and a `storedClock` follows a move made by another process or instance.
 */
export function clockContract(factory: StoreFactory) {
  describe(`${factory.name}: the manual clock`, () => {
    let store: DataStore;
    eachStore(factory, (s) => {
      store = s;
    });

    it('is absent at first: showing or moving it is refused, and nothing is written', async () => {
      expect(await store.clock.get()).toBeUndefined();
      await expect(async () => showClock(store)).rejects.toThrow(ClockRefused);
      await expect(async () => advanceClock(store, 1000)).rejects.toThrow(/runs on the real clock/);
      expect(await store.clock.get()).toBeUndefined();
    });

    it('starts at the real time, and later never before where it last stood', async () => {
      expect(await startManualClock(store, T0)).toEqual({ at_ms: T0, manual: true });
      await advanceClock(store, 3_600_000);
      expect(await stopManualClock(store)).toEqual({ at_ms: T0 + 3_600_000, manual: true });
      expect(await store.clock.get()).toEqual({ at_ms: T0 + 3_600_000, manual: false });
      await expect(async () => showClock(store)).rejects.toThrow(ClockRefused);
      // Restarted with a real time before it: it stays where it stood.
      expect(await startManualClock(store, T0 + 60_000)).toEqual({ at_ms: T0 + 3_600_000, manual: true });
      expect(await stopManualClock(store)).toBeDefined();
      expect(await stopManualClock(store)).toBeUndefined();
      expect(await startManualClock(store, T0 + 7_200_000)).toEqual({ at_ms: T0 + 7_200_000, manual: true });
    });

    it('moves forward by set and advance, and refuses to go backwards without writing', async () => {
      await startManualClock(store, T0);
      expect(await setClock(store, T0 + 5000)).toEqual({ from: T0, to: T0 + 5000 });
      expect(await advanceClock(store, 600_000)).toEqual({ from: T0 + 5000, to: T0 + 605_000 });
      await expect(async () => setClock(store, T0 + 604_999)).rejects.toThrow('the clock never moves backwards: it stands at 2030-01-01T00:10:05.000Z, and 2030-01-01T00:10:04.999Z is earlier');
      expect((await showClock(store)).at_ms).toBe(T0 + 605_000);
      expect(await setClock(store, T0 + 605_000)).toEqual({ from: T0 + 605_000, to: T0 + 605_000 });
    });

    it('applies moves made at once one after the other', async () => {
      await startManualClock(store, T0);
      await Promise.all([advanceClock(store, 1000), advanceClock(store, 2000), advanceClock(store, 4000)]);
      expect((await showClock(store)).at_ms).toBe(T0 + 7000);
    });

    it('is followed by a running clock: a move by another process or instance is read on refresh', async () => {
      if (!factory.attach) return;
      const start = await startManualClock(store, T0);
      const clock = storedClock(store, start);
      await clock.refresh();
      expect(clock.now().getTime()).toBe(T0);
      const other = await factory.attach(store);
      try {
        await advanceClock(other, 30_000);
      } finally {
        await other.close();
      }
      // SQLite reads `PRAGMA data_version` once per turn of the event loop.
      await new Promise((r) => setImmediate(r));
      await clock.refresh();
      expect(clock.now().getTime()).toBe(T0 + 30_000);
      await advanceClock(store, 1000);
      await clock.refresh();
      expect(clock.now().getTime()).toBe(T0 + 31_000);
    });
  });
}
