import { CLOCK_ROUTES } from './clock.js';
import { FAULT_ROUTES } from './faults.js';
import type { ControlRoute } from './routes.js';
import { SNAPSHOT_ROUTES } from './snapshots.js';

export type { ControlRequest, ControlRoute, TestControls } from './routes.js';

/**
 * Every route of `serve --test-controls` besides the built-in listing (`GET /_confctl`). A
 * feature adds its routes here with one line: `...CLOCK_ROUTES,` (see `routes.ts`).
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...SNAPSHOT_ROUTES,
  ...FAULT_ROUTES,
  ...CLOCK_ROUTES,
];
