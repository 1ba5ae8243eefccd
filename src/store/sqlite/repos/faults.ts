import type { Db, NarrowSignal } from '../db.js';
import type { FaultRuleRecord, FaultRuleRepo } from '../../types.js';
import { nowIso } from '../../util.js';

const COLUMNS = 'id, method, path, status, rate, latency_ms, times, remaining, matched, tenant_id, seed, created_at';

/** Injected fault rules (migration 11). Adding and removing moves `signal`; counting does not. */
export function faultRuleRepo(db: Db, signal: NarrowSignal): FaultRuleRepo {
  const insert = db.prepare(
    `INSERT INTO fault_rules (method, path, status, rate, latency_ms, times, remaining, tenant_id, seed, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const get = db.prepare(`SELECT ${COLUMNS} FROM fault_rules WHERE id = ?`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM fault_rules ORDER BY id`);
  const remove = db.prepare('DELETE FROM fault_rules WHERE id = ?');
  const clear = db.prepare('DELETE FROM fault_rules');
  const count = db.prepare('UPDATE fault_rules SET matched = matched + 1 WHERE id = ? AND (remaining IS NULL OR remaining > 0) RETURNING matched, remaining');
  const countAndSpend = db.prepare('UPDATE fault_rules SET matched = matched + 1, remaining = remaining - 1 WHERE id = ? AND (remaining IS NULL OR remaining > 0) RETURNING matched, remaining');
  const spend = db.prepare('UPDATE fault_rules SET remaining = remaining - 1 WHERE id = ? AND remaining > 0');
  const changed = <T>(result: T): T => {
    signal.wrote();
    return result;
  };
  return {
    add: (r) => changed(insert.get(r.method, r.path, r.status, r.rate, r.latency_ms, r.times, r.times, r.tenant_id, r.seed, nowIso()) as FaultRuleRecord),
    list: () => list.all() as FaultRuleRecord[],
    get: (id) => get.get(id) as FaultRuleRecord | undefined,
    remove: (id) => changed(remove.run(id).changes > 0),
    clear: () => changed(clear.run().changes),
    count: (id, withSpend) => (withSpend ? countAndSpend : count).get(id) as { matched: number; remaining: number | null } | undefined,
    spend: (id) => spend.run(id).changes > 0,
    token: signal.token,
  };
}
