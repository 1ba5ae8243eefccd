import { seedBulk } from '../../../src/admin/seed/index.js';
import { ListRunner } from '../../../src/store/sqlite/list-query.js';
import { SQLITE_USER_LIST_DEF } from '../../../src/store/sqlite/repos/users.js';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { openStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';
const file = '/tmp/plan.db'; rmSync(file, { force: true }); rmSync(file + '-wal', { force: true }); rmSync(file + '-shm', { force: true });
const s = openStore(file);
const big = s.tenants.create('big.example').id;
for (const n of ['Engineering', 'Sales', 'Support', 'Finance']) s.departments.create(big, n);
atOnce(seedBulk(s, big, { users: 100000, customers: 1000 }));
for (let i = 0; i < 20; i++) { const t = s.tenants.create(`t${i}.example`).id; atOnce(seedBulk(s, t, { users: 50, customers: 5 })); }
s.optimize(); s.close();
const db = new Database(file);
const runner = new ListRunner<any>(db, SQLITE_USER_LIST_DEF);
const q = (f: any, ob = 'id', dir: 'asc' | 'desc' = 'asc', page = 1) => ({ page_size: 15, page_number: page, with_trashed: false, order_by: ob, order_direction: dir, filter: f });
const cases: [string, any][] = [
  ['default', q(null)],
  ['order created desc', q(null, 'created_at', 'desc')],
  ['order last_name', q(null, 'last_name')],
  ['email eq', q({ attribute: 'email', type: 'text', operator: 'Equal', value: 'ada.turing.5@bulk.example.com' })],
  ['status eq 0', q({ attribute: 'status', type: 'integer', operator: 'Equal', value: 0 })],
  ['status eq 0 by created', q({ attribute: 'status', type: 'integer', operator: 'Equal', value: 0 }, 'created_at')],
  ['created >', q({ attribute: 'created_at', type: 'date', operator: 'GreaterThan', value: '2024-03-09T00:00:00.000Z' })],
  ['email contains', q({ attribute: 'email', type: 'text', operator: 'Contains', value: 'ada' })],
  ['department eq', q({ attribute: 'department', type: 'text', operator: 'Equal', value: 'sales' })],
  ['last_name eq', q({ attribute: 'last_name', type: 'text', operator: 'Equal', value: 'knuth' }, 'created_at', 'desc')],
  ['deleted notnull trashed', { ...q({ attribute: 'deleted_at', type: 'date', operator: 'NotNull', value: null }), with_trashed: true }],
];
for (const tenant of [big, 5]) for (const [name, query] of cases) {
  const p = runner.explain(tenant, query);
  const t0 = performance.now(); let r = runner.run(tenant, query); for (let i = 1; i < 5; i++) r = runner.run(tenant, query); const ms = (performance.now() - t0) / 5;
  console.log(`[t${tenant}] ${name}: ${ms.toFixed(2)} ms total=${r.total}\n   page: ${p.page.join(' | ')}\n   count: ${p.count.join(' | ')}`);
}
