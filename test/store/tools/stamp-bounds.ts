// Times a date range's total on a large SQLite instance, uncached (each statement once per instant,
// in one process, the variants interleaved): the store's count through the stamp's count index as
// before migration 19 (every match), and the count from the counters' stamp bounds
// (store/stamp-bounds.ts), with and without the first match's id (`span`). Also checks they agree.
// Usage: npx tsx test/store/tools/stamp-bounds.ts DB_FILE [ROUNDS]   (a copy: migration 19 runs on it)

import type { ListQuery } from '../../../src/contract/index.js';
import { openDatabase } from '../../../src/store/sqlite/db.js';
import { compileList, TENANT } from '../../../src/store/sqlite/list-query.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../../src/store/sqlite/repos/customers.js';
import { SQLITE_USER_LIST_DEF } from '../../../src/store/sqlite/repos/users.js';

const [file, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const db = openDatabase(file);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const [table, def] of [['users', SQLITE_USER_LIST_DEF], ['customers', SQLITE_CUSTOMER_LIST_DEF]] as const) {
  const tenant = (db.prepare(`SELECT tenant_id FROM ${table} GROUP BY tenant_id ORDER BY count(*) DESC LIMIT 1`).pluck().get()) as number;
  const own = db.prepare(`SELECT created_at FROM ${table} INDEXED BY ${table}_created_at_count WHERE tenant_id = ? ORDER BY created_at`).pluck();
  const stamps = own.all(tenant) as string[];
  const at = [0, 0.25, 0.5, 0.75, 1].map((f) => [f, stamps[Math.min(stamps.length - 1, Math.floor(f * stamps.length))]] as const);
  for (const operator of ['GreaterThan', 'LessThan'] as const) {
    for (const [fraction, value] of at) {
      const query = { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: { attribute: 'created_at', operator, value } } as unknown as ListQuery;
      const c = compileList(def, query, 'scan');
      const bind = (list: unknown[]) => [tenant, ...list.map((p) => (p === TENANT ? tenant : p))];
      const before = `SELECT COUNT(*) AS n, MIN(${def.idColumn}) AS lo FROM ${def.from} INDEXED BY ${table}_created_at_count WHERE ${def.tenantColumn} = ? AND ${def.tenantColumn} > 0 AND ${def.deletedColumn} IS NULL AND (${def.columns.created_at.sql}) ${operator === 'GreaterThan' ? '>' : '<'} ?`;
      const variants = {
        before: [before, [tenant, value]],
        bounds: [c.countSql, bind(c.countParams!)],
        'bounds+span': [c.span!.sql, bind(c.countParams!)],
      } as const;
      const times: Record<string, number[]> = {};
      const answers: Record<string, unknown> = {};
      for (let r = 0; r < rounds; r++) {
        for (const [name, [sql, params]] of Object.entries(variants)) {
          const stmt = db.prepare(sql);
          const t0 = process.hrtime.bigint();
          const got = stmt.get(...params) as { n: number; lo?: number };
          (times[name] ??= []).push(ms(t0));
          answers[name] = name === 'bounds' ? got.n : `${got.n}/${got.lo}`;
        }
      }
      const ok = answers.before === answers['bounds+span'] && String(answers.bounds) === String(answers.before).split('/')[0];
      console.log(`${table} ${operator} at ${fraction * 100}%: n=${String(answers.before)} ${ok ? 'agree' : `DISAGREE ${JSON.stringify(answers)}`}; ms (median of ${rounds}) ${Object.entries(times).map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', ')}`);
    }
  }
}
db.close();
