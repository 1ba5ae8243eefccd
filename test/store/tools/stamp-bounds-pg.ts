// PostgreSQL's side of stamp-bounds.ts: copies a large SQLite instance (`admin copy`) into an
// embedded PostgreSQL, then times a date range's count there in one process, the variants
// interleaved per instant: the count from the smaller side of the instant as before migration 10
// (range-count.ts), and the count from the counters' stamp bounds (store/stamp-bounds.ts), each
// with and without the matches' id span. Also checks they agree.
// Usage: node --import tsx test/store/tools/stamp-bounds-pg.ts DATA_DIR [ROUNDS]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ListQuery } from '../../../src/contract/index.js';
import { copyToPostgres } from '../../../src/admin/copy.js';
import { compileList } from '../../../src/store/postgres/list-query.js';
import { PG_CUSTOMER_LIST_DEF } from '../../../src/store/postgres/people.js';
import { rangeCountSql, rangeSpanCountSql } from '../../../src/store/postgres/range-count.js';
import { USER_LIST_DEF } from '../../../src/store/rows/users.js';
import { createDatabase } from '../../../bench/lib/postgres.js';
import { startPostgres } from '../../pg/postgres-server.js';

const [from, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = await startPostgres({ durable: true, settings: { max_wal_size: '16GB' } });
const media = mkdtempSync(join(tmpdir(), 'confctl-bounds-media-'));
try {
  const url = await createDatabase(server.url, 'bounds');
  let t0 = performance.now();
  await copyToPostgres({ from, to: url, mediaFrom: join(from, 'media'), mediaTo: media, replace: false });
  console.log(`admin copy: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const client = new pg.Client(url);
  await client.connect();
  try {
    for (const [table, def] of [['users', USER_LIST_DEF], ['customers', PG_CUSTOMER_LIST_DEF]] as const) {
      const tenant = Number((await client.query(`SELECT tenant_id FROM ${table} GROUP BY tenant_id ORDER BY count(*) DESC LIMIT 1`)).rows[0].tenant_id);
      const stamps = (await client.query<{ s: string }>(`SELECT created_at AS s FROM ${table} WHERE tenant_id = $1 ORDER BY created_at`, [tenant])).rows.map((r) => r.s);
      for (const operator of ['GreaterThan', 'LessThan'] as const) {
        for (const fraction of [0, 0.25, 0.5, 0.75, 1]) {
          const value = stamps[Math.min(stamps.length - 1, Math.floor(fraction * stamps.length))];
          const query = { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: 'asc', filter: { attribute: 'created_at', operator, value } } as unknown as ListQuery;
          const c = compileList(def, tenant, query);
          const [op, other] = operator === 'GreaterThan' ? ['>', '<='] : ['<', '>='];
          const column = (def.columns as Readonly<Record<string, { sql: string }>>).created_at.sql;
          const parts = {
            from: def.from, id: def.idColumn, tenant: '$1', counted: def.counted!, withTrashed: false, column,
            scope: `${def.tenantColumn} = $1 AND ${def.deletedColumn} IS NULL`, matches: `(${column}) ${op} $2`, others: [`(${column}) ${other} $2`], later: operator === 'GreaterThan',
          };
          const variants: Record<string, string> = { before: rangeCountSql(parts), 'before+span': rangeSpanCountSql(parts), bounds: c.count.text, 'bounds+span': c.spanCount!.text };
          const times: Record<string, number[]> = {};
          const answers: Record<string, string> = {};
          for (let r = 0; r < rounds; r++) {
            for (const [name, text] of Object.entries(variants)) {
              t0 = performance.now();
              const row = (await client.query<{ n: string }>({ text, values: [tenant, value] })).rows[0];
              (times[name] ??= []).push(performance.now() - t0);
              answers[name] = String(row.n);
            }
          }
          const agree = new Set(Object.values(answers)).size === 1;
          console.log(`${table} ${operator} at ${fraction * 100}%: n=${answers.before} ${agree ? 'agree' : `DISAGREE ${JSON.stringify(answers)}`}; ms (median of ${rounds}) ${Object.entries(times).map(([k, v]) => `${k} ${median(v).toFixed(2)}`).join(', ')}`);
        }
      }
    }
  } finally {
    await client.end();
  }
} finally {
  await server.stop();
  rmSync(media, { recursive: true, force: true });
}
