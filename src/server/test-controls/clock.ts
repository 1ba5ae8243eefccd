/**
 * `GET /_confctl/clock` and `POST /_confctl/clock` under `serve --test-controls`: the manual clock
 * of `serve --clock manual`, as `confctl admin clock show|set|advance` (src/store/instance-clock.ts).
 * The body of a move is `{"set": "TIME"}` or `{"advance": "DURATION"}`; a move backwards, a
 * malformed value, or any move on an instance that runs on the real clock is a 400 validation
 * error on `set`/`advance` (or `clock`), and nothing is written.
 */
import { ClockRefused, parseClockMove } from '../../store/instance-clock.js';
import { ValidationError } from '../errors.js';
import type { ControlRequest, ControlRoute } from './routes.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** A refusal as the 400 validation body, on `field`. */
function refused(err: unknown, field: string): unknown {
  return err instanceof ClockRefused ? new ValidationError({ [field]: [err.message] }) : err;
}

/** The instance's clock control; a server started without one runs on the real clock. */
function control(options: ControlRequest['options']) {
  if (options.clockControl) return options.clockControl;
  throw new ValidationError({ clock: ["this instance runs on the real clock: start it with 'confctl serve --clock manual' to move its clock"] });
}

/** `{"set": "TIME"}` or `{"advance": "DURATION"}`, exactly one, as a string. */
function moveOf(body: unknown): { action: 'set' | 'advance'; value: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  const given = (['set', 'advance'] as const).filter((k) => b[k] !== undefined);
  if (typeof body !== 'object' || Array.isArray(body) || given.length !== 1) throw new ValidationError({ body: ['The body must have exactly one of set (an ISO 8601 date-time) and advance (a duration).'] });
  const [action] = given;
  if (typeof b[action] !== 'string') throw new ValidationError({ [action]: [`The ${action} field must be a string.`] });
  return { action, value: b[action] };
}

export const CLOCK_ROUTES: readonly ControlRoute[] = [
  {
    method: 'GET',
    path: '/clock',
    summary: 'where the manual clock stands (serve --clock manual)',
    handle: async ({ options }) => {
      try {
        const state = await control(options).show();
        return { clock: iso(state.at_ms) };
      } catch (err) {
        throw refused(err, 'clock');
      }
    },
  },
  {
    method: 'POST',
    path: '/clock',
    summary: 'moves the manual clock: {"set": TIME} or {"advance": DURATION}, never backwards',
    handle: async ({ body, options }) => {
      const { action, value } = moveOf(body);
      try {
        const { from, to } = await control(options).move(parseClockMove(action, value));
        return { clock: iso(to), moved_from: iso(from) };
      } catch (err) {
        throw refused(err, action);
      }
    },
  },
];
