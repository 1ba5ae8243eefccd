import type { FaultRuleRecord } from '../types.js';
import { nowIso } from '../util.js';
import { all, one, type Queryable } from './pool.js';

const COLUMNS = 'id, method, path, status, rate, latency_ms, times, remaining, matched, tenant_id, seed, created_at';

/**
 * Injected fault rules, as SQLite's `faultRuleRepo`; `token` is the rules' own change counter
 * (schema version 4), read with the others in the request's shared read. Counting a match is one
 * UPDATE of the rule's row: instances sharing the database count and spend it one at a time.
 */
export function pgFaultRules(db: Queryable, changes: () => Promise<ReadonlyMap<string, string>>) {
  const get = (id: number) => one<FaultRuleRecord>(db, `SELECT ${COLUMNS} FROM fault_rules WHERE id = $1`, [id]);
  return {
    add: async (r: Omit<FaultRuleRecord, 'id' | 'matched' | 'remaining' | 'created_at'>): Promise<FaultRuleRecord> =>
      (await one<FaultRuleRecord>(
        db,
        `INSERT INTO fault_rules (method, path, status, rate, latency_ms, times, remaining, tenant_id, seed, created_at) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
        [r.method, r.path, r.status, r.rate, r.latency_ms, r.times, r.tenant_id, r.seed, nowIso()],
      ))!,
    list: () => all<FaultRuleRecord>(db, `SELECT ${COLUMNS} FROM fault_rules ORDER BY id`),
    get,
    remove: async (id: number) => ((await db.query('DELETE FROM fault_rules WHERE id = $1', [id])).rowCount ?? 0) > 0,
    clear: async () => (await db.query('DELETE FROM fault_rules')).rowCount ?? 0,
    count: (id: number, spend: boolean) =>
      one<{ matched: number; remaining: number | null }>(
        db,
        `UPDATE fault_rules SET matched = matched + 1${spend ? ', remaining = remaining - 1' : ''} WHERE id = $1 AND (remaining IS NULL OR remaining > 0) RETURNING matched, remaining`,
        [id],
      ),
    spend: async (id: number) => ((await db.query('UPDATE fault_rules SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0', [id])).rowCount ?? 0) > 0,
    token: async () => (await changes()).get('fault_rules') ?? '',
  };
}
