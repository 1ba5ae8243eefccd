import { fixedClock, useInstanceClock } from '../../../contract/clock.js';
import type { DataStore } from '../../../store/port.js';

/**
 * While an admin command works on an instance whose clock is manual (`serve --clock manual`), the
 * process's instance clock stands where that clock does, so what the command dates (created_at,
 * conference and recording times, webhook deliveries) agrees with the running serve. Answers the
 * function that puts the previous clock back.
 */
export async function followStoredClock(store: { clock: Pick<DataStore['clock'], 'get'> }): Promise<() => void> {
  const state = await store.clock.get();
  return state?.manual ? useInstanceClock(fixedClock(state.at_ms)) : () => {};
}
