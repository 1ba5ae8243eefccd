import type { Db, NarrowSignal } from '../db.js';
import type { ClockRepo, ClockState } from '../../types.js';

/**
 * The manual clock's row. Its token (`signal`, one narrowed from the tenancy signal so that they
 * share one read of `PRAGMA data_version` per turn) moves with another process's commits (`admin
 * clock` beside `serve`; see `narrowChangeSignal`) and with this store's own `put`.
 */
export function clockRepo(db: Db, signal: NarrowSignal): ClockRepo {
  const get = db.prepare('SELECT at_ms, manual FROM instance_clock WHERE id = 1');
  const put = db.prepare('INSERT INTO instance_clock (id, at_ms, manual) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms, manual = excluded.manual');
  return {
    get() {
      const row = get.get() as { at_ms: number; manual: number } | undefined;
      return row && { at_ms: row.at_ms, manual: row.manual === 1 };
    },
    put(state: ClockState) {
      put.run(state.at_ms, state.manual ? 1 : 0);
      signal.wrote();
    },
    token: signal.token,
  };
}
