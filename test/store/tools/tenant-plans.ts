// Measures list plans and timings for a big tenant (100,000 users and customers) beside a small one
// (50 of each) under several index/steering options. Page and count are timed separately and
// uncached. Usage: npx tsx test/store/tools/tenant-plans.ts [variant...]

import { seedBulk } from '../../../src/admin/seed/index.js';
import { compileList, TENANT } from '../../../src/store/sqlite/list-query.js';
import type { ListDef } from '../../../src/store/rows/list-def.js';
import { SQLITE_USER_LIST_DEF } from '../../../src/store/sqlite/repos/users.js';
import { SQLITE_CUSTOMER_LIST_DEF } from '../../../src/store/sqlite/repos/customers.js';
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { openStore } from '../../../src/store/sqlite/index.js';
import { atOnce } from '../../at-once.js';

const base = '/tmp/tenant-plans-base.db';
if (!existsSync(base)) {
  const s = openStore(base);
  const big = s.tenants.create('big.example').id;
  for (const n of ['Engineering', 'Sales', 'Support', 'Finance', 'Legal', 'Marketing', 'Research', 'Operations', 'HR', 'IT']) s.departments.create(big, n);
  atOnce(seedBulk(s, big, { users: 100_000, customers: 100_000 }));
  const small = s.tenants.create('small.test').id;
  for (const n of ['Engineering', 'Sales', 'Support']) s.departments.create(small, n);
  atOnce(seedBulk(s, small, { users: 50, customers: 50 }));
  for (let i = 0; i < 20; i++) atOnce(seedBulk(s, s.tenants.create(`t${i}.example`).id, { users: 50, customers: 5 }));
  s.close();
  const d = new Database(base); d.pragma('wal_checkpoint(TRUNCATE)'); d.pragma('journal_mode = DELETE'); d.close();
}

type Q = Parameters<typeof compileList>[1];
const q = (filter: Q['filter'], order_by = 'id', dir: 'asc' | 'desc' = 'asc', page = 1, with_trashed = false): Q =>
  ({ page_size: 15, page_number: page, with_trashed, order_by, order_direction: dir, filter });
const F = (attribute: string, type: any, operator: any, value: any) => ({ attribute, type, operator, value });
const userCases: [string, Q][] = [
  ['default', q(null)],
  ['page 100', q(null, 'id', 'asc', 100)],
  ['with trashed', q(null, 'id', 'asc', 1, true)],
  ['order created desc', q(null, 'created_at', 'desc')],
  ['order last_name', q(null, 'last_name')],
  ['status eq 0', q(F('status', 'integer', 'Equal', 0))],
  ['email contains', q(F('email', 'text', 'Contains', 'ada'))],
  ['last_name eq, created desc', q(F('last_name', 'text', 'Equal', 'knuth'), 'created_at', 'desc')],
  ['created >', q(F('created_at', 'date', 'GreaterThan', '2024-03-09T00:00:00.000Z'))],
  ['department eq', q(F('department', 'text', 'Equal', 'sales'))],
  ['department contains', q(F('department', 'text', 'Contains', 'ing'))],
  ['department eq, last_name', q(F('department', 'text', 'Equal', 'sales'), 'last_name')],
];
const customerCases: [string, Q][] = [
  ['default', q(null)],
  ['order created desc', q(null, 'created_at', 'desc')],
  ['email contains', q(F('email', 'text', 'Contains', 'ada'))],
  ['last_name eq', q(F('last_name', 'text', 'Equal', 'knuth'))],
];

