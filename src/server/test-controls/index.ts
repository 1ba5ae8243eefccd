import type { ControlRoute } from './routes.js';

export type { ControlRequest, ControlRoute, TestControls } from './routes.js';

/**
 * Every route of `serve --test-controls` besides the built-in listing (`GET /_confctl`). A
 * feature adds its routes here with one line: `...CLOCK_ROUTES,` (see `routes.ts`).
 */
export const CONTROL_ROUTES: readonly ControlRoute[] = [];
