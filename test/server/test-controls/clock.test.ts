import { afterEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/server/index.js';
import type { ResolvedOptions } from '../../../src/server/options.js';
import { CLOCK_ROUTES } from '../../../src/server/test-controls/clock.js';
import { clockControl, startManualClock } from '../../../src/store/instance-clock.js';
import { openStore, type SqliteStore } from '../../../src/store/sqlite/index.js';

const T0 = Date.parse('2030-01-31T09:00:00.000Z');
const [show, move] = CLOCK_ROUTES;

let store: SqliteStore | undefined;
afterEach(() => store?.close());

/** A server's options with the manual clock of a fresh store standing at T0; `moves` counts the server's refreshes. */
function manual() {
  store = openStore(':memory:');
  void startManualClock(store, T0);
  const moves: number[] = [];
  const options = { clockControl: clockControl(store, () => void moves.push(1)) } as unknown as ResolvedOptions;
  return { options, moves, store };
}

/** The field errors a handler refused with (a 400), or undefined when it answered. */
async function refusal(answer: () => unknown): Promise<Record<string, string[]> | undefined> {
  try {
    await answer();
    return undefined;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors;
  }
}

describe('the clock control routes', () => {
  it('are GET and POST /clock', () => {
    expect(CLOCK_ROUTES.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /clock', 'POST /clock']);
  });

  it('show and move the manual clock, refreshing the server after a move', async () => {
    const { options, moves, store } = manual();
    expect(await show.handle({ params: {}, body: {}, options })).toEqual({ clock: '2030-01-31T09:00:00.000Z' });
    expect(await move.handle({ params: {}, body: { advance: '90' }, options })).toEqual({ clock: '2030-01-31T09:01:30.000Z', moved_from: '2030-01-31T09:00:00.000Z' });
    expect(await move.handle({ params: {}, body: { set: '2030-02-01T00:00:00Z' }, options })).toEqual({ clock: '2030-02-01T00:00:00.000Z', moved_from: '2030-01-31T09:01:30.000Z' });
    expect(moves).toHaveLength(2);
    expect(store.clock.get()).toEqual({ at_ms: Date.parse('2030-02-01T00:00:00.000Z'), manual: true });
  });

  it('refuse bad bodies, backwards moves and a server on the real clock with 400, writing nothing', async () => {
    const { options, moves, store } = manual();
    const errors = (body: unknown, o = options) => refusal(() => move.handle({ params: {}, body, options: o }));
    const exactlyOne = ['The body must have exactly one of set (an ISO 8601 date-time) and advance (a duration).'];
    expect(await errors({})).toEqual({ body: exactlyOne });
    expect(await errors({ set: '2031-01-01', advance: '1s' })).toEqual({ body: exactlyOne });
    expect(await errors([])).toEqual({ body: exactlyOne });
    expect(await errors({ advance: 5 })).toEqual({ advance: ['The advance field must be a string.'] });
    expect(await errors({ advance: '5 minutes' })).toEqual({ advance: ["DURATION must be a number with ms, s, m or h (a bare number is seconds), not '5 minutes'"] });
    expect(await errors({ set: 'yesterday' })).toEqual({ set: ["TIME must be an ISO 8601 date-time such as 2030-01-31T09:00:00Z, not 'yesterday'"] });
    expect(await errors({ set: '2030-01-31T08:59:59Z' })).toEqual({ set: ['the clock never moves backwards: it stands at 2030-01-31T09:00:00.000Z, and 2030-01-31T08:59:59.000Z is earlier'] });
    const real = { clockControl: null } as unknown as ResolvedOptions;
    const onReal = ["this instance runs on the real clock: start it with 'confctl serve --clock manual' to move its clock"];
    expect(await errors({ advance: '1s' }, real)).toEqual({ clock: onReal });
    expect(await refusal(() => show.handle({ params: {}, body: {}, options: real }))).toEqual({ clock: onReal });
    expect(moves).toHaveLength(0);
    expect(store.clock.get()).toEqual({ at_ms: T0, manual: true });
  });
});