// Options measured (the first five by rewriting the tenant predicate of the compiled SQL):
interface Variant { ddl?: string; analyze?: 'stat4' | 'stat1' | 'none'; access?: boolean; steer?: (def: ListDef, sql: string, small: boolean) => string }
const TENANT_IDX = `CREATE INDEX users_tenant ON users(tenant_id, deleted_at) WHERE tenant_id > 0; CREATE INDEX customers_tenant ON customers(tenant_id, deleted_at) WHERE tenant_id > 0;`;
const TENANT_DELETED_IDX = TENANT_IDX.replaceAll(' WHERE tenant_id > 0', '');
const TENANT_ONLY_IDX = TENANT_DELETED_IDX.replaceAll(', deleted_at)', ')');
const DEPT_IDX = 'CREATE INDEX users_department_tenant ON users(department_id, tenant_id, deleted_at) WHERE tenant_id > 0;';
const DEPT_IDX_PLAIN = 'DROP INDEX users_department; CREATE INDEX users_department ON users(department_id, tenant_id, deleted_at);';
const unplus = (def: ListDef, sql: string) => sql.replaceAll(`${def.tenantColumn} > 0 AND `, '').replace(/ INDEXED BY \w+/g, '');
const plus = (def: ListDef, sql: string) => sql.replaceAll(`${def.tenantColumn} = ?`, `+${def.tenantColumn} = ?`);
const variants: Record<string, Variant> = {
  'before (no tenant index; department via join)': { analyze: 'stat4', steer: unplus },
  'before, stat1 only': { analyze: 'stat1', steer: unplus },
  'before, no ANALYZE': { analyze: 'none', steer: unplus },
  '(tenant_id, deleted_at) index, planner decides, stat4': { ddl: TENANT_DELETED_IDX, analyze: 'stat4', steer: unplus },
  '(tenant_id, deleted_at) index, planner decides, stat1 only': { ddl: TENANT_DELETED_IDX, analyze: 'stat1', steer: unplus },
  '(tenant_id, deleted_at) index, +tenant for big / INDEXED BY small (skip-scan)': { ddl: TENANT_DELETED_IDX, analyze: 'stat4', access: true, steer: (d, s, small) => (small ? s : plus(d, unplus(d, s))) },
  '(tenant_id) index, planner decides, stat4': { ddl: TENANT_ONLY_IDX, analyze: 'stat4', steer: unplus },
  '(tenant_id) index, +tenant for big / INDEXED BY small': { ddl: TENANT_ONLY_IDX, analyze: 'stat4', access: true, steer: (d, s, small) => (small ? s : plus(d, unplus(d, s))) },
  // (measured before: the department count through the plain users_department index, 8.6 ms eq / 16.9 ms contains at 100,000)
  'tenant index + steering, users_department widened to (department_id, tenant_id, deleted_at) (skip-scan)': {
    ddl: TENANT_IDX + DEPT_IDX_PLAIN, analyze: 'stat4', access: true, steer: (_d, s) => s.replace('INDEXED BY users_department_tenant', 'INDEXED BY users_department'),
  },
  'chosen: tenant index + steering + partial users_department_tenant, stat4': { ddl: TENANT_IDX + DEPT_IDX, analyze: 'stat4', access: true },
  'chosen, stat1 only': { ddl: TENANT_IDX + DEPT_IDX, analyze: 'stat1', access: true },
  'chosen, no ANALYZE': { ddl: TENANT_IDX + DEPT_IDX, analyze: 'none', access: true },
};

function median(xs: number[]) { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; }
function time(fn: () => unknown, budgetMs = 150): number {
  const xs: number[] = []; const end = performance.now() + budgetMs;
  do { const t = performance.now(); fn(); xs.push(performance.now() - t); } while (performance.now() < end && xs.length < 200);
  return median(xs);
}

const only = process.argv.slice(2);
for (const [name, v] of Object.entries(variants)) {
  if (only.length && !only.some((o) => name.includes(o))) continue;
  const file = '/tmp/tenant-plans.db'; rmSync(file, { force: true }); copyFileSync(base, file);
  const db = new Database(file);
  if (v.ddl) db.exec(v.ddl);
  if (v.analyze !== 'none') db.exec('ANALYZE');
  if (v.analyze === 'stat1') { db.exec('DELETE FROM sqlite_stat4'); db.close(); }
  const conn = v.analyze === 'stat1' ? new Database(file) : db;
  console.log(`\n=== ${name}`);
  for (const [def, cases] of [[SQLITE_USER_LIST_DEF, userCases], [SQLITE_CUSTOMER_LIST_DEF, customerCases]] as const) {
    for (const [tenant, label] of [[1, 'big'], [2, 'small']] as const) for (const [cname, query] of cases) {
      const old = !v.access && !v.ddl && cname.startsWith('department');
      const c = compileList(old ? { ...def, columns: { ...def.columns, department: { ...def.columns.department, semi: undefined } } } : def, query, v.access && tenant === 2 ? 'index' : 'scan');
      const steer = (sql: string) => (v.steer ? v.steer(def, sql, tenant === 2) : sql);
      const page = conn.prepare(steer(c.pageSql)); const count = conn.prepare(steer(c.countSql));
      const bind = [tenant, ...c.params.map((p) => (p === TENANT ? tenant : p))];
      const plan = (sql: string, p: unknown[]) => (conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...p) as { detail: string }[]).map((r) => r.detail).join(' | ');
      const pm = time(() => page.all(...bind, c.limit, c.offset));
      const cm = time(() => count.get(...bind));
      const n = (count.get(...bind) as { n: number }).n;
      console.log(`${def === SQLITE_USER_LIST_DEF ? 'users' : 'cust '} ${label.padEnd(5)} ${cname.padEnd(28)} page ${pm.toFixed(3).padStart(7)} ms  count ${cm.toFixed(3).padStart(7)} ms  n=${n}`);
      if (process.env.PLANS) console.log(`      page: ${plan(steer(c.pageSql), [...bind, c.limit, c.offset])}\n      count: ${plan(steer(c.countSql), bind)}`);
    }
  }
  conn.close();
}
