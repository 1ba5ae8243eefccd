/** `serve --clock real|manual`: which clock the instance runs on (src/contract/clock.ts, src/store/instance-clock.ts). */
import { realMs, useInstanceClock } from '../../../contract/clock.js';
import { startManualClock, stopManualClock, storedClock } from '../../../store/instance-clock.js';
import type { DataStore } from '../../../store/port.js';

export type ClockMode = 'real' | 'manual';

/**
 * Puts the instance on the clock `mode` names and makes it this process's instance clock:
 * `manual` starts the stored manual clock (at the later of the real time and the time it last
 * showed) and follows it; `real` turns a manual clock off. Answers what to tell the operator.
 */
export async function installClock(store: DataStore, mode: ClockMode): Promise<string | undefined> {
  if (mode === 'manual') {
    const state = await startManualClock(store, realMs());
    useInstanceClock(storedClock(store, state));
    return `Clock: manual, standing at ${new Date(state.at_ms).toISOString()}; move it with 'confctl admin clock set|advance'`;
  }
  const left = await stopManualClock(store);
  return left && `Clock: real (the manual clock, which stood at ${new Date(left.at_ms).toISOString()}, is off)`;
}
