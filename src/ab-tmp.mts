// A/B of the page SQL: the customers' list def as compiled now (new) and with address/city_country without `texts` (old), interleaved.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { compileList } from './store/postgres/list-query.ts';
import { PG_CUSTOMER_LIST_DEF } from './store/postgres/people.ts';
const { database } = JSON.parse(readFileSync('/work/wt/addr-tools/pg1m.json', 'utf8'));
const c = new pg.Client(database); await c.connect();
await c.query('SET random_page_cost = 1.1');
const NEW = PG_CUSTOMER_LIST_DEF as never;
const OLD = { ...PG_CUSTOMER_LIST_DEF, columns: Object.fromEntries(Object.entries(PG_CUSTOMER_LIST_DEF.columns).map(([n, col]) => [n, { sql: col.sql, type: col.type }])) } as never;
const queries = JSON.parse(process.argv[2]);
const rounds = Number(process.argv[3] ?? 10);
const times: Record<string, number[]> = { old: [], new: [] };
for (let i = 0; i < rounds; i++) {
  for (const [k, over] of queries.entries()) {
    const query = { page_size: 15, page_number: 1, with_trashed: false, order_by: 'id', order_direction: i % 2 ? 'desc' : 'asc', filter: null, ...over };
    for (const [name, def] of (i + k) % 2 ? [['new', NEW], ['old', OLD]] : [['old', OLD], ['new', NEW]]) {
      const t = process.hrtime.bigint();
      const first = compileList(def, 1, query as never);
      const n = Number((await c.query(first.count)).rows[0].n);
      const { page } = compileList(def, 1, query as never, n);
      await c.query(page);
      times[name as string].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
}
const q = (a: number[], p: number) => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.ceil((p / 100) * a.length) - 1)];
for (const [k, a] of Object.entries(times)) console.log(k, 'n', a.length, 'p50', q(a, 50).toFixed(1), 'p90', q(a, 90).toFixed(1), 'max', q(a, 100).toFixed(1));
await c.end();
