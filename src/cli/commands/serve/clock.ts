/** `serve --clock real|manual`: which clock the instance runs on (src/contract/clock.ts, src/store/instance-clock.ts). */
import { realMs, useInstanceClock } from '../../../contract/clock.js';
import { type ClockControl, clockControl, startManualClock, stopManualClock, storedClock } from '../../../store/instance-clock.js';
import type { DataStore } from '../../../store/port.js';

export type ClockMode = 'real' | 'manual';

/** The clock serve runs on: what to tell the operator, and in manual mode the control of `/_confctl/clock`. */
export interface InstalledClock {
  line?: string;
  control: ClockControl | null;
  /** Puts back the instance clock the process had before (serve calls it once stopped). */
  restore(): void;
}

/**
 * Puts the instance on the clock `mode` names and makes it this process's instance clock:
 * `manual` starts the stored manual clock (at the later of the real time and the time it last
 * showed) and follows it; `real` turns a manual clock off. `moved` runs after a move made through
 * the control (the webhook sender looks at once).
 */
export async function installClock(store: DataStore, mode: ClockMode, moved: () => void): Promise<InstalledClock> {
  if (mode === 'manual') {
    const state = await startManualClock(store, realMs());
    const clock = storedClock(store, state);
    const restore = useInstanceClock(clock);
    const control = clockControl(store, async () => {
      await clock.refresh();
      moved();
    });
    return { line: `Clock: manual, standing at ${new Date(state.at_ms).toISOString()}; move it with 'confctl admin clock set|advance'`, control, restore };
  }
  const left = await stopManualClock(store);
  return { line: left && `Clock: real (the manual clock, which stood at ${new Date(left.at_ms).toISOString()}, is off)`, control: null, restore: () => {} };
}
