import type { ClockState } from '../types.js';
import { one, type Queryable } from './pool.js';
import { readChangeCounters } from './shared.js';

/**
 * The manual clock's row (`instance_clock`), shared by every instance on the database. Its token
 * is the table's change counter, read with the other counters (one read per turn, see
 * `TurnQueue`); `counters` defaults to reading them on `db`.
 */
export function pgClock(db: Queryable, counters: () => Promise<ReadonlyMap<string, string>> = () => readChangeCounters(db)) {
  return {
    get: async (forUpdate?: boolean): Promise<ClockState | undefined> => {
      const row = await one<{ at_ms: string; manual: number }>(db, `SELECT at_ms::text AS at_ms, manual FROM instance_clock WHERE id = 1${forUpdate ? ' FOR UPDATE' : ''}`);
      return row && { at_ms: Number(row.at_ms), manual: row.manual === 1 };
    },
    put: async (state: ClockState): Promise<void> => {
      await db.query('INSERT INTO instance_clock (id, at_ms, manual) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms, manual = excluded.manual', [state.at_ms, state.manual ? 1 : 0]);
    },
    token: async (): Promise<string> => (await counters()).get('instance_clock') ?? '',
  };
}
